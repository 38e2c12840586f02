// An authorization request through the hosted login page, in a real browser (RFC 6749 §4.1.1,
// §4.2.1): open the authorize URL, fill the login form with the configured selectors, submit,
// and catch the redirect to the client's redirect URI with page.route — that URI is the
// client's, not the tenant's, so nothing has to listen there (app.conformance.test is never
// resolved). Each attempt has a fresh context: no session cookie carries over.
import type { Browser, Page, Route } from '@playwright/test';
import { parseRateLimit } from '../pacer.ts';

export interface LoginForm {
  username: string;
  password: string;
  selectors: { username: string; password: string; submit: string };
}

export interface AuthorizeAttempt {
  /** The authorization endpoint with every request parameter in its query (§4.3 GET convention). */
  url: string;
  /** Every redirect the tenant might send the browser to; the first one reached is caught. */
  redirectUris: string[];
  login: LoginForm;
  timeoutMs: number;
  /** Called for every request the browser sends to the tenant (counted like API requests). */
  onTenantRequest?: () => void;
}

export interface AuthorizeOutcome {
  /** The redirect URI reached, with query and fragment, or null when none was. */
  callback: URL | null;
  /** Parameters of the callback: query and fragment merged (fragment wins, RFC 6749 §4.2.2). */
  params: Record<string, string>;
  /** Whether they came in the query, the fragment, or both. */
  carriedIn: { query: string[]; fragment: string[] };
  /** Whether the login form was shown and submitted. */
  loggedIn: boolean;
  /** Why no redirect was reached (one line), when none was. */
  problem: string | null;
  /** The page the browser ended on, when it was not a redirect URI. */
  stoppedAt: string | null;
  /** The tenant's answers the browser saw, in order: status, path and where a redirect pointed (no query). */
  chain: string[];
  /** The status the tenant answered the login form's submission with, when it was submitted. */
  loginStatus: number | null;
  /** The first 429 the tenant answered during the attempt (its Reset, epoch ms, when it gave one); null when none. */
  throttled: { resetAt: number | null } | null;
}

const CALLBACK_PAGE = '<!doctype html><title>callback</title><p>redirect caught by the conformance suite</p>';

