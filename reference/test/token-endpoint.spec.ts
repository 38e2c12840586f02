// Token endpoint: client credentials with every client authentication method (§5.1, §5.2, §7.3).
import { test, expect } from '@playwright/test';
import { createRemoteJWKSet, jwtVerify, decodeJwt } from 'jose';
import {
  ASSERTION_TYPE,
  FULL,
  LIMITED,
  PKJWT,
  RS_CONFORMANCE_IDENTIFIER,
  assertion,
  clientCredentials,
  tenant,
  type Client,
} from './helpers.ts';
import type { RunningTenant } from '../src/index.ts';

let t: RunningTenant;
let c: Client;
test.beforeAll(async () => ({ t, c } = await tenant()));
test.afterAll(async () => t.close());

const mgmt = () => `${t.publicUrl}/api/v2/`;
const grant = (extra?: Record<string, string>) => clientCredentials(t, extra);

test('client secret in a JSON body gives an RS256 access token with the granted scope', async () => {
  const r = await c.token(grant({ client_id: FULL.id, client_secret: FULL.secret }));
  expect(r.status).toBe(200);
  expect(r.body).toMatchObject({ token_type: 'Bearer', expires_in: 86400 });
  expect(r.headers.get('cache-control')).toBe('no-store');
  const jwks = createRemoteJWKSet(new URL(`${t.url}/.well-known/jwks.json`));
  const { payload, protectedHeader } = await jwtVerify(r.body.access_token, jwks, {
    issuer: `${t.publicUrl}/`,
    audience: mgmt(),
  });
  expect(protectedHeader.alg).toBe('RS256');
  expect(payload.azp).toBe(FULL.id);
  expect(String(payload.scope).split(' ')).toEqual(
    expect.arrayContaining(['update:resource_servers', 'create:experimentation']),
  );
  expect(r.body.scope).toBe(payload.scope);
});

test('client secret in a form body is accepted, on /oauth/token/ too', async () => {
  const body = new URLSearchParams(grant({ client_id: FULL.id, client_secret: FULL.secret })).toString();
  for (const path of ['/oauth/token', '/oauth/token/']) {
    const r = await c.send('POST', path, { headers: { 'content-type': 'application/x-www-form-urlencoded' }, body });
    expect(r.status, path).toBe(200);
  }
});

test('HTTP Basic client authentication is accepted', async () => {
  const basic = Buffer.from(`${LIMITED.id}:${LIMITED.secret}`).toString('base64');
  const r = await c.token(grant({}), { authorization: `Basic ${basic}` });
  expect(r.status).toBe(200);
  expect(r.body.scope).toBe('read:resource_servers');
});

test('audience written relative (/api/v2/) names the management API', async () => {
  const r = await c.token(grant({ client_id: FULL.id, client_secret: FULL.secret, audience: '/api/v2/' }));
  expect(r.status).toBe(200);
  expect(decodeJwt(r.body.access_token).aud).toBe(mgmt());
});

test('scope parameter narrows the token to the granted scopes asked for', async () => {
  const r = await c.token(
    grant({ client_id: FULL.id, client_secret: FULL.secret, scope: 'create:experimentation users:nope' }),
  );
  expect(r.status).toBe(200);
  expect(r.body.scope).toBe('create:experimentation');
});

test('a custom resource server identifier as audience gives a token for that API', async () => {
  const r = await c.token(
    grant({ client_id: FULL.id, client_secret: FULL.secret, audience: RS_CONFORMANCE_IDENTIFIER }),
  );
  expect(r.status).toBe(200);
  expect(decodeJwt(r.body.access_token).aud).toBe(RS_CONFORMANCE_IDENTIFIER);
});

