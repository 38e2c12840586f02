// The management API's client-credentials token endpoint (§5.1): the path the spec names. The
// authentication API's conventions (§4.3), ways to authenticate (§5.2) and errors (§7.3) are
// judged on its own token endpoint (IDM_AUTH_URL), never here: specs/authentication/.
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../../lib/declare.ts';
import { isObject } from '../../lib/values.ts';
import { peekClaims } from '../../lib/auth/jwt-read.ts';
import { fullClientGrant } from '../../lib/auth/target.ts';

test.describe('client-credentials token endpoint', () => {
  test(
    'a token is issued at the path the spec names, /oauth/token/',
    clauses(OPERATIONS.token, 'auth.token.endpoint', 'auth.api.base', 'auth.mgmt.scope-names'),
    async ({ run, anon, check }) => {
      const { cfg } = run;
      const ex = await anon.send('POST', `${cfg.baseUrl}/oauth/token/`, {
        data: fullClientGrant(cfg),
        encoding: 'form',
      });
      const token = isObject(ex.body) && typeof ex.body.access_token === 'string' ? ex.body.access_token : null;
      check.that(
        'auth.token.endpoint',
        ex.status >= 200 && ex.status < 300 && token !== null,
        `POST /oauth/token/ answered ${ex.status}${token ? ' with an access_token' : ' without an access_token'}`,
        ex,
      );
      check.observe('auth.api.base', `the token endpoint answered ${ex.status} at ${cfg.baseUrl}/oauth/token/`);
      const scope = token ? peekClaims(token)?.scope : undefined;
      check.observe(
        'auth.mgmt.scope-names',
        scope !== undefined
          ? `the full client's token carries scope "${String(scope)}"`
          : 'the token carries no readable scope claim',
      );
    },
  );
});
