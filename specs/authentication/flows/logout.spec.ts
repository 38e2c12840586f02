// Logout, optionally federated (§4.3): path, parameters and answer are not shown and no
// standard is named, so the request is sent as tenants of this kind take it (client ID and a
// registered return URL in the query) and where it sends the browser is recorded.
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { endpointOf } from '../../../lib/auth/conditions.ts';
import { recorded } from '../../../lib/management/recorded.ts';
import type { LogoutAnswer } from '../../../lib/auth/flow-fixtures.ts';
import { logoutClient, logoutUrl, registeredLogout } from './flow-checks.ts';
import { describeSteps } from '../../../lib/auth/walk-steps.ts';

for (const federated of [false, true]) {
  const clause = federated ? 'auth.flow.logout.federated' : 'auth.flow.logout';
  test(
    `logout${federated ? ' with federated' : ''}: answer recorded`,
    clauses(OPERATIONS.authFlow, clause, 'auth.api.named-flows'),
    async ({ run, flows, gate }) => {
      const { clientId, returnTo } = logoutClient(run.cfg);
      const e = await flows.endpoint('logout');
      const url = logoutUrl(e, clientId, returnTo, federated ? { federated: '' } : {});
      // The plain logout is the near misses' accepted twin too (security/logout-return.spec.ts): sent once.
      const answer = federated
        ? await flows.logout(e, url, [returnTo])
        : await registeredLogout(flows, e, url, returnTo);
      flows.stopIfAbsent(e, answer.ex);
      const what = `logout${federated ? ' (federated)' : ''}`;
      await gate.call(recorded(clause), null, { what, ex: answer.ex, extra: whereTo(answer, returnTo) });
      await gate.call(endpointOf, null, { flow: 'logout', at: e });
    },
  );
}

function whereTo(a: LogoutAnswer, returnTo: string): string {
  const through = a.steps.length > 0 ? ` (through ${describeSteps(a.steps)})` : '';
  if (a.notDriven) return `, a page the suite could not confirm: ${a.notDriven}`;
  if (!a.redirectedTo) return `, no redirect${through}`;
  return a.redirectedTo.startsWith(returnTo)
    ? `, to the return URL${through}`
    : `, to ${a.redirectedTo.split(/[?#]/)[0]}${through}`;
}
