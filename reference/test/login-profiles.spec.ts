// The login profiles (`TenantOptions.login`): each page's path, status and controls, the
// transaction across pages, consent's two answers, the challenge that never ends, the logout
// confirmation, pages on a login origin — and the default profile answering as it always did.
import { test, expect } from '@playwright/test';
import net from 'node:net';
import type { LoginOptions, RunningTenant } from '../src/index.ts';
import { LOCKOUT, LOGOUT_URL, POST, REDIRECT_URI, SPA, USER, tenant, type Client } from './helpers.ts';

const LOGIN_BLOCKED = 'Too many failed login attempts for this user from this IP address.';
const authorizeQuery = (extra: Record<string, string> = {}) =>
  `/authorize?${new URLSearchParams({ response_type: 'code', client_id: POST.id, redirect_uri: REDIRECT_URI, state: 'st<1>', scope: 'openid', ...extra })}`;

test.describe('default profile: the answers it always had', () => {
  const s = withTenant({});
  test('/authorize shows the one login page, byte for byte', async () => {
    const page = await send(s.t, 'GET', authorizeQuery());
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const state = hidden(page.text, 'state');
    expect(page.text).toBe(defaultLoginPage(state));
  });
  test('the profiles’ pages have no route: 404, and /u/login serves POST only', async () => {
    for (const path of ['/u/login/identifier', '/u/login/password', '/u/mfa/otp', '/u/consent', '/v2/logout/confirm']) {
      expect((await send(s.t, 'GET', path)).status, path).toBe(404);
      expect((await send(s.t, 'POST', path, {})).status, path).toBe(404);
    }
    const get = await send(s.t, 'GET', '/u/login');
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });
  test('logout with an allowed returnTo redirects at once', async () => {
    const r = await send(s.t, 'GET', `/v2/logout?client_id=${SPA.id}&returnTo=${encodeURIComponent(LOGOUT_URL)}`);
    expect([r.status, r.location]).toEqual([302, LOGOUT_URL]);
  });
});

