// §5.2 the five ways to authenticate at the authentication API, each wrong variant refused
// with a 4xx and the error object; §4.3 JSON and form bodies; §7.3 error objects and 429.
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { SignJWT, generateKeyPair, decodeJwt } from 'jose';
import { randomUUID } from 'node:crypto';
import type { RunningTenant } from '../src/index.ts';
import {
  ASSERTION_TYPE,
  BASIC,
  FULL,
  PKJWT,
  POST,
  SPA,
  assertion,
  basicAuth,
  clientCredentials,
  form,
  isAuthError,
  jsonBody,
  passwordGrant,
  tenant,
  type Client,
} from './helpers.ts';

let t: RunningTenant;
let c: Client;
test.beforeAll(async () => ({ t, c } = await tenant()));
test.afterAll(async () => t.close());

const cc = (extra?: Record<string, string>) => clientCredentials(t, extra);
const expectRefused = (r: { status: number; body: unknown }, status: number, error: string) => {
  expect(r.status).toBe(status);
  expect((r.body as { error: string }).error).toBe(error);
  expect(isAuthError(r.body)).toBe(true);
};

test.describe('client secret: Post', () => {
  test('id and secret in a JSON body → 200; in a form body → 200', async () => {
    expect((await c.token(cc({ client_id: POST.id, client_secret: POST.secret }))).status).toBe(200);
    const f = form(cc({ client_id: POST.id, client_secret: POST.secret }));
    expect((await c.send('POST', '/oauth/token', f)).status).toBe(200);
  });
  test('wrong secret → 401 invalid_client', async () => {
    expectRefused(
      await c.token(cc({ client_id: POST.id, client_secret: 'wrong-secret-0123456789' })),
      401,
      'invalid_client',
    );
  });
  test('the Post client through Basic → 401 (registered for client_secret_post)', async () => {
    const r = await c.token(cc(), { authorization: basicAuth(POST.id, POST.secret) });
    expectRefused(r, 401, 'invalid_client');
    expect(r.body.error_description).toContain('client_secret_post');
    expect(r.headers.get('www-authenticate')).toContain('Basic');
  });
  test('client ID alone (confidential client) → 401', async () => {
    expectRefused(await c.token(cc({ client_id: POST.id })), 401, 'invalid_client');
  });
});

test.describe('client secret: Basic', () => {
  test('form-encoded id:secret (RFC 6749 §2.3.1) → 200 with the client', async () => {
    const r = await c.token(cc(), { authorization: basicAuth(BASIC.id, BASIC.secret) });
    expect(r.status, r.text).toBe(200);
    expect(decodeJwt(r.body.access_token).azp).toBe(BASIC.id);
  });
  test('wrong secret, wrong id → 401 invalid_client', async () => {
    expectRefused(
      await c.token(cc(), { authorization: basicAuth(BASIC.id, 'dev-secret:basic+wrong') }),
      401,
      'invalid_client',
    );
    expectRefused(
      await c.token(cc(), { authorization: basicAuth('conformance-nobody', BASIC.secret) }),
      401,
      'invalid_client',
    );
  });
  test('secret sent without form-encoding where encoding changes it ("+" read as space) → 401', async () => {
    // Raw "+" decodes to a space under RFC 6749 §2.3.1, so this secret differs.
    const raw = `Basic ${Buffer.from(`${BASIC.id}:dev-secret:basic+0123456789 %26=`).toString('base64')}`;
    expectRefused(await c.token(cc(), { authorization: raw }), 401, 'invalid_client');
  });
  test('the Basic client with its secret in the body → 401 (registered for client_secret_basic)', async () => {
    expectRefused(await c.token(cc({ client_id: BASIC.id, client_secret: BASIC.secret })), 401, 'invalid_client');
  });
  test('management clients keep taking both post and Basic', async () => {
    expect((await c.token(cc(), { authorization: basicAuth(FULL.id, FULL.secret) })).status).toBe(200);
    expect((await c.token(cc({ client_id: FULL.id, client_secret: FULL.secret }))).status).toBe(200);
  });
});

