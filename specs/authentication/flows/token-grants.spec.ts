// Named flows at the token endpoint (§4.3): client credentials and resource owner (password).
// §4.3 names them without payloads; success and refusal are asserted as OAuth 2.0 states them.
// Both use the authentication API's own clients, never the management client.
import { FLOW_GRANT } from '../../../lib/twin-gate.ts';
import { endpointOf } from '../../../lib/auth/conditions.ts';
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../../../lib/declare.ts';
import { notOfferedSkip } from '../../../lib/config.ts';
import { clientCredentialsAnswer } from '../../../lib/auth/encoding.ts';
import { NO_POST_CLIENT } from '../../../lib/auth/needs.ts';

test.describe('token-endpoint flows', () => {
  test(
    'client credentials: a confidential client gets an access token',
    clauses(OPERATIONS.authFlow, 'auth.flow.client-credentials', 'auth.token.answer', 'auth.api.named-flows'),
    async ({ run, flows, gate }) => {
      const { cfg } = run;
      skipTest(notOfferedSkip(cfg, 'client-credentials'));
      const post = cfg.auth.post;
      skipTest(!post && NO_POST_CLIENT);
      const enc = await flows.encoding();
      // The encoding probe sent this very grant (lib/auth/encoding.ts): its answer is judged.
      const answer =
        clientCredentialsAnswer(enc) ??
        (
          await flows.token({
            grant_type: 'client_credentials',
            client_id: post!.id,
            client_secret: post!.secret,
            audience: cfg.audience,
          })
        ).ex;
      await gate.issued('auth.flow.client-credentials', answer, `client credentials (client ${post!.id})`, enc.note);
      await gate.call(endpointOf, null, {
        flow: 'client credentials',
        at: `${cfg.auth.tokenUrl} (from ${cfg.auth.targetsFrom.tokenUrl})`,
      });
    },
  );

  test(
    'resource owner: the test user gets an access token, a wrong password does not',
    clauses(OPERATIONS.authFlow, 'auth.flow.password', 'auth.flow.password.wrong-password', 'auth.flow.refusals'),
    async ({ run, flows, gate }) => {
      skipTest(notOfferedSkip(run.cfg, 'password'));
      const { note } = await flows.encoding();
      const t = await flows.passwordGrant('openid profile email');
      const twin = await gate.issued('auth.flow.password', t.ex, 'password grant for the test user', note);
      if (!twin.ok) {
        gate.skip(twin, 'auth.flow.password.wrong-password', 'auth.flow.refusals');
        return;
      }
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
      gate.refused(
        twin,
        'auth.flow.password.wrong-password',
        wrong.ex,
        'password grant with a wrong password',
        FLOW_GRANT,
      );
    },
  );
});