test.describe('identifier-first (consent when offline_access is asked for)', () => {
  const s = withTenant({ flow: 'identifier-first', consent: 'offline' });

  test('email page → password page → code, exchangeable at /oauth/token', async () => {
    const start = await send(s.t, 'GET', authorizeQuery());
    expect(start.status).toBe(302);
    expect(start.location).toMatch(/^\/u\/login\/identifier\?state=[\w-]+$/);

    const first = await send(s.t, 'GET', start.location);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-frame-options')).toBe('DENY');
    expect(first.text).toContain('<label for="username">Email address</label>');
    expect(first.text).toMatch(/<input id="username" name="username" type="email" [^>]*autocomplete="username"/);
    expect(first.text).not.toContain('type="password"');
    expect(first.text).toContain('<button type="submit">Continue</button>');
    const state = hidden(first.text, 'state');

    const next = await send(s.t, 'POST', action(first.text), { state, username: USER.username });
    expect(next.status).toBe(302);
    expect(next.location).toBe(`/u/login/password?state=${state}`);

    const second = await send(s.t, 'GET', next.location);
    expect(second.status).toBe(200);
    expect(second.text).toContain(`type="email" autocomplete="username" value="${USER.username}" readonly>`);
    expect(second.text).toMatch(/<input id="password" name="password" type="password" autocomplete="current-password"/);
    expect(second.text).toContain('<button type="submit">Continue</button>');

    const done = await send(s.t, 'POST', action(second.text), { state, password: USER.password });
    expect(done.status).toBe(302);
    const back = new URL(done.location);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('state')).toBe('st<1>');
    const exchanged = await exchange(s.c, back.searchParams.get('code') ?? '');
    expect(exchanged.status, exchanged.text).toBe(200);
    // The transaction ended with the login.
    expect((await send(s.t, 'GET', next.location)).status).toBe(400);
  });

  test('wrong password → the password page again, 401 with an alert; the §8 block → 429 as on the one page', async () => {
    const state = await toPasswordPage(s.t, LOCKOUT.username);
    const wrong = await send(s.t, 'POST', `/u/login/password?state=${state}`, { state, password: 'wrong-0123456789' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(wrong.text).toContain('<p role="alert" class="error">Wrong email or password.</p>');
    expect(wrong.text).toContain('name="password" type="password"');
    for (let i = 1; i < 5; i++)
      await send(s.t, 'POST', `/u/login/password?state=${state}`, { state, password: 'wrong-0123456789' });
    const blocked = await send(s.t, 'POST', `/u/login/password?state=${state}`, { state, password: LOCKOUT.password });
    expect(blocked.status).toBe(429);
    expect(blocked.text).toContain(LOGIN_BLOCKED);
    expect(blocked.headers.get('x-ratelimit-limit')).toBe('5');
    expect(blocked.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    // An API caller (JSON) gets the error object, as on /u/login.
    const api = await send(s.t, 'POST', '/u/login/password', JSON.stringify({ state, password: 'x' }));
    expect([api.status, JSON.parse(api.text).error]).toEqual([429, 'too_many_attempts']);
  });

  test('unknown transaction → 400; the password page before the email page → back to it; other methods → 405', async () => {
    for (const [method, path] of [
      ['GET', '/u/login/identifier?state=nope'],
      ['POST', '/u/login/identifier?state=nope'],
      ['GET', '/u/login/password'],
      ['POST', '/u/login/password?state=nope'],
    ] as const) {
      const r = await send(s.t, method, path, method === 'POST' ? { password: 'x', username: 'x' } : undefined);
      expect(r.status, `${method} ${path}`).toBe(400);
      expect(JSON.parse(r.text).error).toBe('invalid_request');
    }
    const start = await send(s.t, 'GET', authorizeQuery());
    const state = new URL(start.location, s.t.url).searchParams.get('state') ?? '';
    const early = await send(s.t, 'GET', `/u/login/password?state=${state}`);
    expect([early.status, early.location]).toEqual([302, `/u/login/identifier?state=${state}`]);
    const empty = await send(s.t, 'POST', `/u/login/identifier?state=${state}`, { state, username: '' });
    expect(empty.status).toBe(400);
    expect(empty.text).toContain('role="alert"');
    const put = await send(s.t, 'PUT', '/u/login/identifier');
    expect([put.status, put.headers.get('allow')]).toEqual([405, 'GET, POST, HEAD']);
  });

  test('offline_access asked for → the consent page after the password', async () => {
    const state = await toPasswordPage(s.t, USER.username, { scope: 'openid offline_access' });
    const r = await send(s.t, 'POST', `/u/login/password?state=${state}`, { state, password: USER.password });
    expect([r.status, r.location]).toEqual([302, `/u/consent?state=${state}`]);
  });
});

test.describe('consent always', () => {
  const s = withTenant({ consent: 'always' });

  test('the consent page names the client and the scopes; Accept → the code, exchangeable', async () => {
    const to = await loginOnePage(s.t, { scope: 'openid email' });
    expect(to.status).toBe(302);
    expect(to.location).toMatch(/^\/u\/consent\?state=[\w-]+$/);
    const page = await send(s.t, 'GET', to.location);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.text).toContain(`<h1>Authorize ${POST.id}</h1>`);
    expect(page.text).toContain('<li>openid</li>');
    expect(page.text).toContain('<li>email</li>');
    expect(page.text).toContain('<button type="submit" name="decision" value="accept">Accept</button>');
    expect(page.text).toContain('<button type="submit" name="decision" value="deny">Decline</button>');
    const state = hidden(page.text, 'state');
    const accepted = await send(s.t, 'POST', action(page.text), { state, decision: 'accept' });
    expect(accepted.status).toBe(302);
    const back = new URL(accepted.location);
    expect(back.searchParams.get('state')).toBe('st<1>');
    const exchanged = await exchange(s.c, back.searchParams.get('code') ?? '');
    expect(exchanged.status, exchanged.text).toBe(200);
    expect(exchanged.body.scope).toBe('openid email');
  });

  test('Decline → access_denied with error_description and state, in the query for code', async () => {
    const to = await loginOnePage(s.t);
    const state = new URL(to.location, s.t.url).searchParams.get('state') ?? '';
    const declined = await send(s.t, 'POST', `/u/consent?state=${state}`, { state, decision: 'deny' });
    expect(declined.status).toBe(302);
    const back = new URL(declined.location);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('error_description')).toBeTruthy();
    expect(back.searchParams.get('state')).toBe('st<1>');
    expect(back.searchParams.has('code')).toBe(false);
    // The decision ended the transaction.
    expect((await send(s.t, 'POST', `/u/consent?state=${state}`, { state, decision: 'accept' })).status).toBe(400);
  });

  test('Decline on an implicit request → the error in the fragment', async () => {
    const to = await loginOnePage(s.t, { response_type: 'token', client_id: SPA.id });
    const state = new URL(to.location, s.t.url).searchParams.get('state') ?? '';
    const declined = await send(s.t, 'POST', `/u/consent?state=${state}`, { state, decision: 'deny' });
    const back = new URL(declined.location);
    expect(back.search).toBe('');
    const fragment = new URLSearchParams(back.hash.slice(1));
    expect([fragment.get('error'), fragment.get('state')]).toEqual(['access_denied', 'st<1>']);
  });

  test('consent before the password or an unknown decision is refused', async () => {
    const page = await send(s.t, 'GET', authorizeQuery());
    const state = hidden(page.text, 'state');
    const early = await send(s.t, 'POST', `/u/consent?state=${state}`, { state, decision: 'accept' });
    expect(early.status).toBe(400);
    const to = await loginOnePage(s.t);
    const id = new URL(to.location, s.t.url).searchParams.get('state') ?? '';
    const odd = await send(s.t, 'POST', `/u/consent?state=${id}`, { state: id, decision: 'maybe' });
    expect(odd.status).toBe(400);
    expect(odd.text).toContain('role="alert"');
  });
});