test.describe('client assertion (private_key_jwt)', () => {
  const now = () => Math.floor(Date.now() / 1000);
  const send = async (jwt: string, extra: Record<string, string> = {}) =>
    c.token(cc({ client_id: PKJWT.id, client_assertion_type: ASSERTION_TYPE, client_assertion: jwt, ...extra }));

  test('valid assertion → 200', async () => {
    expect((await send(await assertion(t))).status).toBe(200);
  });
  const faults: Array<[string, () => Promise<string>]> = [
    ['wrong aud', () => assertion(t, { aud: 'https://elsewhere.test/' })],
    ['expired', () => assertion(t, { iat: now() - 600, exp: now() - 120 })],
    ['iss ≠ sub', () => assertion(t, { sub: 'conformance-other' })],
    ['missing sub', () => assertion(t, { sub: undefined })],
    [
      'signed by an unregistered key',
      async () => {
        const { privateKey } = await generateKeyPair('RS256');
        return new SignJWT({ iss: PKJWT.id, sub: PKJWT.id, aud: `${t.publicUrl}/`, jti: randomUUID() })
          .setProtectedHeader({ alg: 'RS256' })
          .setIssuedAt()
          .setExpirationTime('60s')
          .sign(privateKey);
      },
    ],
    [
      'alg: none',
      async () => {
        const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
        return `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ iss: PKJWT.id, sub: PKJWT.id, aud: `${t.publicUrl}/`, jti: randomUUID(), exp: now() + 60 })}.`;
      },
    ],
    [
      'HS256 with the key text as secret',
      async () =>
        new SignJWT({ iss: PKJWT.id, sub: PKJWT.id, aud: `${t.publicUrl}/`, jti: randomUUID() })
          .setProtectedHeader({ alg: 'HS256' })
          .setExpirationTime('60s')
          .sign(new TextEncoder().encode('k'.repeat(32))),
    ],
  ];
  for (const [title, make] of faults) {
    test(`${title} → 401 invalid_client`, async () => {
      expectRefused(await send(await make()), 401, 'invalid_client');
    });
  }
  test('replayed jti → 401 (the tenant keeps used jti values until they expire)', async () => {
    const jwt = await assertion(t);
    expect((await send(jwt)).status).toBe(200);
    expectRefused(await send(jwt), 401, 'invalid_client');
  });
  test('the verifyClientAssertion part decides: a variant accepting expired assertions lets one in', async () => {
    const { t: own, c: oc } = await tenant({
      parts: (d) => ({
        verifyClientAssertion: async (a, client, e) => {
          const v = await d.verifyClientAssertion(a, client, e);
          return !v.ok && v.reason === 'expired' ? { ok: true, claims: decodeJwt(a) as never } : v;
        },
      }),
    });
    try {
      const jwt = await assertion(own, { iat: now() - 600, exp: now() - 120 });
      const r = await oc.token({
        grant_type: 'client_credentials',
        audience: `${own.publicUrl}/api/v2/`,
        client_assertion_type: ASSERTION_TYPE,
        client_assertion: jwt,
      });
      expect(r.status).toBe(200);
    } finally {
      await own.close();
    }
  });
});

test.describe('client ID only (public client)', () => {
  test('the public client is authenticated by its ID alone (revocation answers 200, JSON and form)', async () => {
    expect(
      (await c.send('POST', '/oauth/revoke', jsonBody({ client_id: SPA.id, token: 'unknown-token' }))).status,
    ).toBe(200);
    expect((await c.send('POST', '/oauth/revoke', form({ client_id: SPA.id, token: 'unknown-token' }))).status).toBe(
      200,
    );
  });
  test('the public client may not use client_credentials → 403 unauthorized_client', async () => {
    expectRefused(await c.token(cc({ client_id: SPA.id })), 403, 'unauthorized_client');
  });
  test('a confidential client sending its client ID alone is refused everywhere it authenticates', async () => {
    for (const [path, body] of [
      ['/oauth/token', cc({ client_id: POST.id })],
      ['/oauth/revoke', { client_id: POST.id, token: 'x' }],
      ['/passwordless/start', { client_id: POST.id, connection: 'email', email: 'someone@example.test', send: 'code' }],
    ] as const) {
      expectRefused(await c.send('POST', path, jsonBody(body)), 401, 'invalid_client');
    }
  });
  test('a secret sent by the public client is refused (it has none)', async () => {
    expectRefused(
      await c.token(cc({ client_id: SPA.id, client_secret: 'anything-0123456789' })),
      401,
      'invalid_client',
    );
  });
});

