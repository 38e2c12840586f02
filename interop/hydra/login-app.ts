// The login and consent app of the Hydra leg: Hydra ships no login, consent or logout page and
// sends the browser to an app the tenant deploys (urls.login, urls.consent, urls.logout,
// urls.error), which answers each request through Hydra's admin API. This is ours, written as a
// tenant admin would deploy one: a login form that checks the two users' passwords and locks a
// user after repeated failures, a consent page with a checkbox per requested scope and
// Allow / Deny, a logout confirmation, and an error page. Plain HTML forms, no script.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { AdminError, type Admin } from './admin.ts';

export interface AppUser {
  username: string;
  password: string;
  name: string;
}

/** Failed logins after which a user is locked, and for how long (longer than any run). */
const LOCK_AFTER = 5;
const LOCK_MS = 15 * 60_000;
/** Form bodies larger than this are refused (a login form is a few hundred bytes). */
const MAX_BODY = 16 * 1024;

const REQUESTS = '/admin/oauth2/auth/requests';

export interface LoginApp {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startLoginApp(port: number, admin: Admin, users: readonly AppUser[]): Promise<LoginApp> {
  const app = new App(admin, users);
  const server = createServer((req, res) => {
    app.handle(req, res).catch((e: unknown) => page(res, 502, 'Sign-in unavailable', alert(describe(e))));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => close(server) };
}

class App {
  private readonly users: Map<string, AppUser>;
  private readonly failures = new Map<string, { count: number; lockedUntil: number }>();

  constructor(
    private readonly admin: Admin,
    users: readonly AppUser[],
  ) {
    this.users = new Map(users.map((u) => [u.username, u]));
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://app.invalid');
    const route = `${req.method} ${url.pathname}`;
    const form = req.method === 'POST' ? await readForm(req) : null;
    const q = (k: string) => form?.getAll(k) ?? url.searchParams.getAll(k);
    switch (route) {
      case 'GET /login':
        return this.loginPage(res, one(q('login_challenge')));
      case 'POST /login':
        return this.login(res, one(q('login_challenge')), one(q('username')), one(q('password')));
      case 'GET /consent':
        return this.consentPage(res, one(q('consent_challenge')));
      case 'POST /consent':
        return this.consent(res, one(q('consent_challenge')), one(q('decision')), q('grant_scope'));
      case 'GET /logout':
        return this.logoutPage(res, one(q('logout_challenge')));
      case 'POST /logout':
        return this.logout(res, one(q('logout_challenge')), one(q('decision')));
      case 'GET /error':
        return errorPage(res, one(q('error')), one(q('error_description')));
      default:
        return page(res, 404, 'Not found', alert('There is no such page.'));
    }
  }

  private async loginPage(res: ServerResponse, challenge: string): Promise<void> {
    const request = await this.request(res, 'login', challenge);
    if (!request) return;
    // Hydra already knows the user (a remembered session): nothing to ask.
    if (request.skip === true) return this.decide(res, 'login', challenge, 'accept', { subject: request.subject });
    return loginForm(res, 200, challenge, '', null);
  }

  private async login(res: ServerResponse, challenge: string, username: string, password: string): Promise<void> {
    if (!(await this.request(res, 'login', challenge))) return;
    const failed = this.failures.get(username);
    if (failed && failed.lockedUntil > Date.now())
      return loginForm(res, 200, challenge, username, 'Too many failed sign-in attempts. Try again later.');
    const user = this.users.get(username);
    if (!user || !sameSecret(password, user.password)) {
      const count = (failed?.count ?? 0) + 1;
      this.failures.set(username, { count, lockedUntil: count >= LOCK_AFTER ? Date.now() + LOCK_MS : 0 });
      return loginForm(res, 200, challenge, username, 'Wrong e-mail address or password.');
    }
    this.failures.delete(username);
    return this.decide(res, 'login', challenge, 'accept', { subject: user.username, remember: false });
  }