export async function authorizeThroughLogin(browser: Browser, a: AuthorizeAttempt): Promise<AuthorizeOutcome> {
  const context = await browser.newContext({ ignoreHTTPSErrors: false });
  context.setDefaultTimeout(a.timeoutMs);
  const reached = (u: string): string | undefined => a.redirectUris.find((r) => sameEndpoint(u, r));
  let caught: string | null = null;
  // Resolved when the tenant's own 3xx names a redirect URI: the answer is then in hand, and
  // the browser's attempt to load a host nobody serves (about a second in Chromium) is not waited for.
  let redirected!: () => void;
  const toRedirect = new Promise<'redirected'>((resolve) => {
    redirected = () => resolve('redirected');
  });
  await context.route(
    (u) => reached(u.href) !== undefined,
    (route: Route) => {
      caught ??= route.request().url();
      return route.fulfill({ status: 200, contentType: 'text/html', body: CALLBACK_PAGE });
    },
  );
  const tenant = new URL(a.url).origin;
  context.on('request', (r) => {
    if (r.url().startsWith(tenant)) a.onTenantRequest?.();
  });
  // A route never sees the target of a redirect the browser follows itself (the first
  // navigation's 3xx to the redirect URI): the tenant's own answer says where it sent the browser.
  const chain: string[] = [];
  let throttled: AuthorizeOutcome['throttled'] = null;
  context.on('response', (r) => {
    if (!r.url().startsWith(tenant)) return;
    if (r.status() === 429) throttled ??= { resetAt: parseRateLimit(r.headers()).resetAt };
    const location = r.headers().location;
    chain.push(`${r.status()} ${pathOf(r.url())}${location ? ` → ${pathOf(new URL(location, r.url()).href)}` : ''}`);
    if (location && r.status() >= 300 && r.status() < 400) {
      const to = new URL(location, r.url()).href;
      if (reached(to) !== undefined) {
        caught ??= to;
        redirected();
      }
    }
  });
  const page = await context.newPage();
  let loggedIn = false;
  let loginStatus: number | null = null;
  let problem: string | null = null;
  try {
    const navigation = page.goto(a.url, { waitUntil: 'domcontentloaded' });
    navigation.catch(() => null); // still running when a redirect ends the attempt first
    const first = await Promise.race([navigation, toRedirect]);
    if (first !== 'redirected' && !atRedirect(page, reached)) {
      const form = page.locator(a.login.selectors.username);
      // An error page (4xx/5xx) has no form to wait for; a login page may render it by script.
      const errorPage = (first?.status() ?? 200) >= 400;
      const shown = errorPage
        ? (await form.count()) > 0
        : await form
            .first()
            .waitFor({ state: 'visible', timeout: a.timeoutMs })
            .then(
              () => true,
              () => false,
            );
      if (!shown && !atRedirect(page, reached)) {
        problem = errorPage
          ? `the tenant answered ${first?.status()} at ${pathOf(page.url())} (no login form, no redirect)`
          : `no login form at ${pathOf(page.url())}: nothing matches ${a.login.selectors.username} (IDM_LOGIN_USERNAME_SELECTOR)`;
      } else if (shown) {
        await form.first().fill(a.login.username);
        // Not fill(): Playwright titles that step `Fill "<value>"` in every report.
        await page
          .locator(a.login.selectors.password)
          .first()
          .evaluate((el, value) => {
            // Runs in the page; the suite's tsconfig has no DOM types.
            const page = globalThis as unknown as {
              HTMLInputElement: { prototype: object };
              Event: new (type: string, init: object) => unknown;
            };
            // The prototype's setter, so that script-driven login pages see the change too.
            Object.getOwnPropertyDescriptor(page.HTMLInputElement.prototype, 'value')?.set?.call(el, value);
            const input = el as unknown as { dispatchEvent(event: unknown): boolean };
            input.dispatchEvent(new page.Event('input', { bubbles: true }));
            input.dispatchEvent(new page.Event('change', { bubbles: true }));
          }, a.login.password);
        // The submission's own answer: a refused login (4xx page) ends the attempt at once.
        const answered = page
          .waitForResponse((r) => r.request().method() === 'POST' && r.url().startsWith(tenant), {
            timeout: a.timeoutMs,
          })
          .catch(() => null);
        await page.locator(a.login.selectors.submit).first().click();
        loggedIn = true;
        loginStatus = (await answered)?.status() ?? null;
        if (loginStatus !== null && loginStatus >= 400 && caught === null)
          problem = `the login form was answered ${loginStatus} at ${pathOf(page.url())} (no redirect)`;
        else {
          const arrival = page
            .waitForURL((u) => reached(u.href) !== undefined, { timeout: a.timeoutMs, waitUntil: 'domcontentloaded' })
            .then(
              () => 'arrived' as const,
              () => 'stayed' as const,
            );
          if ((await Promise.race([arrival, toRedirect])) === 'stayed')
            problem = `after the login form was submitted the browser stayed at ${pathOf(page.url())}, not at the redirect URI`;
        }
      }
    }
    const finalUrl = atRedirect(page, reached) ? page.url() : caught;
    if (finalUrl === null) {
      problem ??= `the browser never reached the redirect URI (ended at ${pathOf(page.url())}; ${answers(chain)})`;
      return {
        callback: null,
        params: {},
        carriedIn: { query: [], fragment: [] },
        loggedIn,
        problem,
        stoppedAt: pathOf(page.url()),
        chain,
        loginStatus,
        throttled,
      };
    }
    return reachedOutcome(finalUrl, { loggedIn, chain, loginStatus, throttled });
  } catch (e) {
    // The browser cannot load the redirect URI itself (never resolved): the redirect still counts.
    if (caught !== null) return reachedOutcome(caught, { loggedIn, chain, loginStatus, throttled });
    return {
      callback: null,
      params: {},
      carriedIn: { query: [], fragment: [] },
      loggedIn,
      problem: `browser: ${(e as Error).message.split('\n')[0]} (${answers(chain)})`,
      stoppedAt: pathOf(page.url()),
      chain,
      loginStatus,
      throttled,
    };
  } finally {
    await context.close();
  }
}

// Helpers

function reachedOutcome(
  finalUrl: string,
  seen: Pick<AuthorizeOutcome, 'loggedIn' | 'chain' | 'loginStatus' | 'throttled'>,
): AuthorizeOutcome {
  // page.url() and a Location keep the fragment (the request the route saw does not).
  const callback = new URL(finalUrl);
  const query = Object.fromEntries(callback.searchParams);
  const fragment = Object.fromEntries(new URLSearchParams(callback.hash.replace(/^#/, '')));
  return {
    callback,
    params: { ...query, ...fragment },
    carriedIn: { query: Object.keys(query), fragment: Object.keys(fragment) },
    problem: null,
    stoppedAt: null,
    ...seen,
  };
}

function answers(chain: string[]): string {
  return chain.length === 0 ? 'the tenant answered nothing' : `the tenant answered ${chain.join(', ')}`;
}

function atRedirect(page: Page, reached: (u: string) => string | undefined): boolean {
  return reached(page.url()) !== undefined;
}

/** Same scheme, host, port and path (query and fragment are the answer). */
function sameEndpoint(url: string, redirectUri: string): boolean {
  try {
    const a = new URL(url);
    const b = new URL(redirectUri);
    return a.origin === b.origin && a.pathname === b.pathname;
  } catch {
    return false;
  }
}

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return url;
  }
}
