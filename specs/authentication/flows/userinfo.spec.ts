// Get user info (§4.3, §5.2 "OAuth2 access token … for example get user info"): the test
// user's access token as a Bearer token (RFC 6750 §2.1) answers the user's claims, sub among
// them (OIDC Core §5.3.2). The refusals of bad Bearer tokens are the §5.2 method's clauses.
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { describeEndpoint } from '../../../lib/auth/endpoints.ts';
import { isObject } from '../../../lib/values.ts';
import { newState } from '../../../lib/auth/pkce.ts';
import { publicClient } from './flow-checks.ts';

test(
  "get user info with the user's access token as Bearer",
  clauses(OPERATIONS.authFlow, 'auth.flow.userinfo', 'auth.api.named-flows'),
  async ({ run, flows, check }) => {
    const { auth } = run.cfg;
    // The user's token: the password grant where it is configured, else the implicit grant in the browser.
    const viaPassword = auth.post !== null && auth.user !== null;
    test.skip(
      !viaPassword && !auth.publicClientId,
      'needs a user access token: set IDM_POST_CLIENT_ID/_SECRET and IDM_TEST_USERNAME/_PASSWORD (password grant), or IDM_PUBLIC_CLIENT_ID and IDM_TEST_USERNAME/_PASSWORD (implicit grant in the browser)',
    );
    let accessToken: string | null;
    if (viaPassword) {
      const t = await flows.passwordGrant('openid profile email');
      accessToken = t.accessToken;
      test.skip(
        !accessToken,
        `the password grant gave no access token (answered ${t.ex.status}); auth.flow.password says why`,
      );
    } else {
      const { clientId, redirectUri } = publicClient(run.cfg);
      const out = await flows.authorize(
        await flows.endpoint('authorize'),
        {
          response_type: 'token',
          client_id: clientId,
          redirect_uri: redirectUri,
          scope: 'openid profile email',
          state: newState(),
        },
        [redirectUri],
      );
      accessToken = out.params.access_token ?? null;
      test.skip(
        !accessToken,
        `the implicit grant gave no access token (${out.problem ?? 'none in the redirect'}); auth.flow.implicit says why`,
      );
    }
    const e = await flows.endpoint('userinfo');
    const ex = await flows.get(e.url, {}, { authorization: `Bearer ${accessToken}` });
    flows.skipIfAbsent(e, ex);
    const sub = isObject(ex.body) ? ex.body.sub : undefined;
    check.that(
      'auth.flow.userinfo',
      ex.status === 200 && typeof sub === 'string' && sub !== '',
      `user info with the user's Bearer token answered ${ex.status}${isObject(ex.body) ? (typeof sub === 'string' ? ' with sub' : ' without a sub string') : ' without a JSON object'}`,
      ex,
    );
    check.observe('auth.api.named-flows', `get user info: ${describeEndpoint(e)}`);
  },
);