test.describe('challenge: a one-time code no code passes', () => {
  const s = withTenant({ flow: 'challenge' });

  test('right password → the code page; every code → the same page with an alert, never the redirect URI', async () => {
    const to = await loginOnePage(s.t);
    expect(to.status).toBe(302);
    expect(to.location).toMatch(/^\/u\/mfa\/otp\?state=[\w-]+$/);
    const page = await send(s.t, 'GET', to.location);
    expect(page.status).toBe(200);
    expect(page.text).toMatch(
      /<input id="otp" name="otp" type="text" inputmode="numeric" autocomplete="one-time-code"[^>]*>/,
    );
    expect(page.text).toContain('<button type="submit">Verify</button>');
    const state = hidden(page.text, 'state');
    for (const otp of ['000000', '123456', '999999']) {
      const r = await send(s.t, 'POST', action(page.text), { state, otp });
      expect(r.status, otp).toBe(401);
      expect(r.location).toBe('');
      expect(r.text).toContain('<p role="alert" class="error">');
      expect(r.text).toContain('name="otp"');
    }
  });

  test('a wrong password stays on the login page (401); the code page before the password → 400', async () => {
    const page = await send(s.t, 'GET', authorizeQuery());
    const state = hidden(page.text, 'state');
    expect((await send(s.t, 'GET', `/u/mfa/otp?state=${state}`)).status).toBe(400);
    const wrong = await send(s.t, 'POST', action(page.text), {
      state,
      username: USER.username,
      password: 'wrong-0123456789',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('Wrong email or password.');
  });
});

test.describe('logout confirmation', () => {
  const s = withTenant({ logoutConfirm: true });
  const logout = `/v2/logout?client_id=${SPA.id}&returnTo=${encodeURIComponent(LOGOUT_URL)}`;

  test('an allowed returnTo → the confirmation page; Yes, sign out → 302 to it, once', async () => {
    const page = await send(s.t, 'GET', logout);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.text).toContain('<h1>Do you want to sign out?</h1>');
    expect(page.text).toContain('<form method="post" action="/v2/logout/confirm">');
    expect(page.text).toContain('<button type="submit" name="action" value="logout">Yes, sign out</button>');
    expect(page.text).toContain('<button type="submit" name="action" value="cancel">Cancel</button>');
    const state = hidden(page.text, 'state');
    const yes = await send(s.t, 'POST', '/v2/logout/confirm', { state, action: 'logout' });
    expect([yes.status, yes.location]).toEqual([302, LOGOUT_URL]);
    expect((await send(s.t, 'POST', '/v2/logout/confirm', { state, action: 'logout' })).status).toBe(400);
  });

  test('Cancel → 200 without a redirect; unregistered returnTo → 400 before any page; no returnTo → as before', async () => {
    const state = hidden((await send(s.t, 'GET', logout)).text, 'state');
    const cancel = await send(s.t, 'POST', '/v2/logout/confirm', { state, action: 'cancel' });
    expect([cancel.status, cancel.location]).toEqual([200, '']);
    const evil = await send(
      s.t,
      'GET',
      `/v2/logout?client_id=${SPA.id}&returnTo=${encodeURIComponent('https://evil.test/')}`,
    );
    expect(evil.status).toBe(400);
    expect(JSON.parse(evil.text).error).toBe('invalid_request');
    const plain = await send(s.t, 'GET', '/v2/logout');
    expect([plain.status, plain.text]).toEqual([
      200,
      '<!doctype html><title>Logged out</title><p>You are logged out.</p>\n',
    ]);
    const get = await send(s.t, 'GET', '/v2/logout/confirm');
    expect([get.status, get.headers.get('allow')]).toEqual([405, 'POST']);
  });
});

test.describe('pages on a login origin', () => {
  let t: RunningTenant;
  let c: Client;
  let origin = '';
  test.beforeAll(async () => {
    const port = await freePort();
    origin = `http://localhost:${port}`;
    ({ t, c } = await tenant({ port, login: { flow: 'identifier-first', consent: 'always', origin } }));
  });
  test.afterAll(async () => t.close());

  test('/authorize redirects to the origin, every form posts there, the walk ends with a code', async () => {
    const start = await send(t, 'GET', authorizeQuery());
    expect(start.location).toMatch(new RegExp(`^${origin}/u/login/identifier\\?state=[\\w-]+$`));
    const first = await send(t, 'GET', start.location);
    const state = hidden(first.text, 'state');
    expect(action(first.text)).toBe(`${origin}/u/login/identifier?state=${state}`);
    const next = await send(t, 'POST', action(first.text), { state, username: USER.username });
    expect(next.location).toBe(`${origin}/u/login/password?state=${state}`);
    const second = await send(t, 'GET', next.location);
    expect(action(second.text)).toBe(`${origin}/u/login/password?state=${state}`);
    const consent = await send(t, 'POST', action(second.text), { state, password: USER.password });
    expect(consent.location).toBe(`${origin}/u/consent?state=${state}`);
    const page = await send(t, 'GET', consent.location);
    expect(action(page.text)).toBe(`${origin}/u/consent?state=${state}`);
    const done = await send(t, 'POST', action(page.text), { state, decision: 'accept' });
    expect((await exchange(c, new URL(done.location).searchParams.get('code') ?? '')).status).toBe(200);
  });

  test('the one-page flow on an origin: /authorize redirects to GET /u/login', async () => {
    const port = await freePort();
    const one = await tenant({ port, login: { origin: `http://localhost:${port}/` } });
    try {
      const start = await send(one.t, 'GET', authorizeQuery());
      expect(start.location).toMatch(new RegExp(`^http://localhost:${port}/u/login\\?state=[\\w-]+$`));
      const page = await send(one.t, 'GET', start.location);
      expect(page.status).toBe(200);
      const state = hidden(page.text, 'state');
      expect(page.text).toBe(defaultLoginPage(state, `http://localhost:${port}`));
      const done = await send(one.t, 'POST', action(page.text), {
        state,
        username: USER.username,
        password: USER.password,
      });
      expect(new URL(done.location).searchParams.has('code')).toBe(true);
    } finally {
      await one.t.close();
    }
  });

  test('an origin with a path is refused at start', async () => {
    await expect(tenant({ login: { origin: 'http://localhost:1/login' } })).rejects.toThrow(/without a path/);
  });
});

// Helpers

test.describe('consent controls: <input type=submit>, and labels nested in the buttons', () => {
  const inputs = withTenant({ consent: 'always', consentControls: 'inputs' });
  const nested = withTenant({ consent: 'always', consentControls: 'nested' });

  test('inputs: "Cancel" and "Authorize" post their labels; Authorize → the code, Cancel → access_denied', async () => {
    const page = await send(inputs.t, 'GET', (await loginOnePage(inputs.t)).location);
    expect(page.text).toContain('<input type="submit" name="decision" value="Cancel">');
    expect(page.text).toContain('<input type="submit" name="decision" value="Authorize">');
    expect(page.text).not.toContain('<button');
    const state = hidden(page.text, 'state');
    const done = await send(inputs.t, 'POST', action(page.text), { state, decision: 'Authorize' });
    expect(new URL(done.location).searchParams.get('code')).toBeTruthy();
    const again = await send(inputs.t, 'GET', (await loginOnePage(inputs.t)).location);
    const declined = await send(inputs.t, 'POST', action(again.text), {
      state: hidden(again.text, 'state'),
      decision: 'Cancel',
    });
    expect(new URL(declined.location).searchParams.get('error')).toBe('access_denied');
  });

  test('nested: "Grant Access" and "Deny Access" in a <span> inside each button', async () => {
    const page = await send(nested.t, 'GET', (await loginOnePage(nested.t)).location);
    expect(page.text).toContain(
      '<button type="submit" name="decision" value="accept"><span class="label">Grant Access</span></button>',
    );
    expect(page.text).toContain(
      '<button type="submit" name="decision" value="deny"><span class="label">Deny Access</span></button>',
    );
  });
});

test.describe('consent remembered, prompt=consent ignored', () => {
  const s = withTenant({ consent: 'remembered' });

  test('the first login asks; an accepted consent is kept for the scopes asked; a scope not granted yet asks again', async () => {
    const first = await loginOnePage(s.t, { scope: 'openid profile', prompt: 'consent' });
    expect(first.location).toMatch(/^\/u\/consent\?state=/);
    const page = await send(s.t, 'GET', first.location);
    await send(s.t, 'POST', action(page.text), { state: hidden(page.text, 'state'), decision: 'accept' });
    const within = await loginOnePage(s.t, { scope: 'openid', prompt: 'consent' });
    expect(new URL(within.location).searchParams.get('code'), 'prompt=consent ignored').toBeTruthy();
    const wider = await loginOnePage(s.t, { scope: 'openid address' });
    expect(wider.location).toMatch(/^\/u\/consent\?state=/);
    const asked = await send(s.t, 'GET', wider.location);
    expect(asked.text).toContain('<li>address</li>');
    const listed = await send(s.t, 'GET', '/.well-known/openid-configuration');
    expect(JSON.parse(listed.text).scopes_supported).toEqual(expect.arrayContaining(['address', 'phone']));
  });
});

test.describe('consent to confidential clients only', () => {
  const s = withTenant({ consent: 'always', consentTo: 'confidential' });

  test("the confidential client's login asks consent; the public client's ends with its code", async () => {
    const confidential = await loginOnePage(s.t, { scope: 'openid offline_access', prompt: 'consent' });
    expect(confidential.location).toMatch(/^\/u\/consent\?state=/);
    const pkce = { code_challenge: 'c'.repeat(43), code_challenge_method: 'S256' };
    const pub = await loginOnePage(s.t, {
      client_id: SPA.id,
      scope: 'openid offline_access',
      prompt: 'consent',
      ...pkce,
    });
    expect(pub.status).toBe(302);
    const back = new URL(pub.location);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('code')).toBeTruthy();
  });
});

