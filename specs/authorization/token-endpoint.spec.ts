// The client-credentials token endpoint (§4.3, §5.1, §5.2, §7.3): the path the spec names,
// its error object, and the client authentication methods, whose support is recorded.
import { readFileSync } from 'node:fs';
import { importPKCS8, SignJWT } from 'jose';
import { randomUUID } from 'node:crypto';
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../../lib/declare.ts';
import { isObject, short } from '../../lib/values.ts';
import { peekClaims } from '../../lib/forge.ts';

test.describe('client-credentials token endpoint', () => {
  test('a token is issued at the path the spec names, /oauth/token/', clauses(OPERATIONS.token, 'auth.token.endpoint', 'auth.api.base', 'auth.mgmt.scope-names'), async ({ run, anon, check }) => {
    const { cfg } = run;
    const ex = await anon.send('POST', `${cfg.baseUrl}/oauth/token/`, {
      data: { grant_type: 'client_credentials', client_id: cfg.client.id, client_secret: cfg.client.secret, audience: cfg.audience },
      encoding: 'form',
    });
    const token = isObject(ex.body) && typeof ex.body.access_token === 'string' ? ex.body.access_token : null;
    check.that('auth.token.endpoint', ex.status >= 200 && ex.status < 300 && token !== null, `POST /oauth/token/ answered ${ex.status}${token ? ' with an access_token' : ' without an access_token'}`, ex);
    check.observe('auth.api.base', `the token endpoint answered ${ex.status} at ${cfg.baseUrl}/oauth/token/`);
    const scope = token ? peekClaims(token)?.scope : undefined;
    check.observe('auth.mgmt.scope-names', scope !== undefined ? `the full client's token carries scope "${String(scope)}"` : 'the token carries no readable scope claim');
  });

  test('a wrong client secret is answered with a 4xx and an error object', clauses(OPERATIONS.token, 'auth.error.client-fault-4xx', 'auth.error.object', 'auth.error.fields'), async ({ run, anon, check }) => {
    const { cfg } = run;
    const ex = await anon.send('POST', cfg.tokenUrl, {
      data: { grant_type: 'client_credentials', client_id: cfg.client.id, client_secret: 'not-the-secret-0000000000', audience: cfg.audience },
      encoding: 'form',
    });
    check.expectRejected('auth.error.client-fault-4xx', ex, 'token request with a wrong client secret');
    await check.expectSchema('auth.error.object', 'AuthError', ex.body, ex);
    check.observe('auth.error.fields', isObject(ex.body) ? `error object members: ${Object.keys(ex.body).sort().join(', ')} (${short(ex.body)})` : `no JSON object: ${short(ex.text)}`, ex);
  });

  test('client secret in a JSON body (Post) and in HTTP Basic: answers recorded', clauses(OPERATIONS.token, 'auth.api.post-json', 'auth.method.client-secret-post', 'auth.method.client-secret-basic', 'auth.method.param-names'), async ({ run, anon, check }) => {
    const { cfg } = run;
    const json = await anon.send('POST', cfg.tokenUrl, {
      data: { grant_type: 'client_credentials', client_id: cfg.client.id, client_secret: cfg.client.secret, audience: cfg.audience },
    });
    check.observe('auth.api.post-json', `a JSON token request answered ${json.status}`, json);
    check.observe('auth.method.client-secret-post', `client_id and client_secret in a JSON body answered ${json.status}`, json);
    check.observe('auth.method.param-names', `the OAuth 2.0 names client_id / client_secret answered ${json.status}`);
    const basic = await anon
      .withAuthorization('basic-client', `Basic ${Buffer.from(`${encodeURIComponent(cfg.client.id)}:${encodeURIComponent(cfg.client.secret)}`).toString('base64')}`)
      .send('POST', cfg.tokenUrl, { data: { grant_type: 'client_credentials', audience: cfg.audience }, encoding: 'form' });
    check.observe('auth.method.client-secret-basic', `HTTP Basic client authentication answered ${basic.status}`, basic);
  });

  test('a client assertion (private_key_jwt): answer recorded', clauses(OPERATIONS.token, 'auth.method.client-assertion'), async ({ run, anon, check }) => {
    const { cfg } = run;
    test.skip(!cfg.pkjwt, 'needs a private_key_jwt client: set IDM_PKJWT_CLIENT_ID and IDM_PKJWT_KEY_FILE');
    const key = await importPKCS8(readFileSync(cfg.pkjwt!.keyFile, 'utf8'), 'RS256');
    const now = Math.floor(Date.now() / 1000);
    const assertion = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(cfg.pkjwt!.id)
      .setSubject(cfg.pkjwt!.id)
      .setAudience(`${cfg.baseUrl}/`)
      .setIssuedAt(now)
      .setExpirationTime(now + 120)
      .setJti(randomUUID())
      .sign(key);
    const ex = await anon.send('POST', cfg.tokenUrl, {
      data: {
        grant_type: 'client_credentials',
        client_id: cfg.pkjwt!.id,
        client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
        client_assertion: assertion,
        audience: cfg.audience,
      },
      encoding: 'form',
    });
    check.observe('auth.method.client-assertion', `a signed client assertion (aud ${cfg.baseUrl}/) answered ${ex.status}`, ex);
  });
});