test.describe('authenticateClient part', () => {
  test('a variant accepting a confidential client by its ID alone lets it in (the failure names the client)', async () => {
    const { t: own, c: oc } = await tenant({
      parts: (d) => ({
        authenticateClient: async (input) => {
          const v = await d.authenticateClient(input);
          return v.ok || !v.client ? v : { ok: true, client: v.client, method: 'none' };
        },
      }),
    });
    try {
      const r = await oc.token({
        grant_type: 'client_credentials',
        client_id: POST.id,
        audience: `${own.publicUrl}/api/v2/`,
      });
      expect(r.status).toBe(200);
    } finally {
      await own.close();
    }
  });
});

test.describe('conventions (§4.3, §7.3)', () => {
  test('every POST endpoint takes JSON and form bodies alike', async () => {
    const params = passwordGrant({ scope: 'openid' });
    expect((await c.send('POST', '/oauth/token', jsonBody(params))).status).toBe(200);
    expect((await c.send('POST', '/oauth/token', form(params))).status).toBe(200);
    const pl = { client_id: SPA.id, connection: 'sms', phone_number: '+15555550100', send: 'code' };
    expect((await c.send('POST', '/passwordless/start', jsonBody(pl))).status).toBe(200);
    expect((await c.send('POST', '/passwordless/start', form(pl))).status).toBe(200);
  });
  test('GET parameters are read from the query: /authorize without redirect_uri in it → 400', async () => {
    const r = await c.send('GET', `/authorize?${new URLSearchParams({ client_id: SPA.id })}`);
    expectRefused(r, 400, 'invalid_request');
  });
  test('faulty requests get 4xx with the error object, never 5xx', async () => {
    const cases: Array<[string, string, { headers?: Record<string, string>; body?: string }]> = [
      ['POST', '/oauth/token', { headers: { 'content-type': 'application/json' }, body: '{' }],
      ['POST', '/oauth/token', { headers: { 'content-type': 'text/plain' }, body: 'x' }],
      ['POST', '/oauth/token', jsonBody({ grant_type: 'password', client_id: POST.id, client_secret: POST.secret })],
      [
        'POST',
        '/oauth/token',
        jsonBody({ grant_type: 'authorization_code', client_id: POST.id, client_secret: POST.secret, code: 'nope' }),
      ],
      [
        'POST',
        '/oauth/token',
        jsonBody({
          grant_type: 'refresh_token',
          client_id: POST.id,
          client_secret: POST.secret,
          refresh_token: 'nope',
        }),
      ],
      ['POST', '/oauth/token', jsonBody({ grant_type: 'client_credentials', client_id: POST.id, client_secret: 42 })],
      ['POST', '/oauth/revoke', jsonBody({ client_id: SPA.id })],
      ['POST', '/passwordless/start', jsonBody({ client_id: SPA.id, connection: 'fax' })],
      ['POST', '/passwordless/start', jsonBody({ client_id: SPA.id, connection: 'email', email: 'not-an-email' })],
      ['GET', '/userinfo', {}],
      ['GET', '/oauth/token', {}],
      ['DELETE', '/userinfo', {}],
      ['GET', '/v2/logout?returnTo=https%3A%2F%2Fevil.test%2F', {}],
      ['GET', '/authorize?client_id=a&client_id=b', {}],
      ['POST', '/u/login', form({ username: 'x', password: 'y', state: 'no-such-transaction' })],
      ['POST', '/login/callback?connection=conformance-saml', form({ SAMLResponse: '!!!' })],
      ['GET', '/wsfed/conformance-post', {}],
      ['POST', '/delegation', jsonBody({})],
    ];
    for (const [method, path, init] of cases) {
      const r = await c.send(method, path, init);
      expect(r.status, `${method} ${path}`).toBeGreaterThanOrEqual(400);
      expect(r.status, `${method} ${path}`).toBeLessThan(500);
      expect(isAuthError(r.body), `${method} ${path}: ${r.text}`).toBe(true);
    }
  });
  test('the authError part builds every error answer', async () => {
    const { t: own, c: oc } = await tenant({
      parts: () => ({
        authError: (status, error, _d, headers) => ({
          status,
          headers: { ...headers },
          body: Buffer.from(JSON.stringify({ code: error })),
        }),
      }),
    });
    try {
      const r = await oc.send('GET', '/userinfo');
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ code: 'invalid_token' });
    } finally {
      await own.close();
    }
  });
});

