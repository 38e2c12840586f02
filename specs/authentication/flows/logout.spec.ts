// Logout, optionally federated (§4.3): path, parameters and answer are not shown and no
// standard is named, so the request is sent as tenants of this kind take it (client ID and a
// registered return URL in the query) and where it sends the browser is recorded.
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../../../lib/declare.ts';
import { answerOf, endpointOf } from '../../../lib/auth/conditions.ts';
import type { LogoutAnswer } from '../../../lib/auth/flow-fixtures.ts';
import { logoutUrl, registeredLogout } from './flow-checks.ts';
import { runSkip } from '../../../lib/skip-record.ts';
import { notOfferedSkip } from '../../../lib/config.ts';

for (const federated of [false, true]) {
  const clause = federated ? 'auth.flow.logout.federated' : 'auth.flow.logout';
  test(
    `logout${federated ? ' with federated' : ''}: answer recorded`,
    clauses(OPERATIONS.authFlow, clause, 'auth.api.named-flows'),
    async ({ run, flows, check }) => {
      const { auth } = run.cfg;
      skipTest(notOfferedSkip(run.cfg, 'logout'));
      const clientId = auth.publicClientId ?? auth.post?.id;
      skipTest(
        !clientId &&
          runSkip(
            { setting: 'IDM_PUBLIC_CLIENT_ID' },
            'needs a client with a registered logout return URL: set IDM_PUBLIC_CLIENT_ID (or IDM_POST_CLIENT_ID)',
          ),
      );
      skipTest(
        !auth.logoutReturnTo &&
          runSkip(
            { setting: 'IDM_LOGOUT_RETURN_TO' },
            'needs a logout return URL registered for that client: set IDM_LOGOUT_RETURN_TO',
          ),
      );
      const e = await flows.endpoint('logout');
      const url = logoutUrl(e, clientId!, auth.logoutReturnTo!, federated ? { federated: '' } : {});
      // The plain logout is the near misses' accepted twin too (security/logout-return.spec.ts): sent once.
      const answer = federated
        ? await flows.logout(url, [auth.logoutReturnTo!])
        : await registeredLogout(flows, url, auth.logoutReturnTo!);
      flows.stopIfAbsent(e, answer.ex);
      answerOf(
        check,
        clause,
        `logout${federated ? ' (federated)' : ''}`,
        answer.ex,
        whereTo(answer, auth.logoutReturnTo!),
      );
      endpointOf(check, 'logout', e);
    },
  );
}

function whereTo(a: LogoutAnswer, returnTo: string): string {
  const through = a.pages.length > 0 ? ` (through ${a.pages.join(' → ')})` : '';
  if (a.notDriven) return `, a page the suite could not confirm: ${a.notDriven}`;
  if (!a.redirectedTo) return `, no redirect${through}`;
  return a.redirectedTo.startsWith(returnTo)
    ? `, to the return URL${through}`
    : `, to ${a.redirectedTo.split(/[?#]/)[0]}${through}`;
}
