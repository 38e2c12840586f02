// The client-credentials token endpoint (§4.3, §5.1, §5.2, §7.3): the path the spec names,
// its error object (§7.3), and the JSON body of §4.3. The five §5.2 methods, per configured
// client, are in specs/authentication/methods/.
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../../lib/declare.ts';
import { isObject, short } from '../../lib/values.ts';
import { peekClaims } from '../../lib/auth/forge.ts';
import { fullClientGrant } from '../../lib/auth/target.ts';
import { basicAuthorization } from '../../lib/auth/methods/client-secret-basic.ts';
import { accessTokenOf } from '../../lib/auth/acceptance.ts';
import { TwinGate } from '../../lib/auth/twin-gate.ts';

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

  test(
    'a wrong client secret is answered with a 4xx and an error object',
    clauses(
      OPERATIONS.token,
      'auth.error.client-fault-4xx',
      'auth.error.object',
      'auth.error.oauth-error',
      'auth.error.fields',
    ),
    async ({ run, anon, check }, info) => {
      const { cfg } = run;
      const ex = await anon.send('POST', cfg.tokenUrl, {
        data: {
          grant_type: 'client_credentials',
          client_id: cfg.client.id,
          client_secret: 'not-the-secret-0000000000',
          audience: cfg.audience,
        },
      });
      // The twin: this client's right secret obtained the run's management token (the global setup).
      const gate = new TwinGate(check, info);
      const twin = gate.given('auth.token.endpoint', true, '');
      gate.refused(twin, 'auth.error.client-fault-4xx', ex, 'token request with a wrong client secret', {
        tokenEndpoint: true,
      });
      await check.expectSchema('auth.error.object', 'AuthError', ex.body, ex);
      check.observe(
        'auth.error.fields',
        isObject(ex.body)
          ? `error object members: ${Object.keys(ex.body).sort().join(', ')} (${short(ex.body)})`
          : `no JSON object: ${short(ex.text)}`,
        ex,
      );
    },
  );

  test(
    'the management client in a JSON body obtains a token (§4.3); HTTP Basic for it is recorded',
    clauses(OPERATIONS.token, 'auth.api.post-json', 'auth.method.param-names'),
    async ({ run, anon, check }) => {
      const { cfg } = run;
      const json = await anon.send('POST', cfg.tokenUrl, {
        data: fullClientGrant(cfg),
      });
      check.that(
        'auth.api.post-json',
        accessTokenOf(json) !== null,
        `a JSON token request of the management client answered ${json.status}`,
        json,
      );
      // Which method the management client is configured for is tenant configuration: Basic is recorded.
      const basic = await anon
        .withAuthorization('basic-client', basicAuthorization(cfg.client.id, cfg.client.secret))
        .send('POST', cfg.tokenUrl, { data: { grant_type: 'client_credentials', audience: cfg.audience } });
      check.observe(
        'auth.method.param-names',
        `client_id / client_secret in a JSON body answered ${json.status}; the same client in HTTP Basic answered ${basic.status}`,
        basic,
      );
    },
  );
});
