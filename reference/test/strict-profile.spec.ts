// The strict profile (src/profiles/strict.ts): the authentication API of a server that
// follows RFC 6749 / RFC 9700 strictly; the management API unchanged.
import { test, expect } from '@playwright/test';
import { PASSWORDLESS_OTP_GRANT, type RunningTenant } from '../src/index.ts';
import { FULL, POST, REDIRECT_URI, SPA, USER, form, jsonBody, tenant, type Client } from './helpers.ts';

let t: RunningTenant;
let c: Client;
test.beforeAll(async () => ({ t, c } = await tenant({ profile: 'strict' })));
test.afterAll(async () => t.close());

const cc = { grant_type: 'client_credentials', client_id: POST.id, client_secret: POST.secret };

test('form bodies only: JSON is 400 invalid_request, the same request as a form gets a token (audience ignored)', async () => {
  const json = await c.send('POST', '/oauth/token', jsonBody({ ...cc, audience: '/api/v2/' }));
  expect(json.status).toBe(400);
  expect(json.body.error).toBe('invalid_request');
  const ok = await c.send('POST', '/oauth/token', form({ ...cc, audience: 'https://elsewhere.example.test/' }));
  expect(ok.status).toBe(200);
  expect(typeof ok.body.access_token).toBe('string');
  for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'])
    expect(ok.headers.get(h), h).toBeNull();
});

test('no passwordless one-time-code grant: 400 unsupported_grant_type, not a verdict on the code', async () => {
  const clients: Record<string, string>[] = [{ client_id: SPA.id }, { client_id: POST.id, client_secret: POST.secret }];
  for (const client of clients) {
    const r = await c.send(
      'POST',
      '/oauth/token',
      form({ grant_type: PASSWORDLESS_OTP_GRANT, ...client, realm: 'email', username: USER.username, otp: '123456' }),
    );
    expect(r.status, r.text).toBe(400);
    expect(r.body.error).toBe('unsupported_grant_type');
  }
});

test('no password grant; passwordless, SAML, WS-Fed and delegation do not exist', async () => {
  const pw = await c.send(
    'POST',
    '/oauth/token',
    form({ grant_type: 'password', client_id: POST.id, client_secret: POST.secret, ...USER }),
  );
  expect(pw.status).toBe(400);
  expect(pw.body.error).toBe('unsupported_grant_type');
  for (const [method, path] of [
    ['POST', '/passwordless/start'],
    ['POST', '/login/callback'],
    ['GET', '/wsfed/conformance-spa'],
    ['POST', '/delegation'],
  ] as const)
    expect((await c.send(method, path, method === 'POST' ? form({ a: 'b' }) : {})).status, path).toBe(404);
});

test('implicit: a 303 to the redirect URI with unsupported_response_type; other authorize errors are pages', async () => {
  const q = new URLSearchParams({ response_type: 'token', client_id: SPA.id, redirect_uri: REDIRECT_URI, state: 's1' });
  const res = await fetch(`${t.url}/authorize?${q}`, { redirect: 'manual' });
  expect(res.status).toBe(303);
  const to = new URL(res.headers.get('location') ?? '');
  expect(to.searchParams.get('error')).toBe('unsupported_response_type');
  expect(to.searchParams.get('state')).toBe('s1');
  const bad = await fetch(`${t.url}/authorize`, { redirect: 'manual' });
  expect(bad.status).toBe(400);
  expect(bad.headers.get('content-type')).toContain('text/html');
});

test('the management API keeps its own conventions (a token from the form; JSON bodies, rate-limit headers)', async () => {
  const tok = await c.send(
    'POST',
    '/oauth/token',
    form({ grant_type: 'client_credentials', client_id: FULL.id, client_secret: FULL.secret }),
  );
  expect(tok.status).toBe(200);
  const res = await c.send('PATCH', '/api/v2/resource-servers/rs_conformance', {
    headers: { authorization: `Bearer ${tok.body.access_token}`, ...jsonBody({}).headers },
    body: '{}',
  });
  expect(res.status).toBe(201);
  expect(res.headers.get('x-ratelimit-limit')).not.toBeNull();
});
