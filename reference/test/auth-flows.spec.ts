// Named flows of §4.3 against the reference tenant: resource owner password, refresh, user
// info (Bearer), revocation, authorization code with and without PKCE, implicit, the §8
// repeat-login limit, passwordless start, logout, SAML callback, WS-Fed and delegation.
import { test, expect } from '@playwright/test';
import { createHash, randomBytes } from 'node:crypto';
import { createRemoteJWKSet, decodeJwt, jwtVerify } from 'jose';
import { memoryLoginLimiter, defaultLimits, type RunningTenant } from '../src/index.ts';
import {
  BASIC,
  LOCKOUT,
  LOGOUT_URL,
  POST,
  REDIRECT_URI,
  SPA,
  USER,
  basicAuth,
  form,
  isAuthError,
  jsonBody,
  passwordGrant,
  tenant,
  type Client,
} from './helpers.ts';

let t: RunningTenant;
let c: Client;
let clock = 0; // ms added to the real clock by tests that move time
test.beforeAll(async () => ({ t, c } = await tenant({ parts: (d) => ({ now: () => d.now() + clock }) })));
test.afterAll(async () => t.close());

const password = (extra: Record<string, string> = {}) => c.token(passwordGrant(extra));

/** A request that does not follow redirects. */
async function raw(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) {
  const res = await fetch(t.url + path, { method, redirect: 'manual', headers: init.headers, body: init.body });
  return {
    status: res.status,
    location: res.headers.get('location') ?? '',
    text: await res.text(),
    headers: res.headers,
  };
}

/** /authorize → login page → POST /u/login: the redirect (Location) the browser would follow. */
async function loginThrough(query: Record<string, string>, user = USER) {
  const page = await raw('GET', `/authorize?${new URLSearchParams(query)}`);
  expect(page.status, page.text).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  for (const sel of ['name="username"', 'name="password"', 'type="submit"']) expect(page.text).toContain(sel);
  const action = /action="([^"]+)"/.exec(page.text)?.[1]?.replace(/&amp;/g, '&') ?? '';
  const state = /name="state" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  return raw('POST', action, form({ username: user.username, password: user.password, state }));
}

const pkcePair = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

test.describe('resource owner password and refresh', () => {
  test('password grant → tokens; openid gives an ID token, offline_access a refresh token', async () => {
    const r = await password({ scope: 'openid profile email offline_access' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ token_type: 'Bearer', scope: 'openid profile email offline_access' });
    const jwks = createRemoteJWKSet(new URL(`${t.url}/.well-known/jwks.json`));
    const id = await jwtVerify(r.body.id_token, jwks, { issuer: `${t.publicUrl}/`, audience: POST.id });
    expect(id.payload).toMatchObject({ sub: 'db|conformance-user', email: USER.username });
    expect(typeof r.body.refresh_token).toBe('string');
    const refreshed = await c.token({
      grant_type: 'refresh_token',
      client_id: POST.id,
      client_secret: POST.secret,
      refresh_token: r.body.refresh_token,
    });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(refreshed.body.refresh_token).toBeUndefined();
  });
  test('no offline_access → no refresh token; Basic client through the password grant', async () => {
    expect((await password({ scope: 'openid' })).body.refresh_token).toBeUndefined();
    const b = await c.token(
      {
        grant_type: 'password',
        username: USER.username,
        password: USER.password,
        realm: 'Username-Password-Authentication',
      },
      { authorization: basicAuth(BASIC.id, BASIC.secret) },
    );
    expect(b.status, b.text).toBe(200);
  });
  test('wrong password → 400 invalid_grant; unknown realm → 400; missing username → 400', async () => {
    for (const [extra, error] of [
      [{ password: 'wrong-password-0123' }, 'invalid_grant'],
      [{ realm: 'elsewhere' }, 'invalid_request'],
      [{ username: '' }, 'invalid_request'],
    ] as const) {
      const r = await password(extra);
      expect(r.status).toBe(400);
      expect(r.body.error).toBe(error);
    }
  });
  test('audience: a custom API gives its scopes; the management API to a user → 403 access_denied', async () => {
    const r = await password({ audience: 'https://api.conformance.test/', scope: 'openid read:things' });
    expect(r.status).toBe(200);
    expect(decodeJwt(r.body.access_token).aud).toEqual(['https://api.conformance.test/', `${t.publicUrl}/userinfo`]);
    expect((await password({ audience: `${t.publicUrl}/api/v2/` })).status).toBe(403);
  });
  test('refresh token of another client → 400 invalid_grant; scope widening → 400 invalid_scope', async () => {
    const rt = (await password({ scope: 'openid offline_access' })).body.refresh_token as string;
    const other = await c.token(
      { grant_type: 'refresh_token', refresh_token: rt },
      { authorization: basicAuth(BASIC.id, BASIC.secret) },
    );
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('invalid_grant');
    const wider = await c.token({
      grant_type: 'refresh_token',
      client_id: POST.id,
      client_secret: POST.secret,
      refresh_token: rt,
      scope: 'openid email',
    });
    expect(wider.body.error).toBe('invalid_scope');
  });
});

