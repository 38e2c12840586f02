// The management API's client-credentials token endpoint (§5.1): the path the spec names. The
// authentication API's conventions (§4.3), ways to authenticate (§5.2) and errors (§7.3) are
// judged on its own token endpoint (IDM_AUTH_URL), never here: specs/authentication/.
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../../lib/declare.ts';
import { clausesOf } from '../../lib/condition.ts';
import { fullClientGrant } from '../../lib/auth/target.ts';
import { issuedAtNamedPath, scopeNamesRecorded, tokenOf } from '../../lib/management/token.ts';
import { recorded } from '../../lib/management/recorded.ts';

const BASE = recorded('auth.api.base');

test.describe('client-credentials token endpoint', () => {
  test(
    'a token is issued at the path the spec names, /oauth/token/',
    clauses(OPERATIONS.token, ...clausesOf(issuedAtNamedPath, BASE, scopeNamesRecorded)),
    async ({ run, anon, gate }) => {
      const { cfg } = run;
      const ex = await anon.send('POST', `${cfg.baseUrl}/oauth/token/`, {
        data: fullClientGrant(cfg),
        encoding: 'form',
      });
      await gate.call(issuedAtNamedPath, null, ex);
      await gate.call(BASE, null, { what: `the token endpoint at ${cfg.baseUrl}/oauth/token/`, ex });
      await gate.call(scopeNamesRecorded, null, tokenOf(ex));
    },
  );
});