  private async consentPage(res: ServerResponse, challenge: string): Promise<void> {
    const request = await this.request(res, 'consent', challenge);
    if (!request) return;
    const scopes = strings(request.requested_scope);
    if (request.skip === true) return this.grant(res, challenge, request, scopes);
    const client = (request.client ?? {}) as Record<string, unknown>;
    const clientName = String(client.client_name || client.client_id || 'An application');
    const boxes = scopes
      .map(
        (s) =>
          `<li><label><input type="checkbox" name="grant_scope" value="${html(s)}" checked> ${html(s)}</label></li>`,
      )
      .join('\n');
    return page(
      res,
      200,
      'Allow access?',
      `<h1>${html(clientName)} asks for access</h1>
<form method="post" action="/consent">
<input type="hidden" name="consent_challenge" value="${html(challenge)}">
<p>Signed in as ${html(String(request.subject ?? ''))}. Grant:</p>
<ul>${boxes}</ul>
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
    );
  }

  private async consent(res: ServerResponse, challenge: string, decision: string, ticked: string[]): Promise<void> {
    const request = await this.request(res, 'consent', challenge);
    if (!request) return;
    if (decision !== 'allow')
      return this.decide(res, 'consent', challenge, 'reject', {
        error: 'access_denied',
        error_description: 'The user denied the request.',
      });
    const asked = strings(request.requested_scope);
    return this.grant(
      res,
      challenge,
      request,
      asked.filter((s) => ticked.includes(s)),
    );
  }

  /** Accepts consent for `scopes`, with the user's claims those scopes cover in the ID token (and so at user info). */
  private grant(res: ServerResponse, challenge: string, request: Record<string, unknown>, scopes: string[]) {
    const user = this.users.get(String(request.subject));
    const claims: Record<string, unknown> = {};
    if (user && scopes.includes('email')) Object.assign(claims, { email: user.username, email_verified: true });
    if (user && scopes.includes('profile')) claims.name = user.name;
    return this.decide(res, 'consent', challenge, 'accept', {
      grant_scope: scopes,
      grant_access_token_audience: strings(request.requested_access_token_audience),
      remember: false,
      session: { id_token: claims },
    });
  }

  private async logoutPage(res: ServerResponse, challenge: string): Promise<void> {
    if (!(await this.request(res, 'logout', challenge))) return;
    return page(
      res,
      200,
      'Log out?',
      `<h1>Do you want to log out?</h1>
<form method="post" action="/logout">
<input type="hidden" name="logout_challenge" value="${html(challenge)}">
<button type="submit" name="decision" value="yes">Log out</button>
<button type="submit" name="decision" value="no">Stay signed in</button>
</form>`,
    );
  }

  private async logout(res: ServerResponse, challenge: string, decision: string): Promise<void> {
    if (decision === 'yes') return this.decide(res, 'logout', challenge, 'accept');
    await this.admin.send('PUT', `${REQUESTS}/logout/reject?logout_challenge=${encodeURIComponent(challenge)}`);
    return page(res, 200, 'Still signed in', '<p>You are still signed in.</p>');
  }

  /** Hydra's request for `challenge`, or null once an answer was sent (an unknown, expired or used challenge). */
  private async request(
    res: ServerResponse,
    kind: 'login' | 'consent' | 'logout',
    challenge: string,
  ): Promise<Record<string, unknown> | null> {
    if (!challenge) {
      page(res, 400, 'Bad request', alert(`The ${kind} challenge is missing.`));
      return null;
    }
    try {
      return (
        (await this.admin.send('GET', `${REQUESTS}/${kind}?${kind}_challenge=${encodeURIComponent(challenge)}`)) ?? {}
      );
    } catch (e) {
      // 410: handled already; Hydra says where the browser goes on.
      const to = e instanceof AdminError ? e.body?.redirect_to : undefined;
      if (typeof to === 'string') redirect(res, to);
      else page(res, e instanceof AdminError && e.status < 500 ? 400 : 502, 'Sign-in failed', alert(describe(e)));
      return null;
    }
  }

  /** Accepts or rejects the request and sends the browser where Hydra says. */
  private async decide(
    res: ServerResponse,
    kind: 'login' | 'consent' | 'logout',
    challenge: string,
    how: 'accept' | 'reject',
    body: unknown = {},
  ): Promise<void> {
    const answer = await this.admin.send(
      'PUT',
      `${REQUESTS}/${kind}/${how}?${kind}_challenge=${encodeURIComponent(challenge)}`,
      body,
    );
    const to = answer?.redirect_to;
    if (typeof to !== 'string') throw new Error(`hydra answered the ${kind} ${how} without redirect_to`);
    redirect(res, to);
  }
}

// Pages

function loginForm(res: ServerResponse, status: number, challenge: string, username: string, error: string | null) {
  page(
    res,
    status,
    'Sign in',
    `<h1>Sign in</h1>
${error ? alert(error) : ''}
<form method="post" action="/login">
<input type="hidden" name="login_challenge" value="${html(challenge)}">
<label>E-mail address <input type="email" name="username" autocomplete="username" value="${html(username)}" required></label>
<label>Password <input type="password" name="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button>
</form>`,
  );
}

/** Hydra sends the browser here with an OAuth error it would not send to the client (RFC 6749 §4.1.2.1). */
function errorPage(res: ServerResponse, error: string, description: string): void {
  const status = error === 'server_error' ? 500 : error === 'temporarily_unavailable' ? 503 : 400;
  page(res, status, 'Sign-in error', `<h1>The request could not be completed</h1>${alert(`${error}: ${description}`)}`);
}

function page(res: ServerResponse, status: number, title: string, body: string): void {
  if (res.headersSent) return;
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-frame-options': 'DENY',
  });
  res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${html(title)}</title></head><body>
${body}
</body></html>`);
}

function alert(text: string): string {
  return `<p role="alert">${html(text)}</p>`;
}

function redirect(res: ServerResponse, to: string): void {
  res.writeHead(302, { location: to, 'cache-control': 'no-store' });
  res.end();
}

// Helpers

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Error('form body too large');
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Compares digests, so that neither the time taken nor a length difference says anything of the password. */
function sameSecret(given: string, known: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(known));
}

function one(values: string[]): string {
  return values[0] ?? '';
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

function html(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message.split('\n')[0]! : String(e);
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
