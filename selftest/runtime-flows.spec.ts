// The runtime of the named flows, without a tenant: PKCE against RFC 7636's own example, the
// Chromium lookup (its order on each platform), endpoint placement (setting > discovery >
// default), and the login walk against small local pages of each shape hosted logins have.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test, expect, type TestInfo } from '@playwright/test';
import { s256, pkcePair } from '../lib/auth/pkce.ts';
import {
  type BrowserFacts,
  findChromium,
  launchChromium,
  launchOptions,
  lookupChromium,
  noChromiumReason,
} from '../lib/auth/browser.ts';
import { judgeAbsent, missing, missingText } from '../lib/auth/absent.ts';
import { Checks } from '../lib/checks.ts';
import { createRedactor } from '../lib/redact.ts';
import { decodeSkip } from '../lib/skip-record.ts';
import { absorbSoftFailures } from './runtime-annotations.ts';
import { describeEndpoint, endpoint, metadataUrl } from '../lib/auth/endpoints.ts';
import { walkLogin } from '../lib/auth/login-walk.ts';
import { describeStep, describeSteps } from '../lib/auth/walk-steps.ts';
import { parseConfig } from '../lib/config.ts';
import type { ApiClient, Exchange } from '../lib/http.ts';
import { received } from '../lib/answer-class.ts';