const failures: Array<[string, () => Record<string, string>, Record<string, string>, number, string]> = [
  [
    'wrong secret',
    () => grant({ client_id: FULL.id, client_secret: 'wrong-secret-0123456789' }),
    {},
    401,
    'invalid_client',
  ],
  ['unknown client', () => grant({ client_id: 'nobody', client_secret: FULL.secret }), {}, 401, 'invalid_client'],
  ['no client authentication', () => grant({}), {}, 401, 'invalid_client'],
  ['client id without secret', () => grant({ client_id: FULL.id }), {}, 401, 'invalid_client'],
  ['secret without client id', () => grant({ client_secret: FULL.secret }), {}, 400, 'invalid_request'],
  [
    'pkjwt client with a secret',
    () => grant({ client_id: PKJWT.id, client_secret: FULL.secret }),
    {},
    401,
    'invalid_client',
  ],
  [
    'missing grant_type',
    () => ({ client_id: FULL.id, client_secret: FULL.secret, audience: mgmt() }),
    {},
    400,
    'invalid_request',
  ],
  [
    'unsupported grant_type',
    () => grant({ grant_type: 'urn:example:nope', client_id: FULL.id, client_secret: FULL.secret }),
    {},
    400,
    'unsupported_grant_type',
  ],
  [
    'missing audience',
    () => ({ grant_type: 'client_credentials', client_id: FULL.id, client_secret: FULL.secret }),
    {},
    400,
    'invalid_request',
  ],
  [
    'unknown audience',
    () => grant({ client_id: FULL.id, client_secret: FULL.secret, audience: 'https://nowhere.test/' }),
    {},
    403,
    'access_denied',
  ],
  [
    'system API identifier of another origin',
    () => grant({ client_id: FULL.id, client_secret: FULL.secret, audience: 'http://elsewhere.test/api/v2/' }),
    {},
    403,
    'access_denied',
  ],
  [
    'Basic and body secret together',
    () => grant({ client_id: FULL.id, client_secret: FULL.secret }),
    { authorization: `Basic ${Buffer.from(`${FULL.id}:${FULL.secret}`).toString('base64')}` },
    400,
    'invalid_request',
  ],
  [
    'Basic with a wrong secret',
    () => grant({}),
    { authorization: `Basic ${Buffer.from(`${FULL.id}:nope`).toString('base64')}` },
    401,
    'invalid_client',
  ],
  [
    'Basic without a colon',
    () => grant({}),
    { authorization: `Basic ${Buffer.from('nocolon').toString('base64')}` },
    401,
    'invalid_client',
  ],
];
for (const [title, params, headers, status, error] of failures) {
  test(`${title} → ${status} ${error}`, async () => {
    const r = await c.token(params(), headers);
    expect(r.status).toBe(status);
    expect(r.body).toEqual({ error, error_description: expect.any(String) });
    expect(r.headers.get('x-ratelimit-limit')).not.toBeNull();
  });
}

test('a non-string parameter in a JSON body → 400 invalid_request', async () => {
  const r = await c.send('POST', '/oauth/token', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...grant({ client_id: FULL.id }), client_secret: 12345 }),
  });
  expect(r.status).toBe(400);
  expect(r.body.error).toBe('invalid_request');
});

test('malformed JSON → 400, other content type → 415, both in the OAuth error shape', async () => {
  const bad = await c.send('POST', '/oauth/token', {
    headers: { 'content-type': 'application/json' },
    body: '{"grant_type":',
  });
  expect(bad.status).toBe(400);
  expect(bad.body.error).toBe('invalid_request');
  const text = await c.send('POST', '/oauth/token', {
    headers: { 'content-type': 'text/plain' },
    body: 'grant_type=client_credentials',
  });
  expect(text.status).toBe(415);
  expect(text.body.error).toBe('invalid_request');
});

