// Get user info (§4.3, §5.2 "OAuth2 access token … for example get user info"): the test
// user's access token as a Bearer token (RFC 6750 §2.1) answers the user's claims, sub among
// them (OIDC Core §5.3.2). The token comes from the code flow with PKCE (never a deprecated
// grant). The refusals of bad Bearer tokens are the §5.2 method's clauses.
import { test, USER_SCOPE } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../../../lib/declare.ts';
import { endpointOf, userInfoAnswered } from '../../../lib/auth/conditions.ts';
import { userInfoWith } from './flow-checks.ts';
import { notOfferedSkip } from '../../../lib/config.ts';

test(
  "get user info with the user's access token as Bearer",
  clauses(OPERATIONS.authFlow, 'auth.flow.userinfo', 'auth.api.named-flows'),
  async ({ run, flows, gate }) => {
    skipTest(notOfferedSkip(run.cfg, 'userinfo'));
    const user = await flows.userTokens(USER_SCOPE);
    skipTest(user.problem);
    const e = await flows.endpoint('userinfo');
    const ex = await userInfoWith(flows, e, user.accessToken!);
    flows.stopIfAbsent(e, ex);
    await gate.call(userInfoAnswered, null, { ex, from: user.source });
    await gate.call(endpointOf, null, { flow: 'get user info', at: e });
  },
);