test('429 on the authentication API: the three X-RateLimit-* headers and a message pointing at them', async () => {
  const { t: own, c: oc } = await tenant({ rateLimit: { capacity: 2, refillPerSecond: 0.001 } });
  try {
    for (const path of ['/userinfo', '/v2/logout']) {
      let last: Awaited<ReturnType<typeof oc.send>> | undefined;
      for (let i = 0; i < 3; i++) last = await oc.send('GET', path);
      expect(last?.status, path).toBe(429);
      for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
        expect(last?.headers.get(h), h).not.toBeNull();
      expect(isAuthError(last?.body)).toBe(true);
      expect(last?.body.error_description).toMatch(/X-RateLimit-Limit.*X-RateLimit-Remaining.*X-RateLimit-Reset/);
    }
  } finally {
    await own.close();
  }
});

test('no parameter values on any authentication endpoint yield a 5xx, and every 4xx is the error object (property test)', async () => {
  const names = [
    'grant_type',
    'client_id',
    'client_secret',
    'client_assertion_type',
    'client_assertion',
    'audience',
    'scope',
    'code',
    'redirect_uri',
    'code_verifier',
    'username',
    'password',
    'realm',
    'refresh_token',
    'token',
    'connection',
    'email',
    'phone_number',
    'send',
    'authParams',
    'state',
    'SAMLResponse',
    'response_type',
    'code_challenge',
    'code_challenge_method',
    'nonce',
    'returnTo',
    'federated',
  ];
  const known = fc.constantFrom(
    POST.id,
    SPA.id,
    BASIC.id,
    PKJWT.id,
    'password',
    'authorization_code',
    'refresh_token',
    'client_credentials',
    'email',
    'sms',
    'code',
    'link',
    'S256',
    'plain',
    'https://app.conformance.test/callback',
    'id_token token',
    'token',
    'conformance-saml',
  );
  const value = fc.oneof(known, fc.string({ maxLength: 40 }), fc.jsonValue({ maxDepth: 2 }));
  const params = fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 6 });
  const posts = [
    '/oauth/token',
    '/oauth/revoke',
    '/passwordless/start',
    '/u/login',
    '/login/callback?connection=conformance-saml',
    '/userinfo',
  ];
  const gets = ['/authorize', '/v2/logout', '/userinfo', '/dev/outbox'];
  const ok = (r: { status: number; body: unknown; headers: Headers }) =>
    r.status < 500 &&
    (r.status < 400 || !(r.headers.get('content-type') ?? '').includes('json') || isAuthError(r.body));
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...posts), params, fc.boolean(), async (path, p, asJson) => {
      const strings = Object.fromEntries(
        Object.entries(p).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      );
      const r = await c.send('POST', path, asJson ? jsonBody(p) : form(strings));
      return ok(r);
    }),
    { numRuns: 300, seed: 4813 },
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...gets), params, async (path, p) => {
      const strings = Object.fromEntries(
        Object.entries(p).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
      );
      const res = await fetch(`${t.url}${path}?${new URLSearchParams(strings)}`, { redirect: 'manual' });
      const text = await res.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      return ok({ status: res.status, body, headers: res.headers });
    }),
    { numRuns: 200, seed: 4814 },
  );
});