test.describe('login first: nothing is read before the login', () => {
  const s = withTenant({ loginFirst: true, consent: 'offline' });

  test('any /authorize without the session → the login page with next; the login → back there with the session', async () => {
    for (const target of [authorizeQuery(), '/authorize', '/authorize?client_id=nobody']) {
      const r = await send(s.t, 'GET', target);
      expect([r.status, r.location]).toEqual([302, `/u/login?next=${encodeURIComponent(target)}`]);
    }
    const page = await send(s.t, 'GET', `/u/login?next=${encodeURIComponent(authorizeQuery())}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('<input type="submit" value="Log in">');
    expect(page.text, 'no client named: the request is not read yet').not.toContain('to continue to');
    const wrong = await send(s.t, 'POST', '/u/login', {
      next: authorizeQuery(),
      username: USER.username,
      password: 'x',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('role="alert"');
    const done = await send(s.t, 'POST', '/u/login', {
      next: authorizeQuery(),
      username: USER.username,
      password: USER.password,
    });
    expect([done.status, done.location]).toEqual([302, authorizeQuery()]);
    const cookie = (done.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    expect(cookie).toMatch(/^reference_session=[\w-]+$/);
    const read = await fetch(`${s.t.url}${authorizeQuery()}`, { redirect: 'manual', headers: { cookie } });
    const back = new URL(read.headers.get('location') ?? '');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT_URI);
    expect(back.searchParams.get('state')).toBe('st<1>');
    // Read after the login: its errors as without the profile.
    const bare = await fetch(`${s.t.url}/authorize`, { redirect: 'manual', headers: { cookie } });
    expect(bare.status).toBe(400);
    const unsupported = await fetch(`${s.t.url}${authorizeQuery({ response_type: 'nope' })}`, {
      redirect: 'manual',
      headers: { cookie },
    });
    expect(new URL(unsupported.headers.get('location') ?? '').searchParams.get('error')).toBe(
      'unsupported_response_type',
    );
  });

  test("next names this tenant's /authorize only; loginFirst takes the one-page login on the tenant's origin", async () => {
    const away = await send(s.t, 'GET', `/u/login?next=${encodeURIComponent('https://attacker.test/')}`);
    expect(away.status).toBe(400);
    await expect(tenant({ login: { loginFirst: true, flow: 'identifier-first' } })).rejects.toThrow(/loginFirst/);
  });
});

test.describe('revocation announced in RFC 8414 metadata only', () => {
  let t: RunningTenant;
  test.beforeAll(async () => {
    t = (await tenant({ revocationAnnounced: 'rfc8414' })).t;
  });
  test.afterAll(async () => t.close());

  test('/oauth2/revoke, listed at /.well-known/oauth-authorization-server, not in the discovery document', async () => {
    const oidc = JSON.parse((await send(t, 'GET', '/.well-known/openid-configuration')).text);
    const oauth = JSON.parse((await send(t, 'GET', '/.well-known/oauth-authorization-server')).text);
    expect(oidc.revocation_endpoint).toBeUndefined();
    expect(oauth.revocation_endpoint).toBe(`${t.publicUrl}/oauth2/revoke`);
    expect(oauth.issuer).toBe(oidc.issuer);
    expect((await send(t, 'POST', '/oauth/revoke', { token: 'x' })).status).toBe(404);
    expect((await send(t, 'POST', '/oauth2/revoke', { token: 'x' })).status).toBe(401);
  });
});

/** A tenant with `login` for the describe block around the call. */
function withTenant(login: LoginOptions): { t: RunningTenant; c: Client } {
  const s = {} as { t: RunningTenant; c: Client };
  test.beforeAll(async () => Object.assign(s, await tenant({ login })));
  test.afterAll(async () => s.t.close());
  return s;
}

interface Answer {
  status: number;
  location: string;
  headers: Headers;
  text: string;
}

/** One request, redirects not followed; `target` a path of the tenant or an absolute URL; `body` a form, or JSON text. */
async function send(
  t: RunningTenant,
  method: string,
  target: string,
  body?: Record<string, string> | string,
): Promise<Answer> {
  const init: RequestInit = { method, redirect: 'manual' };
  if (typeof body === 'string') Object.assign(init, { headers: { 'content-type': 'application/json' }, body });
  else if (body)
    Object.assign(init, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(body).toString(),
    });
  const res = await fetch(/^https?:/.test(target) ? target : t.url + target, init);
  return {
    status: res.status,
    location: res.headers.get('location') ?? '',
    headers: res.headers,
    text: await res.text(),
  };
}

/** /authorize and the one-page form posted with the test user: the answer to the post. */
async function loginOnePage(t: RunningTenant, extra: Record<string, string> = {}): Promise<Answer> {
  const page = await send(t, 'GET', authorizeQuery(extra));
  expect(page.status, page.text).toBe(200);
  return send(t, 'POST', action(page.text), {
    state: hidden(page.text, 'state'),
    username: USER.username,
    password: USER.password,
  });
}

/** Identifier-first up to the password page for `username`: the transaction id. */
async function toPasswordPage(t: RunningTenant, username: string, extra: Record<string, string> = {}): Promise<string> {
  const start = await send(t, 'GET', authorizeQuery(extra));
  const state = new URL(start.location, t.url).searchParams.get('state') ?? '';
  const next = await send(t, 'POST', `/u/login/identifier?state=${state}`, { state, username });
  expect(next.status).toBe(302);
  return state;
}

function exchange(c: Client, code: string) {
  return c.token({
    grant_type: 'authorization_code',
    client_id: POST.id,
    client_secret: POST.secret,
    code,
    redirect_uri: REDIRECT_URI,
  });
}

function action(html: string): string {
  return (/<form method="post" action="([^"]+)"/.exec(html)?.[1] ?? '').replace(/&#38;/g, '&');
}

function hidden(html: string, name: string): string {
  return new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html)?.[1] ?? '';
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
    server.on('error', reject);
  });
}

/** The one login page as the tenant served it before login profiles existed (`origin` added to its action). */
function defaultLoginPage(state: string, origin = ''): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Log in</title>
<style>body{font-family:sans-serif;max-width:22rem;margin:4rem auto}label,input,button{display:block;width:100%;margin:.4rem 0}.error{color:#b00}</style>
</head>
<body>
<main>
  <h1>Log in</h1>
  <p>to continue to ${POST.id}</p>
  <form method="post" action="${origin}/u/login?state=${state}">
    <input type="hidden" name="state" value="${state}">
    <label for="username">Email address</label>
    <input id="username" name="username" type="text" autocomplete="username" required>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <button type="submit">Continue</button>
  </form>
</main>
</body>
</html>
`;
}
