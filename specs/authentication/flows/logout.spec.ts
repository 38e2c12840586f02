// Logout, optionally federated (§4.3): path, parameters and answer are not shown and no
// standard is named, so the request is sent as tenants of this kind take it (client ID and a
// registered return URL in the query) and where it sends the browser is recorded.
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { describeEndpoint } from '../../../lib/auth/endpoints.ts';
import type { Exchange } from '../../../lib/http.ts';
import { logoutUrl, registeredLogout } from './flow-checks.ts';

for (const federated of [false, true]) {
  const clause = federated ? 'auth.flow.logout.federated' : 'auth.flow.logout';
  test(
    `logout${federated ? ' with federated' : ''}: answer recorded`,
    clauses(OPERATIONS.authFlow, clause, 'auth.api.named-flows'),
    async ({ run, flows, check }) => {
      const { auth } = run.cfg;
      const clientId = auth.publicClientId ?? auth.post?.id;
      test.skip(
        !clientId,
        'needs a client with a registered logout return URL: set IDM_PUBLIC_CLIENT_ID (or IDM_POST_CLIENT_ID)',
      );
      test.skip(!auth.logoutReturnTo, 'needs a logout return URL registered for that client: set IDM_LOGOUT_RETURN_TO');
      const e = await flows.endpoint('logout');
      const url = logoutUrl(e, clientId!, auth.logoutReturnTo!, federated ? { federated: '' } : {});
      // The plain logout is the near misses' accepted twin too (security/logout-return.spec.ts): sent once.
      const ex = federated ? await flows.get(url) : await registeredLogout(flows, url);
      flows.skipIfAbsent(e, ex);
      check.observe(
        clause,
        `logout${federated ? ' (federated)' : ''} answered ${ex.status}${whereTo(ex, auth.logoutReturnTo!)}`,
        ex,
      );
      check.observe('auth.api.named-flows', `logout: ${describeEndpoint(e)}`);
    },
  );
}

function whereTo(ex: Exchange, returnTo: string): string {
  const location = ex.headers.location;
  if (!location) return ', no Location';
  return location.startsWith(returnTo) ? ', to the return URL' : `, to ${location.split(/[?#]/)[0]}`;
}
