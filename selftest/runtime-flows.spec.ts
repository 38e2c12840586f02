// The runtime of the named flows, without a tenant: PKCE against RFC 7636's own example, the
// Chromium lookup, endpoint placement (setting > discovery > default), and the login-page
// driver against a small local page that logs in, errs, or has no form.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect } from '@playwright/test';
import { s256, pkcePair } from '../lib/auth/pkce.ts';
import { findChromium, launchChromium, noChromiumReason } from '../lib/auth/browser.ts';
import { absentReason, describeEndpoint, endpoint } from '../lib/auth/endpoints.ts';
import { authorizeThroughLogin, type LoginForm } from '../lib/auth/login-page.ts';
import { parseConfig } from '../lib/config.ts';
import type { ApiClient, Exchange } from '../lib/http.ts';

test('PKCE S256 matches the example of RFC 7636 Appendix B, and pairs are fresh', () => {
  expect(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  const a = pkcePair();
  const b = pkcePair();
  expect(a.verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
  expect(a.challenge).toBe(s256(a.verifier));
  expect(a.verifier).not.toBe(b.verifier);
});

test('Chromium: an explicit IDM_CHROMIUM is the only candidate; the reason names it and the setting', () => {
  const missing = findChromium('/usr/bin/chromium', { IDM_CHROMIUM: '/nowhere/chromium' });
  expect(missing).toEqual({ path: null, tried: ['/nowhere/chromium'] });
  expect(noChromiumReason(missing)).toContain('/nowhere/chromium');
  expect(noChromiumReason(missing)).toContain('IDM_CHROMIUM');
  expect(findChromium(null, { CHROMIUM_PATH: '/nowhere/chrome' }).tried).toEqual(['/nowhere/chrome']);
  expect(findChromium('/opt/x/chromium', {}).tried[0]).toBe('/opt/x/chromium');
});

test('endpoints: a setting wins, then the discovery document, then the default path', async () => {
  const base = 'http://127.0.0.1:9';
  const discovered = { userinfo_endpoint: `${base}/me`, revocation_endpoint: 'not a url' };
  const client = fakeClient(discovered);
  const cfg = parseConfig({
    IDM_BASE_URL: `${base}/t1`,
    IDM_CLIENT_ID: 'c',
    IDM_CLIENT_SECRET: 's',
    IDM_RESOURCE_SERVER_ID: 'rs',
    IDM_LOGOUT_PATH: '/bye',
  });
  const userinfo = await endpoint(cfg, client, 'userinfo');
  expect(userinfo).toMatchObject({ url: `${base}/me`, source: 'discovery' });
  expect(await endpoint(cfg, client, 'revoke')).toMatchObject({
    url: `${base}/t1/oauth/revoke`,
    source: 'default',
    setting: 'IDM_REVOKE_PATH',
  });
  expect(await endpoint(cfg, client, 'logout')).toMatchObject({ url: `${base}/t1/bye`, source: 'setting' });
  expect(describeEndpoint(userinfo)).toBe('/me (from the discovery document)');
  const revoke = await endpoint(cfg, client, 'revoke');
  expect(absentReason(revoke, 404)).toContain('set IDM_REVOKE_PATH');
  expect(absentReason(revoke, 400)).toBeNull();
  expect(absentReason(userinfo, 404), 'a discovered endpoint that 404s is a finding, not a skip').toBeNull();
});

test.describe('the login-page driver in Chromium', () => {
  const lookup = findChromium();
  test.skip(!lookup.path, noChromiumReason(lookup));
  const REDIRECT = 'https://app.conformance.test/callback';
  const login: LoginForm = {
    username: 'u@example.test',
    password: 'pw',
    selectors: { username: 'input[name=username]', password: 'input[name=password]', submit: 'button[type=submit]' },
  };
  let server: Server;
  let origin: string;

  test.beforeAll(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/authorize') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          `<form method="post" action="/login?mode=${url.searchParams.get('mode')}"><input name="username"><input name="password" type="password"><button type="submit">Go</button></form>`,
        );
      } else if (url.pathname === '/login') {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          const ok = new URLSearchParams(body).get('password') === 'pw';
          const to =
            url.searchParams.get('mode') === 'implicit'
              ? `${REDIRECT}#access_token=t0k&state=s1`
              : `${REDIRECT}?code=c0de&state=s1`;
          res.writeHead(ok ? 302 : 401, ok ? { location: to } : { 'content-type': 'text/html' });
          res.end(ok ? '' : 'wrong');
        });
      } else {
        res.writeHead(400, { 'content-type': 'text/html' });
        res.end('<p>invalid request</p>');
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  test.afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  test('logs in and reads the code from the query, the token from the fragment; an error page and a wrong password end without a redirect', async () => {
    const browser = await launchChromium(lookup.path!);
    try {
      const run = (path: string, form = login) =>
        authorizeThroughLogin(browser, {
          url: `${origin}${path}`,
          redirectUris: [REDIRECT],
          login: form,
          timeoutMs: 3000,
        });
      const code = await run('/authorize?mode=code');
      expect(code).toMatchObject({
        loggedIn: true,
        problem: null,
        params: { code: 'c0de', state: 's1' },
        carriedIn: { query: ['code', 'state'], fragment: [] },
      });
      const implicit = await run('/authorize?mode=implicit');
      expect(implicit).toMatchObject({
        params: { access_token: 't0k', state: 's1' },
        carriedIn: { query: [], fragment: ['access_token', 'state'] },
      });
      const error = await run('/nowhere');
      expect(error.callback).toBeNull();
      expect(error.problem).toContain('answered 400');
      const wrong = await run('/authorize?mode=code', { ...login, password: 'nope' });
      // The form's own refusal ends the attempt at once (no wait for a redirect that never comes).
      expect(wrong).toMatchObject({ callback: null, loggedIn: true, loginStatus: 401 });
      expect(wrong.problem).toContain('the login form was answered 401');
    } finally {
      await browser.close();
    }
  });
});

// Helpers

function fakeClient(doc: unknown): ApiClient {
  const send = async (method: string, url: string): Promise<Exchange> => ({
    request: { method, url, headers: {} },
    status: 200,
    headers: { 'content-type': 'application/json' },
    text: JSON.stringify(doc),
    body: doc,
  });
  return { send } as unknown as ApiClient;
}
