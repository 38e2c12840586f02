// §5.2 "OAuth2 access token" for endpoints acting for a user (get user info): without a
// valid user token (none, garbage, expired, another audience) the request is refused with a
// 4xx and an error object; the exact status is recorded (RFC 6750 §3.1 names 401). The
// success of get-user-info is the named flow's (specs/authentication/flows/).
import { test, USER_SCOPE } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { endpoint } from '../../../lib/auth/endpoints.ts';
import { expectAuthRefusal } from '../../../lib/auth/checks.ts';
import { forgeExpired, MALFORMED_TOKENS } from '../../../lib/auth/forge.ts';
import { notExercised } from '../../../lib/auth/acceptance.ts';
import { userInfoWith } from '../flows/flow-checks.ts';

test.describe('OAuth2 access token in Authorization: Bearer (§5.2)', () => {
  test(
    'user info refuses no token, garbage, an expired token and a token for another audience',
    clauses(
      OPERATIONS.authMethod,
      'auth.method.bearer',
      'auth.method.bearer.status',
      'auth.error.client-fault-4xx',
      'auth.error.object',
    ),
    async ({ run, anon, check, credentials, flows }, info) => {
      const { cfg } = run;
      const userinfo = await endpoint(cfg, anon, 'userinfo');
      // A real user token (the code flow with PKCE) is the model for the expired one (same header and claims, suite-signed).
      const user = await flows.userTokens(USER_SCOPE);
      test.skip(user.accessToken === null, user.problem ?? `no user token from ${user.source}`);
      // The accepted twin: the same endpoint with the user's valid token answers 200.
      const accepted = await userInfoWith(flows, userinfo.url, user.accessToken!);
      test.skip(
        accepted.status !== 200,
        notExercised(
          'auth.flow.userinfo',
          `user info with the user's token (from ${user.source}) answered ${accepted.status}`,
        ),
      );
      const cases: Array<[string, string | null]> = [
        ['no Authorization header', null],
        ...Object.entries(MALFORMED_TOKENS).map(([what, t]): [string, string] => [
          `a garbage token (${what})`,
          `Bearer ${t}`,
        ]),
        // The management token is tenant-signed and valid, but for the management API, not user info.
        ['a valid token for another audience (the management API)', `Bearer ${credentials.realToken}`],
        // A real user token is the model for the expired one (same header and claims, suite-signed).
        ['an expired user token', `Bearer ${await forgeExpired(user.accessToken!)}`],
      ];
      for (const [what, authorization] of cases) {
        const ex = await anon.withAuthorization('userinfo', authorization).send('GET', userinfo.url);
        expectAuthRefusal(check, info, 'auth.method.bearer', ex, `user info with ${what}`, {
          statusClause: 'auth.method.bearer.status',
        });
        if (ex.status === 401)
          check.observe(
            'auth.method.bearer.status',
            `WWW-Authenticate: ${ex.headers['www-authenticate'] ?? '(absent)'}`,
          );
      }
    },
  );
});