test.describe('user info (Bearer)', () => {
  test('a user access token → 200 with sub and the claims of its scope', async () => {
    const token = (await password({ scope: 'openid email' })).body.access_token;
    const r = await c.send('GET', '/userinfo', { headers: { authorization: `Bearer ${token}` } });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ sub: 'db|conformance-user', email: USER.username, email_verified: true });
    expect((await c.send('POST', '/userinfo', { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });
  const refusals: Array<[string, () => Promise<string | undefined>]> = [
    ['no token', async () => undefined],
    ['garbage', async () => 'Bearer not-a-token'],
    ['another scheme', async () => basicAuth(POST.id, POST.secret)],
    ['a management API token (another audience)', async () => `Bearer ${await c.accessToken()}`],
    [
      'a custom API token without openid (another audience)',
      async () =>
        `Bearer ${(await password({ audience: 'https://api.conformance.test/', scope: 'read:things' })).body.access_token}`,
    ],
  ];
  for (const [title, header] of refusals) {
    test(`${title} → 401 with WWW-Authenticate and the error object`, async () => {
      const h = await header();
      const r = await c.send('GET', '/userinfo', { headers: h === undefined ? {} : { authorization: h } });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
      expect(isAuthError(r.body)).toBe(true);
    });
  }
  test('an expired token → 401', async () => {
    const token = (await password({ scope: 'openid' })).body.access_token;
    clock = 3 * 3600 * 1000;
    try {
      const r = await c.send('GET', '/userinfo', { headers: { authorization: `Bearer ${token}` } });
      expect(r.status).toBe(401);
      expect(r.body.error).toBe('invalid_token');
    } finally {
      clock = 0;
    }
  });
});

test.describe('revocation', () => {
  test('a revoked refresh token no longer works; JSON and form bodies', async () => {
    for (const encode of [jsonBody, form]) {
      const rt = (await password({ scope: 'openid offline_access' })).body.refresh_token as string;
      const r = await c.send(
        'POST',
        '/oauth/revoke',
        encode({ client_id: POST.id, client_secret: POST.secret, token: rt }),
      );
      expect(r.status).toBe(200);
      const again = await c.token({
        grant_type: 'refresh_token',
        client_id: POST.id,
        client_secret: POST.secret,
        refresh_token: rt,
      });
      expect(again.status).toBe(400);
      expect(again.body.error).toBe('invalid_grant');
    }
  });
  test("wrong client secret → 401; another client's token → 400 and the token stays valid", async () => {
    const rt = (await password({ scope: 'openid offline_access' })).body.refresh_token as string;
    expect(
      (
        await c.send(
          'POST',
          '/oauth/revoke',
          jsonBody({ client_id: POST.id, client_secret: 'nope-0123456789', token: rt }),
        )
      ).status,
    ).toBe(401);
    const other = await c.send('POST', '/oauth/revoke', {
      headers: { 'content-type': 'application/json', authorization: basicAuth(BASIC.id, BASIC.secret) },
      body: JSON.stringify({ token: rt }),
    });
    expect(other.status).toBe(400);
    expect(
      (
        await c.token({
          grant_type: 'refresh_token',
          client_id: POST.id,
          client_secret: POST.secret,
          refresh_token: rt,
        })
      ).status,
    ).toBe(200);
  });
});

test.describe('authorization code and implicit (login page)', () => {
  grantsThroughTheLoginPage();
  refusalsOfTheLoginPage();
  pkceJudgedByItsPart();
});

/** Code with and without PKCE, and implicit: the tokens each grant gives after the login page. */
function grantsThroughTheLoginPage(): void {
  test('public client: code with PKCE S256, exchanged with the client ID alone and the verifier', async () => {
    const { verifier, challenge } = pkcePair();
    const res = await loginThrough({
      response_type: 'code',
      client_id: SPA.id,
      redirect_uri: REDIRECT_URI,
      state: 'st-1',
      scope: 'openid offline_access',
      code_challenge: challenge,
      code_challenge_method: 'S256',
    });
    expect(res.status).toBe(302);
    const loc = new URL(res.location);
    expect(`${loc.origin}${loc.pathname}`).toBe(REDIRECT_URI);
    expect(loc.searchParams.get('state')).toBe('st-1');
    const code = loc.searchParams.get('code') ?? '';
    const exchange = (extra: Record<string, string>) =>
      c.token({ grant_type: 'authorization_code', client_id: SPA.id, code, redirect_uri: REDIRECT_URI, ...extra });
    expect((await exchange({})).body.error).toBe('invalid_grant'); // no verifier
    expect((await exchange({ code_verifier: pkcePair().verifier })).body.error).toBe('invalid_grant'); // wrong verifier
    const ok = await exchange({ code_verifier: verifier });
    expect(ok.status, ok.text).toBe(200);
    expect(typeof ok.body.refresh_token).toBe('string');
    expect((await exchange({ code_verifier: verifier })).body.error).toBe('invalid_grant'); // single use
    const revoked = await c.send(
      'POST',
      '/oauth/revoke',
      jsonBody({ client_id: SPA.id, token: ok.body.refresh_token }),
    );
    expect(revoked.status).toBe(200);
  });
  test('confidential client: code without PKCE, exchanged with its secret; redirect_uri must match', async () => {
    const res = await loginThrough({
      response_type: 'code',
      client_id: POST.id,
      redirect_uri: REDIRECT_URI,
      scope: 'openid',
      nonce: 'n-1',
    });
    const code = new URL(res.location).searchParams.get('code') ?? '';
    const base = { grant_type: 'authorization_code', client_id: POST.id, client_secret: POST.secret, code };
    expect((await c.token({ ...base, redirect_uri: 'https://app.conformance.test/other' })).body.error).toBe(
      'invalid_grant',
    );
    expect(
      (await c.token({ ...base, redirect_uri: REDIRECT_URI, code_verifier: pkcePair().verifier })).body.error,
    ).toBe('invalid_grant');
    const ok = await c.token({ ...base, redirect_uri: REDIRECT_URI });
    expect(ok.status, ok.text).toBe(200);
    expect(decodeJwt(ok.body.id_token).nonce).toBe('n-1');
  });
  test('implicit: tokens in the fragment', async () => {
    const res = await loginThrough({
      response_type: 'id_token token',
      client_id: SPA.id,
      redirect_uri: REDIRECT_URI,
      state: 'st-2',
      nonce: 'n-2',
      scope: 'openid',
    });
    expect(res.status).toBe(302);
    const frag = new URLSearchParams(new URL(res.location).hash.slice(1));
    expect(frag.get('token_type')).toBe('Bearer');
    expect(frag.get('state')).toBe('st-2');
    expect(Number(frag.get('expires_in'))).toBeGreaterThan(0);
    expect(decodeJwt(frag.get('id_token') ?? '').nonce).toBe('n-2');
    const info = await c.send('GET', '/userinfo', { headers: { authorization: `Bearer ${frag.get('access_token')}` } });
    expect(info.status).toBe(200);
  });
}

/** A wrong password, and authorization requests the tenant refuses: by redirect where it can, else 400. */
function refusalsOfTheLoginPage(): void {
  test('wrong password on the login page → 401 page again; JSON caller gets the error object', async () => {
    const page = await raw(
      'GET',
      `/authorize?${new URLSearchParams({ response_type: 'token', client_id: SPA.id, redirect_uri: REDIRECT_URI })}`,
    );
    const state = /name="state" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const html = await raw(
      'POST',
      `/u/login?state=${state}`,
      form({ username: USER.username, password: 'wrong-0123456789' }),
    );
    expect(html.status).toBe(401);
    expect(html.text).toContain('Wrong email or password.');
    const api = await raw(
      'POST',
      '/u/login',
      jsonBody({ username: USER.username, password: 'wrong-0123456789', state }),
    );
    expect(api.status).toBe(401);
    expect(isAuthError(JSON.parse(api.text))).toBe(true);
  });
  test('authorize errors: unregistered redirect URI → 400 JSON; others → redirect with error and state', async () => {
    const bad = await raw(
      'GET',
      `/authorize?${new URLSearchParams({ response_type: 'code', client_id: SPA.id, redirect_uri: 'https://evil.test/cb' })}`,
    );
    expect(bad.status).toBe(400);
    expect(isAuthError(JSON.parse(bad.text))).toBe(true);
    const cases: Array<[Record<string, string>, string]> = [
      [{ response_type: 'code' }, 'invalid_request'], // public client without PKCE
      [
        { response_type: 'code', code_challenge: pkcePair().challenge, code_challenge_method: 'plain' },
        'invalid_request',
      ],
      [{ response_type: 'device' }, 'unsupported_response_type'],
      [{ response_type: 'id_token' }, 'invalid_request'], // no nonce
      [{ response_type: 'token', prompt: 'none' }, 'login_required'],
    ];
    for (const [q, error] of cases) {
      const r = await raw(
        'GET',
        `/authorize?${new URLSearchParams({ client_id: SPA.id, redirect_uri: REDIRECT_URI, state: 's', ...q })}`,
      );
      expect(r.status, JSON.stringify(q)).toBe(302);
      const loc = new URL(r.location);
      const values = loc.hash ? new URLSearchParams(loc.hash.slice(1)) : loc.searchParams;
      expect(values.get('error'), JSON.stringify(q)).toBe(error);
      expect(values.get('state')).toBe('s');
    }
    const basicCode = await raw(
      'GET',
      `/authorize?${new URLSearchParams({ response_type: 'code', client_id: BASIC.id, redirect_uri: REDIRECT_URI })}`,
    );
    expect(basicCode.status).toBe(400); // no redirect URI registered for the Basic client
  });
}

/** The PKCE check is the verifyPkce part's: a variant without it shows the check is not done elsewhere. */
function pkceJudgedByItsPart(): void {
  test('the verifyPkce part decides: a variant that skips it exchanges a public code without a verifier', async () => {
    const { t: own } = await tenant({ parts: () => ({ verifyPkce: () => ({ ok: true }) }) });
    try {
      const { challenge } = pkcePair();
      const page = await fetch(
        `${own.url}/authorize?${new URLSearchParams({ response_type: 'code', client_id: SPA.id, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: 'S256' })}`,
      );
      const state = /name="state" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
      const login = await fetch(`${own.url}/u/login`, {
        method: 'POST',
        redirect: 'manual',
        ...form({ ...USER, state }),
      });
      const code = new URL(login.headers.get('location') ?? '').searchParams.get('code') ?? '';
      const r = await fetch(`${own.url}/oauth/token`, {
        method: 'POST',
        ...jsonBody({ grant_type: 'authorization_code', client_id: SPA.id, code, redirect_uri: REDIRECT_URI }),
      });
      expect(r.status).toBe(200);
    } finally {
      await own.close();
    }
  });
}

test.describe('§8 repeat login attempts per user and IP', () => {
  test('5 failed logins block the user from this IP for 60 s (429 with X-RateLimit-*), even with the right password', async () => {
    const attempt = (pw: string) =>
      c.token({
        grant_type: 'password',
        client_id: POST.id,
        client_secret: POST.secret,
        username: LOCKOUT.username,
        password: pw,
      });
    for (let i = 0; i < 5; i++) expect((await attempt('wrong-password-0123')).status).toBe(400);
    const blocked = await attempt(LOCKOUT.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body.error).toBe('too_many_attempts');
    expect(blocked.body.error_description).toMatch(/X-RateLimit-Limit.*X-RateLimit-Remaining.*X-RateLimit-Reset/);
    expect(blocked.headers.get('x-ratelimit-limit')).toBe('5');
    expect(blocked.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another user from the same IP is not blocked.
    expect((await password()).status).toBe(200);
    clock = 61_000;
    try {
      expect((await attempt(LOCKOUT.password)).status).toBe(200);
    } finally {
      clock = 0;
    }
  });
  test('the limiter keys by user and IP: another IP is not blocked; a success clears the count', () => {
    const limiter = memoryLoginLimiter(() => defaultLimits());
    const a = 'Username-Password-Authentication|u@x.test|10.0.0.1';
    const b = 'Username-Password-Authentication|u@x.test|10.0.0.2';
    for (let i = 0; i < 5; i++) limiter.failed(a, 1000);
    expect(limiter.check(a, 2000).allowed).toBe(false);
    expect(limiter.check(b, 2000).allowed).toBe(true);
    expect(limiter.check(a, 62_000).allowed).toBe(true);
    for (let i = 0; i < 4; i++) limiter.failed(b, 3000);
    limiter.succeeded(b);
    limiter.failed(b, 3000);
    expect(limiter.check(b, 3000)).toMatchObject({ allowed: true, remaining: 4 });
  });
});

test.describe('passwordless', () => {
  test('email and sms start → 200; the code is in the dev outbox', async () => {
    const email = await c.send(
      'POST',
      '/passwordless/start',
      jsonBody({ client_id: SPA.id, connection: 'email', email: 'pl@example.test', send: 'code' }),
    );
    expect(email.status, email.text).toBe(200);
    expect(email.body.email).toBe('pl@example.test');
    const sms = await c.send(
      'POST',
      '/passwordless/start',
      jsonBody({ client_id: POST.id, client_secret: POST.secret, connection: 'sms', phone_number: '+15555550123' }),
    );
    expect(sms.status, sms.text).toBe(200);
    const box = await c.send('GET', `/dev/outbox?to=${encodeURIComponent('+15555550123')}`);
    expect(box.body.messages.at(-1)).toMatchObject({
      connection: 'sms',
      send: 'code',
      code: expect.stringMatching(/^\d{6}$/),
    });
  });
  test('faulty starts → 400 with the error object', async () => {
    for (const body of [
      { client_id: SPA.id, connection: 'sms', phone_number: '555' },
      { client_id: SPA.id, connection: 'sms', phone_number: '+15555550123', send: 'link' },
      { client_id: SPA.id, connection: 'email' },
      { client_id: SPA.id, connection: 'email', email: 'a@b.test', send: 'fax' },
      { client_id: SPA.id, connection: 'email', email: 'a@b.test', authParams: 'not-an-object' },
    ]) {
      const r = await c.send('POST', '/passwordless/start', jsonBody(body));
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(isAuthError(r.body)).toBe(true);
    }
    expect(
      (
        await c.send(
          'POST',
          '/passwordless/start',
          jsonBody({ client_id: SPA.id, connection: 'email', email: 'a@b.test', authParams: { scope: 'openid' } }),
        )
      ).status,
    ).toBe(200);
  });
});

test.describe('logout', () => {
  test('registered returnTo → 302, with and without federated; without returnTo → 200 page', async () => {
    for (const extra of ['', '&federated']) {
      const r = await raw('GET', `/v2/logout?client_id=${SPA.id}&returnTo=${encodeURIComponent(LOGOUT_URL)}${extra}`);
      expect(r.status).toBe(302);
      expect(r.location).toBe(LOGOUT_URL);
    }
    expect((await raw('GET', `/v2/logout?returnTo=${encodeURIComponent(LOGOUT_URL)}`)).status).toBe(302);
    expect((await raw('GET', '/v2/logout')).status).toBe(200);
  });
  test('unregistered returnTo or unknown client → 400 with the error object', async () => {
    for (const q of [
      `client_id=${SPA.id}&returnTo=${encodeURIComponent('https://evil.test/')}`,
      'client_id=nobody',
      `client_id=${BASIC.id}&returnTo=${encodeURIComponent(LOGOUT_URL)}`,
    ]) {
      const r = await raw('GET', `/v2/logout?${q}`);
      expect(r.status, q).toBe(400);
      expect(isAuthError(JSON.parse(r.text))).toBe(true);
    }
  });
});

test.describe('SAML, WS-Federation, legacy delegation', () => {
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const saml = (body: { headers: Record<string, string>; body: string }, connection = 'conformance-saml') =>
    c.send('POST', `/login/callback?connection=${connection}`, body);
  test('every invalid SAMLResponse → 400 with its own description, form or JSON, never 5xx', async () => {
    const cases: Array<[{ headers: Record<string, string>; body: string }, RegExp]> = [
      [form({}), /Missing required parameter: SAMLResponse/],
      [form({ SAMLResponse: '%%%' }), /not base64/],
      [form({ SAMLResponse: b64('<html/>') }), /not a SAML 2.0 Response/],
      [
        form({ SAMLResponse: b64('<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>') }),
        /not signed/,
      ],
      [jsonBody({ SAMLResponse: b64('<samlp:Response><ds:Signature/></samlp:Response>') }), /cannot be verified/],
    ];
    for (const [body, why] of cases) {
      const r = await saml(body);
      expect(r.status).toBe(400);
      expect(isAuthError(r.body)).toBe(true);
      expect(r.body.error_description).toMatch(why);
    }
    expect((await saml(form({ SAMLResponse: b64('<x/>') }), 'unknown')).status).toBe(400);
    expect((await c.send('POST', '/login/callback', form({ SAMLResponse: 'x' }))).status).toBe(400);
  });
  test('WS-Federation and delegation → 403 endpoint_disabled', async () => {
    for (const [method, path] of [
      ['GET', '/wsfed'],
      ['GET', `/wsfed/${SPA.id}`],
      ['POST', '/delegation'],
    ] as const) {
      const r = await c.send(method, path, method === 'POST' ? jsonBody({ client_id: SPA.id }) : {});
      expect(r.status, path).toBe(403);
      expect(r.body.error).toBe('endpoint_disabled');
    }
  });
});

test('discovery lists every endpoint and method', async () => {
  const r = await c.send('GET', '/.well-known/openid-configuration');
  expect(r.body).toMatchObject({
    authorization_endpoint: `${t.publicUrl}/authorize`,
    userinfo_endpoint: `${t.publicUrl}/userinfo`,
    revocation_endpoint: `${t.publicUrl}/oauth/revoke`,
    end_session_endpoint: `${t.publicUrl}/v2/logout`,
    code_challenge_methods_supported: expect.arrayContaining(['S256']),
    token_endpoint_auth_methods_supported: expect.arrayContaining([
      'client_secret_basic',
      'none',
      'tls_client_auth',
      'self_signed_tls_client_auth',
    ]),
  });
});