test('PKCE S256 matches the example of RFC 7636 Appendix B, and pairs are fresh', () => {
  expect(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  const a = pkcePair();
  const b = pkcePair();
  expect(a.verifier).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
  expect(a.challenge).toBe(s256(a.verifier));
  expect(a.verifier).not.toBe(b.verifier);
});

test("Chromium lookup: Playwright's own Chromium wins over a Chrome channel, which wins over Edge, then a distribution's (its headless shell first)", () => {
  const PW = '/home/u/.cache/ms-playwright/chromium-1/chrome-linux64/chrome';
  const CHROME = '/opt/google/chrome/chrome';
  const EDGE = '/opt/microsoft/msedge/msedge';
  const DEBIAN = '/usr/bin/chromium';
  const SHELL = '/usr/bin/chromium-headless-shell';
  const on = (present: string[], o: Partial<BrowserFacts> = {}) =>
    lookupChromium({
      explicit: null,
      platform: 'linux',
      env: {},
      exists: (p) => present.includes(p),
      playwrightPath: PW,
      ...o,
    });
  expect(on([PW, CHROME, EDGE, DEBIAN])).toMatchObject({ path: PW, source: 'playwright' });
  expect(on([CHROME, EDGE, DEBIAN])).toMatchObject({ path: CHROME, source: 'chrome' });
  expect(on([EDGE, DEBIAN])).toMatchObject({ path: EDGE, source: 'msedge' });
  expect(on([DEBIAN])).toMatchObject({ path: DEBIAN, source: 'distribution' });
  expect(on([DEBIAN, SHELL])).toMatchObject({ path: SHELL, source: 'distribution' });
  expect(on([EDGE, SHELL])).toMatchObject({ path: EDGE, source: 'msedge' });
  expect(on(['/usr/bin/chromium-browser'])).toMatchObject({
    path: '/usr/bin/chromium-browser',
    source: 'distribution',
  });
  expect(on([CHROME], { playwrightPath: null }), 'a platform Playwright has no build for').toMatchObject({
    source: 'chrome',
  });

  const mac = '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome';
  expect(on([mac, DEBIAN], { platform: 'darwin' })).toMatchObject({ path: mac, source: 'chrome' });
  expect(on([DEBIAN], { platform: 'darwin' }).path, "no distribution's path on macOS").toBeNull();
  const env = { LOCALAPPDATA: 'C:\\Users\\u\\AppData\\Local', PROGRAMFILES: 'C:\\Program Files' };
  const winEdge = 'C:\\Program Files\\Microsoft\\Edge\\Application\\msedge.exe';
  const win = on([winEdge], { platform: 'win32', env });
  expect(win).toMatchObject({ path: winEdge, source: 'msedge' });
  expect(win.tried).toContain(
    'Google Chrome (channel chrome) C:\\Users\\u\\AppData\\Local\\Google\\Chrome\\Application\\chrome.exe',
  );

  // A channel is launched through Playwright's channel, everything else by its path.
  expect(launchOptions(on([CHROME]))).toMatchObject({ channel: 'chrome' });
  expect(launchOptions(on([CHROME]))).not.toHaveProperty('executablePath');
  expect(launchOptions(on([PW]))).toMatchObject({ executablePath: PW });
  expect(launchOptions(on([PW]))).not.toHaveProperty('channel');
});

test('Chromium lookup: an explicit IDM_CHROMIUM is the only candidate; none found names what was tried and both cures', () => {
  const everything = () => true;
  const explicit = lookupChromium({
    explicit: '/opt/x/chromium',
    platform: 'linux',
    env: {},
    exists: everything,
    playwrightPath: '/pw',
  });
  expect(explicit).toEqual({
    path: '/opt/x/chromium',
    source: 'IDM_CHROMIUM',
    tried: ['IDM_CHROMIUM /opt/x/chromium'],
  });
  expect(findChromium(null, { IDM_CHROMIUM: '/nowhere/chromium' })).toMatchObject({
    path: null,
    tried: ['IDM_CHROMIUM /nowhere/chromium'],
  });
  expect(findChromium(null, { CHROMIUM_PATH: '/nowhere/chrome' }).tried).toEqual(['IDM_CHROMIUM /nowhere/chrome']);
  expect(findChromium('/nowhere/set', { IDM_CHROMIUM: '/nowhere/env' }).tried, 'the configured value wins').toEqual([
    'IDM_CHROMIUM /nowhere/set',
  ]);

  const none = lookupChromium({
    explicit: null,
    platform: 'linux',
    env: {},
    exists: () => false,
    playwrightPath: '/pw/chrome',
  });
  expect(none.path).toBeNull();
  expect(launchOptions(none)).toBeNull();
  const reason = noChromiumReason(none);
  for (const p of [
    '/pw/chrome',
    '/opt/google/chrome/chrome',
    '/opt/microsoft/msedge/msedge',
    '/usr/bin/chromium-headless-shell',
    '/usr/bin/chromium',
    '/usr/bin/chromium-browser',
  ])
    expect(reason).toContain(p);
  expect(reason).toContain('npx playwright install chromium');
  expect(reason).toContain('apt-get install chromium');
  expect(reason).toContain('IDM_CHROMIUM');
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
  // Sent to `e`: received in the context of the endpoint it went to (lib/answer-class.ts).
  const at = (e: typeof revoke, status: number): Exchange =>
    received(
      { request: { method: 'POST', url: e.url, headers: {} }, status, headers: {}, text: '', body: undefined },
      { endpoint: e },
    );
  expect(missing(at(revoke, 405))).toBe(true);
  expect(missing(at(revoke, 400))).toBe(false);
  expect(missing(at(userinfo, 405)), 'a 405 at a discovered endpoint is its answer, not its absence').toBe(false);
  expect(missing(at(userinfo, 404)), 'an endpoint discovery lists is offered: its 404 is a refusal').toBe(false);
  expect(missingText(revoke, 404)).toBe(
    'no revoke endpoint: /t1/oauth/revoke (default path; IDM_REVOKE_PATH moves it) answered 404; set IDM_REVOKE_PATH to its path, or IDM_NOT_OFFERED=revoke if the tenant does not offer it',
  );
});

test('endpoints: RFC 8414 metadata lists what the discovery document does not; its place follows the issuer’s path', async () => {
  // Another origin than the test above: a worker reads each document once (endpoints.ts memoises it).
  const base = 'http://127.0.0.1:10';
  const docs: Record<string, unknown> = {
    [`${base}/t1/.well-known/openid-configuration`]: { userinfo_endpoint: `${base}/me` },
    [`${base}/.well-known/oauth-authorization-server/t1`]: { revocation_endpoint: `${base}/oauth2/revoke` },
  };
  const asked: string[] = [];
  const client = {
    send: async (method: string, url: string): Promise<Exchange> => {
      asked.push(url);
      const doc = docs[url];
      return received({
        request: { method, url, headers: {} },
        status: doc ? 200 : 404,
        headers: { 'content-type': 'application/json' },
        text: JSON.stringify(doc ?? {}),
        body: doc ?? {},
      });
    },
  } as unknown as ApiClient;
  const cfg = parseConfig({
    IDM_BASE_URL: `${base}/t1`,
    IDM_CLIENT_ID: 'c',
    IDM_CLIENT_SECRET: 's',
    IDM_RESOURCE_SERVER_ID: 'rs',
  });
  expect(metadataUrl(cfg, 'oauth')).toBe(`${base}/.well-known/oauth-authorization-server/t1`);
  const userinfo = await endpoint(cfg, client, 'userinfo');
  expect(asked, 'the second document only for what the first does not list').toHaveLength(1);
  const revoke = await endpoint(cfg, client, 'revoke');
  expect(revoke).toMatchObject({ url: `${base}/oauth2/revoke`, source: 'discovery', document: 'oauth' });
  expect(describeEndpoint(revoke)).toBe('/oauth2/revoke (from the authorization server metadata, RFC 8414)');
  expect(userinfo.document).toBe('openid');
});

test('an endpoint not found fails its flow’s own clause once, where it is judged; elsewhere it is named as the cause', () => {
  const revoke = {
    which: 'revoke',
    url: 'http://t/oauth/revoke',
    source: 'default',
    setting: 'IDM_REVOKE_PATH',
  } as const;
  const raw = {
    request: { method: 'POST', url: revoke.url, headers: {} },
    status: 404,
    headers: {},
    text: '',
    body: undefined,
  };
  const ex = received(raw, { endpoint: revoke });
  const run = (declared: string[]) => {
    const annotations = declared.map((d) => ({ type: 'clause', description: d }));
    let skipped: string | undefined;
    const info = {
      annotations,
      errors: [],
      skip: (_: boolean, d: string) => {
        skipped = d;
        throw new Error('skipped');
      },
    } as unknown as TestInfo;
    expect(() => judgeAbsent({ check: new Checks(info, createRedactor()), info }, revoke, ex)).toThrow('skipped');
    const checks = annotations.filter((a) => a.type === 'check').map((a) => JSON.parse(a.description));
    return { checks, skip: decodeSkip(skipped) };
  };
  const own = run(['auth.flow.revoke', 'auth.flow.revoke.effective']);
  // The failure is recorded as the runtime records it (a soft failure of this self-test, taken back).
  expect(absorbSoftFailures()).toHaveLength(1);
  expect(own.checks).toMatchObject([{ clause: 'auth.flow.revoke', outcome: 'failed' }]);
  expect(own.checks[0].message).toContain('set IDM_REVOKE_PATH to its path, or IDM_NOT_OFFERED=revoke');
  expect(own.skip).toMatchObject({ by: 'tenant', cause: { clause: 'auth.flow.revoke' } });
  const other = run(['ratelimit.auth-api.headers']);
  expect(other.checks).toEqual([]);
  expect(other.skip.cause).toEqual({ clause: 'auth.flow.revoke' });
  const served = received({ ...raw, status: 200 }, { endpoint: revoke });
  const info = { annotations: [], errors: [] } as unknown as TestInfo;
  expect(judgeAbsent({ check: new Checks(info, createRedactor()), info }, revoke, served)).toBe(false);
});

const REDIRECT = 'https://app.conformance.test/callback';
const RETURN = 'https://app.conformance.test/logged-out';

test.describe('the login walk in Chromium', () => {
  const lookup = findChromium();
  test.skip(!lookup.path, noChromiumReason(lookup));
  const controls = parseConfig({}).auth.loginControls;
  let server: Server;
  let origin: string;
  /** The same server under another origin name (a custom login domain). */
  let other: string;

  test.beforeAll(async () => {
    server = createServer(loginPages(() => other));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    origin = `http://127.0.0.1:${port}`;
    other = `http://localhost:${port}`;
  });
  test.afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  test("walks one-page, identifier-first, scripted and cross-origin logins, consent and logout confirmation; refusals and error pages are the tenant's answer; a page it cannot drive is named", async () => {
    // A hang guard, not a timing: some twenty walks in a row took 22 s alone and over 30 s on a loaded machine.
    test.setTimeout(120_000);
    const browser = await launchChromium(lookup);
    try {
      const run = (path: string, o: { password?: string; consent?: 'accept' | 'decline'; logout?: boolean } = {}) =>
        walkLogin(browser, {
          url: `${origin}${path}`,
          redirectUris: o.logout ? [RETURN] : [REDIRECT],
          ...(o.logout ? { logout: true } : { login: { username: 'u@example.test', password: o.password ?? 'pw' } }),
          consent: o.consent ?? 'accept',
          controls,
          timeoutMs: 3000,
        });
      const code = await run('/authorize?mode=code');
      expect(code).toMatchObject({
        loggedIn: true,
        problem: null,
        notDriven: null,
        params: { code: 'c0de', state: 's1' },
        carriedIn: { query: ['code', 'state'], fragment: [] },
      });
      // What the walk did is data; its one line is for people.
      expect(code.steps).toEqual([
        {
          status: 200,
          at: `${origin}/authorize`,
          title: 'Log in',
          filled: ['username', 'password'],
          ticked: [],
          acted: { control: 'submit', label: '"Go"' },
          end: null,
        },
      ]);
      expect(describeStep(code.steps[0]!)).toBe(
        `200 ${origin}/authorize "Log in": filled username, password; clicked "Go"`,
      );
      const implicit = await run('/authorize?mode=implicit');
      expect(implicit).toMatchObject({
        params: { access_token: 't0k', state: 's1' },
        carriedIn: { fragment: ['access_token', 'state'] },
      });

      const twoPages = await run('/authorize?mode=identifier-first');
      expect(twoPages.params.code).toBe('c0de');
      expect(twoPages.steps.map((p) => [p.title, p.filled, p.acted])).toEqual([
        ['Welcome', ['username'], { control: 'submit', label: '"Continue"' }],
        ['Enter your password', ['password'], { control: 'submit', label: '"Log in"' }],
      ]);
      const scripted = await run('/authorize?mode=spa');
      expect(scripted.params.code, describeSteps(scripted.steps)).toBe('c0de');
      const elsewhere = await run('/authorize?mode=elsewhere');
      expect(elsewhere.params.code, describeSteps(elsewhere.steps)).toBe('c0de');
      expect(elsewhere.steps[0]?.at).toContain('http://localhost:');

      const consent = await run('/authorize?mode=consent');
      expect(consent).toMatchObject({ consent: 'accepted', params: { code: 'c0de' } });
      expect(consent.steps[2]).toMatchObject({
        title: 'Authorize app',
        acted: { control: 'accept', label: '"Accept"' },
      });
      const declined = await run('/authorize?mode=consent', { consent: 'decline' });
      expect(declined).toMatchObject({ consent: 'declined', params: { error: 'access_denied', state: 's1' } });
      const byLink = await run('/authorize?mode=consent-link', { consent: 'decline' });
      expect(byLink, describeSteps(byLink.steps)).toMatchObject({
        consent: 'declined',
        params: { error: 'access_denied' },
      });
      // Controls found by role and accessible name (issue 40): <input type=submit> and a label nested in the button.
      for (const mode of ['consent-inputs', 'consent-nested']) {
        const accepted = await run(`/authorize?mode=${mode}`);
        expect(accepted, `${mode}: ${describeSteps(accepted.steps)}`).toMatchObject({
          consent: 'accepted',
          params: { code: 'c0de' },
        });
        const refused = await run(`/authorize?mode=${mode}`, { consent: 'decline' });
        expect(refused, `${mode}: ${describeSteps(refused.steps)}`).toMatchObject({
          consent: 'declined',
          params: { error: 'access_denied' },
        });
      }

      const logout = await run('/logout', { logout: true });
      expect(logout.callback?.href).toBe(RETURN);
      expect(logout.steps[0]).toMatchObject({
        title: 'Sign out',
        acted: { control: 'logout', label: '"Yes, sign me out"' },
      });

      const error = await run('/nowhere');
      expect(error).toMatchObject({ callback: null, notDriven: null, refused: false });
      expect(error.problem).toContain('answered 400');
      const wrong = await run('/authorize?mode=code', { password: 'nope' });
      // The tenant's own refusal ends the walk at once (no wait for a redirect that never comes).
      expect(wrong).toMatchObject({ callback: null, loggedIn: true, loginStatus: 401, refused: true, notDriven: null });
      expect(wrong.problem).toContain('the login was refused');
      expect(wrong.problem).toContain('Wrong email or password');

      const otp = await run('/authorize?mode=otp');
      expect(otp).toMatchObject({ callback: null, problem: null, refused: false });
      expect(otp.notDriven).toMatch(
        /^login not driven: the page http:\/\/127\.0\.0\.1:\d+\/login \("Verify it is you"\) \(answered 200\) shows fields \[name=otp\] \(text, one-time-code\), buttons "Verify"; set IDM_LOGIN_USERNAME_SELECTOR/,
      );
    } finally {
      await browser.close();
    }
  });
});

// Helpers

/**
 * Small local pages of each shape hosted logins have, by `mode`: one page, identifier first,
 * scripted, moved to another origin (`other()`), consent, a second factor; and a logout to confirm.
 */
function loginPages(other: () => string): RequestListener {
  return (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const mode = url.searchParams.get('mode') ?? 'code';
    const html = (status: number, title: string, body: string) => {
      res.writeHead(status, { 'content-type': 'text/html' });
      res.end(`<!doctype html><title>${title}</title><main>${body}</main>`);
    };
    const form = (action: string, inner: string) => `<form method="post" action="${action}">${inner}</form>`;
    const read = (then: (p: URLSearchParams) => void) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => then(new URLSearchParams(body)));
    };
    const done = () => {
      const to = mode === 'implicit' ? `${REDIRECT}#access_token=t0k&state=s1` : `${REDIRECT}?code=c0de&state=s1`;
      res.writeHead(302, { location: to });
      res.end();
    };
    switch (url.pathname) {
      case '/authorize':
        if (mode === 'identifier-first' || mode.startsWith('consent') || mode === 'otp')
          return html(
            200,
            'Welcome',
            form(
              `/password?mode=${mode}`,
              '<input type="email" name="email" autocomplete="username"><button>Continue</button>',
            ),
          );
        if (mode === 'spa')
          return html(
            200,
            'Sign in',
            `<input type="email" autocomplete="username" id="e"><input type="password" id="p" hidden><button id="b">Next</button>
<script>document.getElementById('b').onclick=()=>{const p=document.getElementById('p');if(p.hidden){p.hidden=false;return;}location.href='/finish?ok='+(p.value==='pw');};</script>`,
          );
        if (mode === 'elsewhere') {
          res.writeHead(302, { location: `${other()}/authorize?mode=code` });
          return res.end();
        }
        return html(
          200,
          'Log in',
          form(
            `/login?mode=${mode}`,
            '<input name="username"><input name="password" type="password"><button type="submit">Go</button>',
          ),
        );
      case '/password':
        return read(() =>
          html(
            200,
            'Enter your password',
            form(`/login?mode=${mode}`, '<input type="password" name="password"><button type="submit">Log in</button>'),
          ),
        );
      case '/login':
        return read((p) => {
          if (p.get('password') !== 'pw')
            return html(
              401,
              'Log in',
              `<p role="alert">Wrong email or password</p>${form(`/login?mode=${mode}`, '<input name="username"><input name="password" type="password"><button>Go</button>')}`,
            );
          // A consent page whose decline is a link, as some hosted pages have it ("[ Cancel ]").
          if (mode === 'consent-link')
            return html(
              200,
              'Authorize app',
              `${form('/consent', '<button name="d" value="accept">Continue</button>')}<a href="/consent/cancel">[ Cancel ]</a>`,
            );
          // An approval page of <input type=submit> controls, and one whose labels are nested in the buttons.
          if (mode === 'consent-inputs')
            return html(
              200,
              'Authorize app',
              form(
                '/consent',
                '<input type="submit" name="d" value="Cancel"><input type="submit" name="d" value="Authorize">',
              ),
            );
          if (mode === 'consent-nested')
            return html(
              200,
              'Authorize app',
              form(
                '/consent',
                '<button type="submit" name="d" value="accept"><span>Grant Access</span></button><button type="submit" name="d" value="deny"><span class="x">Deny Access</span></button>',
              ),
            );
          if (mode === 'consent')
            return html(
              200,
              'Authorize app',
              form(
                '/consent',
                '<p>app wants your profile</p><button name="d" value="deny">Deny</button><button name="d" value="accept">Accept</button>',
              ),
            );
          if (mode === 'otp')
            return html(
              200,
              'Verify it is you',
              form('/otp', '<input name="otp" autocomplete="one-time-code"><button>Verify</button>'),
            );
          done();
        });
      case '/finish':
        return url.searchParams.get('ok') === 'true' ? done() : html(401, 'no', '<p role="alert">Wrong</p>');
      case '/consent/cancel':
        res.writeHead(302, { location: `${REDIRECT}?error=access_denied&state=s1` });
        return res.end();
      case '/consent':
        return read((p) => {
          res.writeHead(302, {
            location:
              p.get('d') === 'accept' || p.get('d') === 'Authorize'
                ? `${REDIRECT}?code=c0de&state=s1`
                : `${REDIRECT}?error=access_denied&state=s1`,
          });
          res.end();
        });
      case '/logout':
        return html(
          200,
          'Sign out',
          form(
            '/logout/confirm',
            '<p>Do you want to sign out?</p><button>Yes, sign me out</button><button formaction="/stay">No, stay signed in</button>',
          ),
        );
      case '/logout/confirm':
        res.writeHead(302, { location: RETURN });
        return res.end();
      default:
        return html(400, 'Error', '<p>invalid request</p>');
    }
  };
}

function fakeClient(doc: unknown): ApiClient {
  const send = async (method: string, url: string): Promise<Exchange> =>
    received({
      request: { method, url, headers: {} },
      status: 200,
      headers: { 'content-type': 'application/json' },
      text: JSON.stringify(doc),
      body: doc,
    });
  return { send } as unknown as ApiClient;
}
