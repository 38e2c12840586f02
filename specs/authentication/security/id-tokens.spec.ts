// ID tokens received outside the code flow (code-flow-tokens.spec.ts has that one), validated
// as OIDC Core says: from the authorization endpoint beside an access token (implicit,
// §3.2.2.11: nonce and at_hash), and from the password grant with openid (§3.1.3.7). Each is
// judged only where its flow gave what the flow's own clause requires (lib/auth/flow-products.ts).
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../../../lib/declare.ts';
import { issuerKeys } from '../../../lib/auth/id-token.ts';
import { idTokenValid } from '../../../lib/auth/conditions.ts';
import { publicClient } from '../flows/flow-checks.ts';
import { implicitLogin, member } from './login.ts';
import { runSkip, tenantSkip } from '../../../lib/skip-record.ts';
import { productsSkip, tokenGave } from '../../../lib/auth/flow-products.ts';
import { notOfferedSkip } from '../../../lib/config.ts';

test.describe('ID tokens outside the code flow', () => {
  test(
    'implicit "id_token token": the ID token validates, nonce and at_hash included',
    clauses(OPERATIONS.authFlow, 'auth.sec.id-token.valid'),
    async ({ run, flows, gate, anon }) => {
      const { clientId, redirectUri } = publicClient(run.cfg);
      const keys = await issuerKeys(run.cfg, anon);
      skipTest(typeof keys === 'string' && runSkip({}, `ID tokens cannot be validated: ${keys}`));
      skipTest(notOfferedSkip(run.cfg, 'implicit'));
      const { out, nonce } = await implicitLogin(flows, {
        responseType: 'id_token token',
        clientId,
        redirectUri,
        scope: 'openid profile',
      });
      const accessToken = out.params.access_token;
      if (typeof keys === 'string') return;
      await gate.call(idTokenValid, null, {
        of: 'the implicit "id_token token" login',
        idToken: out.params.id_token,
        keys,
        expect: { clientId, nonce, ...(accessToken ? { accessToken } : {}) },
      });
    },
  );

  test(
    'password grant with openid: the ID token validates',
    clauses(OPERATIONS.authFlow, 'auth.sec.id-token.valid', 'auth.sec.token.no-store', 'auth.sec.token.pragma'),
    async ({ run, flows, gate, anon }) => {
      const keys = await issuerKeys(run.cfg, anon);
      skipTest(typeof keys === 'string' && runSkip({}, `ID tokens cannot be validated: ${keys}`));
      skipTest(notOfferedSkip(run.cfg, 'password'));
      const t = await flows.passwordGrant('openid');
      skipTest(productsSkip(tokenGave('auth.flow.password', t.ex)));
      // OpenID Connect does not define this grant: an ID token is validated where one comes.
      const idToken = member(t.ex.body, 'id_token');
      // OpenID Connect does not define this grant: no ID token is the tenant's right.
      skipTest(
        idToken === null &&
          tenantSkip({}, 'the password grant with scope openid answered no id_token: nothing to validate'),
      );
      if (idToken === null || typeof keys === 'string') return;
      const expect = { clientId: run.cfg.auth.post!.id };
      await gate.call(idTokenValid, null, { of: 'the password grant', idToken, keys, expect, ex: t.ex });
    },
  );
});