test.describe('private_key_jwt', () => {
  const withAssertion = async (
    claims: Record<string, unknown> = {},
    extra: Record<string, string> = {},
    alg = 'RS256',
  ) =>
    c.token(
      grant({ client_assertion_type: ASSERTION_TYPE, client_assertion: await assertion(t, claims, alg), ...extra }),
    );

  test('a valid assertion gives a token with the client scopes', async () => {
    const r = await withAssertion({}, { client_id: PKJWT.id });
    expect(r.status).toBe(200);
    expect(decodeJwt(r.body.access_token).azp).toBe(PKJWT.id);
  });

  test('aud may be the token endpoint URL; PS256 is accepted', async () => {
    expect((await withAssertion({ aud: `${t.publicUrl}/oauth/token` })).status).toBe(200);
    expect((await withAssertion({}, {}, 'PS256')).status).toBe(200);
  });

  test('a replayed assertion (same jti) is refused', async () => {
    const jwt = await assertion(t);
    const params = grant({ client_assertion_type: ASSERTION_TYPE, client_assertion: jwt });
    expect((await c.token(params)).status).toBe(200);
    const replay = await c.token(params);
    expect(replay.status).toBe(401);
    expect(replay.body.error).toBe('invalid_client');
  });

  const now = () => Math.floor(Date.now() / 1000);
  const bad: Array<[string, () => Record<string, unknown>]> = [
    ['wrong audience', () => ({ aud: 'https://elsewhere.test/' })],
    ['audience without the trailing slash', () => ({ aud: t.publicUrl })],
    ['expired', () => ({ iat: now() - 600, exp: now() - 120 })],
    ['exp more than 5 minutes ahead', () => ({ exp: now() + 600 })],
    ['no exp', () => ({ exp: undefined })],
    ['no jti', () => ({ jti: undefined })],
    ['sub differs from iss', () => ({ sub: 'someone-else' })],
    ['unknown issuer', () => ({ iss: 'nobody', sub: 'nobody' })],
    ['issuer is a secret client', () => ({ iss: FULL.id, sub: FULL.id })],
  ];
  for (const [title, claims] of bad) {
    test(`assertion with ${title} → 401 invalid_client`, async () => {
      const r = await withAssertion(claims());
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_client');
    });
  }

  test('an assertion with a tampered signature → 401', async () => {
    const jwt = await assertion(t);
    const [h, p, s] = jwt.split('.');
    const flipped = `${h}.${p}.${(s ?? '').startsWith('A') ? 'B' : 'A'}${(s ?? '').slice(1)}`;
    const r = await c.token(grant({ client_assertion_type: ASSERTION_TYPE, client_assertion: flipped }));
    expect(r.status).toBe(401);
  });

  test('wrong client_assertion_type → 400; garbage assertion → 401; client_id mismatch → 401', async () => {
    expect(
      (await c.token(grant({ client_assertion_type: 'urn:x', client_assertion: await assertion(t) }))).status,
    ).toBe(400);
    expect(
      (await c.token(grant({ client_assertion_type: ASSERTION_TYPE, client_assertion: 'not.a.jwt' }))).status,
    ).toBe(401);
    expect((await withAssertion({}, { client_id: FULL.id })).status).toBe(401);
  });
});

test('well-known: JWKS and OpenID configuration follow the public URL', async () => {
  const jwks = await c.send('GET', '/.well-known/jwks.json');
  expect(jwks.status).toBe(200);
  expect(jwks.body.keys[0]).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
  expect(jwks.body.keys[0].d).toBeUndefined();
  const oidc = await c.send('GET', '/.well-known/openid-configuration');
  expect(oidc.body).toMatchObject({
    issuer: `${t.publicUrl}/`,
    token_endpoint: `${t.publicUrl}/oauth/token`,
    jwks_uri: `${t.publicUrl}/.well-known/jwks.json`,
  });
});

test('a client not allowed the client_credentials grant → 403 unauthorized_client', async () => {
  const { t: own, c: oc } = await tenant({
    clients: [
      { clientId: 'no-cc', secret: 'no-cc-secret-0123456789', scopes: ['update:resource_servers'], grantTypes: [] },
    ],
  });
  try {
    const r = await oc.token({
      grant_type: 'client_credentials',
      client_id: 'no-cc',
      client_secret: 'no-cc-secret-0123456789',
      audience: `${own.publicUrl}/api/v2/`,
    });
    expect(r.status).toBe(403);
    expect(r.body.error).toBe('unauthorized_client');
  } finally {
    await own.close();
  }
});
