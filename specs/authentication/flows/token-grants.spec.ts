// Named flows at the token endpoint (§4.3): client credentials and resource owner (password).
// §4.3 names them without payloads; success and refusal are asserted as OAuth 2.0 states them.
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { fullClientGrant } from '../../../lib/auth/target.ts';
import { tokenIssued } from './flow-checks.ts';

test.describe('token-endpoint flows', () => {
  test(
    'client credentials: a confidential client gets an access token',
    clauses(OPERATIONS.authFlow, 'auth.flow.client-credentials', 'auth.api.named-flows'),
    async ({ run, flows, check }) => {
      const { cfg } = run;
      const t = await flows.token(fullClientGrant(cfg));
      check.that(
        'auth.flow.client-credentials',
        tokenIssued(t),
        `client credentials (JSON body) answered ${t.ex.status}${t.accessToken ? '' : ' without an access_token'}${t.tokenType ? '' : ' without a token_type'}`,
        t.ex,
      );
      check.observe(
        'auth.api.named-flows',
        `client credentials: ${new URL(cfg.auth.tokenUrl).pathname} (IDM_TOKEN_PATH)`,
      );
    },
  );

  test(
    'resource owner: the test user gets an access token, a wrong password does not',
    clauses(OPERATIONS.authFlow, 'auth.flow.password', 'auth.flow.password.wrong-password', 'auth.flow.refusals'),
    async ({ run, flows, check }) => {
      const t = await flows.passwordGrant('openid profile email');
      check.that(
        'auth.flow.password',
        tokenIssued(t),
        `password grant for the test user answered ${t.ex.status}${t.accessToken ? '' : ' without an access_token'}${t.tokenType ? '' : ' without a token_type'}`,
        t.ex,
      );
      // One failed attempt, followed by the successful ones of this run: far from any §8 limit.
      const { post, user } = run.cfg.auth;
      const wrong = await flows.token({
        grant_type: 'password',
        client_id: post!.id,
        client_secret: post!.secret,
        username: user!.username,
        password: `${user!.password}-not`,
        scope: 'openid',
      });
      flows.refusal('auth.flow.password.wrong-password', wrong, 'password grant with a wrong password');
    },
  );
});
