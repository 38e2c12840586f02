// The hosted login, walked page by page in a real browser (RFC 6749 §4.1.1, §4.2.1): from the
// authorize URL (or a logout URL) to the client's redirect URI, on each page filling what is
// there — a username or e-mail field, a password field, either or both — and submitting,
// accepting (or declining) a consent page, confirming a logout, wherever the pages are served
// (a custom login domain is another origin). The redirect URI is the client's: page.route
// answers it, so nothing has to listen there. Each walk has a fresh context (no session).
// Besides the redirect, a walk ends refused, not driven, or out of pages (AuthorizeOutcome).
import type { Browser, BrowserContext, Page, Request, Route } from '@playwright/test';
import { parseRateLimit } from '../pacer.ts';
import { sleep } from '../lock.ts';
import {
  anyControl,
  controlCounts,
  labelOf,
  pathOf,
  submitOf,
  viewOf,
  type LoginControls,
  type PageView,
} from './page-view.ts';
import { describeSteps, what, where, type StepEnd, type WalkStep } from './walk-steps.ts';

export type { LoginControls } from './page-view.ts';
export type { WalkStep } from './walk-steps.ts';

/** Pages a walk may pass before it gives up (a login, an identifier page, consent and a few interstitials). */
const MAX_PAGES = 8;
/** How long a page that shows nothing to drive yet is given to render it by script. */
const RENDER_MS = 2_000;

export interface WalkRequest {
  /** The authorization (or logout) endpoint with every request parameter in its query. */
  url: string;
  /** Every redirect URI the tenant might send the browser to; the first one reached ends the walk. */
  redirectUris: string[];
  /** Who logs in; absent for a logout. */
  login?: { username: string; password: string };
  /** What to do on a consent page (default accept). */
  consent?: 'accept' | 'decline';
  /** A logout walk confirms a logout-confirmation page. */
  logout?: boolean;
  controls: LoginControls;
  timeoutMs: number;
  /** Called for every request the browser sends to the tenant's origins (counted like API requests). */
  onTenantRequest?: () => void;
  /** Paces the browser's requests as the suite's own are paced (lib/pacer.ts). */
  pace?: BrowserPacing;
}

/**
 * The pacer's side of the browser: `before` waits until a request may go (every request but the
 * redirect URI's), `after` records its answer (null: it failed). A redirect the browser follows
 * by itself cannot be held back; its answer still comes to `after`, with `held` false.
 */
export interface BrowserPacing {
  before(method: string, url: string): Promise<void>;
  after(
    method: string,
    url: string,
    answer: { status: number; headers: Record<string, string> } | null,
    held: boolean,
  ): Promise<void>;
}

export interface AuthorizeOutcome {
  /** The redirect URI reached, with query and fragment, or null when none was. */
  callback: URL | null;
  /** Parameters of the callback: query and fragment merged (fragment wins, RFC 6749 §4.2.2). */
  params: Record<string, string>;
  /** Whether they came in the query, the fragment, or both. */
  carriedIn: { query: string[]; fragment: string[] };
  /** Whether a password was submitted. */
  loggedIn: boolean;
  /** The tenant's answer when no redirect was reached (one line): an error page, a refused login. */
  problem: string | null;
  /**
   * The suite could not drive a page (one line naming it, its fields and the setting to set):
   * nothing is known about the tenant, and the clauses that needed the login are skipped.
   */
  notDriven: string | null;
  /** The tenant refused the login itself (error page, the password asked again, an alert after it). */
  refused: boolean;
  /** The alert or error message the last page showed, when it showed one. */
  alert: string | null;
  /** The page the browser ended on, when it was not a redirect URI. */
  stoppedAt: string | null;
  /** Every page walked: status, where, title, and what the suite filled, ticked or clicked there (walk-steps.ts). */
  steps: WalkStep[];
  /** What happened on a consent page, when one was shown. */
  consent: 'accepted' | 'declined' | 'no decline control' | null;
  /** The tenant's answers the browser saw, in order: status, path and where a redirect pointed (no query). */
  chain: string[];
  /** The status the tenant answered the password's submission with, when it was submitted. */
  loginStatus: number | null;
  /** The first 429 the tenant answered during the walk (its Reset, epoch ms, when it gave one); null when none. */
  throttled: { resetAt: number | null } | null;
}

const CALLBACK_PAGE = '<!doctype html><title>callback</title><p>redirect caught by the conformance suite</p>';

export async function walkLogin(browser: Browser, w: WalkRequest): Promise<AuthorizeOutcome> {
  const context = await browser.newContext({ ignoreHTTPSErrors: false });
  context.setDefaultTimeout(w.timeoutMs);
  const reached = (u: string): boolean => w.redirectUris.some((r) => sameEndpoint(u, r));
  const s = newState();
  const { page, toRedirect, held } = await watch(context, w, s, reached);
  try {
    await walkPages(page, w, s, reached, toRedirect);
  } catch (e) {
    // The browser cannot load the redirect URI itself (never resolved): the redirect still counts.
    if (s.caught === null && !reached(page.url()))
      s.problem ??= `browser: ${(e as Error).message.split('\n')[0]} (${answers(s.chain)})`;
  } finally {
    const at = reached(page.url()) ? page.url() : null;
    await context.close();
    // Requests the closing context cut short are no longer in flight.
    if (w.pace) for (const r of held) await w.pace.after(r.method(), r.url(), null, true);
    s.finalUrl = at ?? s.caught;
  }
  return outcome(s, pathOf(page.url()));
}

/**
 * Everything the walk learns without acting: the redirect URI caught (route or the tenant's own
 * 3xx), the tenant's origins and answers, the status of each page, the password's answer, the
 * first 429; the browser's requests held for the pacer and counted.
 */
async function watch(
  context: BrowserContext,
  w: WalkRequest,
  s: WalkState,
  reached: (u: string) => boolean,
): Promise<{ page: Page; toRedirect: Promise<'redirected'>; held: Set<Request> }> {
  // Registered first: a route registered later (the redirect URI's) is asked first.
  const held = new Set<Request>();
  const pace = w.pace;
  if (pace) {
    await context.route('**/*', async (route) => {
      const r = route.request();
      if (reached(r.url())) return route.fallback();
      await pace.before(r.method(), r.url());
      held.add(r);
      return route.continue().catch(() => undefined);
    });
    context.on('requestfailed', (r) => {
      if (held.delete(r)) void pace.after(r.method(), r.url(), null, true);
    });
  }
  // Resolved when the tenant's own 3xx names a redirect URI: the answer is then in hand, and
  // the browser's attempt to load a host nobody serves is not waited for.
  let redirected!: () => void;
  const toRedirect = new Promise<'redirected'>((resolve) => {
    redirected = () => resolve('redirected');
  });
  await context.route(
    (u) => reached(u.href),
    (route: Route) => {
      s.caught ??= route.request().url();
      redirected();
      return route.fulfill({ status: 200, contentType: 'text/html', body: CALLBACK_PAGE });
    },
  );
  // The tenant's origins: the authorize URL's, and every origin a page of the walk came from.
  const origins = new Set([new URL(w.url).origin]);
  const tenant = (u: string): boolean => !reached(u) && origins.has(originOf(u));
  context.on('request', (r) => {
    if (tenant(r.url())) w.onTenantRequest?.();
  });
  const page = await context.newPage();
  page.on('framenavigated', (f) => {
    if (f !== page.mainFrame()) return;
    s.navigations++;
    if (!reached(f.url())) origins.add(originOf(f.url()));
  });
  context.on('response', (r) => {
    if (reached(r.url())) return;
    if (pace)
      void pace.after(
        r.request().method(),
        r.url(),
        { status: r.status(), headers: r.headers() },
        held.delete(r.request()),
      );
    if (r.request().isNavigationRequest() && r.frame() === page.mainFrame()) {
      origins.add(originOf(r.url()));
      s.status = r.status();
    }
    if (!tenant(r.url())) return;
    if (r.status() === 429) s.throttled ??= { resetAt: parseRateLimit(r.headers()).resetAt };
    const location = r.headers().location;
    s.chain.push(`${r.status()} ${pathOf(r.url())}${location ? ` → ${pathOf(new URL(location, r.url()).href)}` : ''}`);
    // A route never sees the target of a redirect the browser follows itself: the tenant's own
    // answer says where it sent the browser.
    if (location && r.status() >= 300 && r.status() < 400 && reached(new URL(location, r.url()).href)) {
      s.caught ??= new URL(location, r.url()).href;
      redirected();
    }
    if (s.awaitingLogin && r.request().method() === 'POST') {
      s.awaitingLogin = false;
      s.loginStatus = r.status();
    }
  });
  return { page, toRedirect, held };
}

/** From the first page to the redirect URI (or the end the walk comes to), at most MAX_PAGES pages. */
async function walkPages(
  page: Page,
  w: WalkRequest,
  s: WalkState,
  reached: (u: string) => boolean,
  toRedirect: Promise<'redirected'>,
): Promise<void> {
  const navigation = page.goto(w.url, { waitUntil: 'domcontentloaded' });
  navigation.catch(() => null); // still running when a redirect ends the walk first
  const first = await Promise.race([navigation, toRedirect]);
  if (first !== 'redirected' && first) s.status = first.status();
  const done = () => s.caught !== null || reached(page.url());
  for (let n = 0; !done(); n++) {
    await settle(page, w.controls, s.status, toRedirect);
    if (done()) break;
    const v = await viewOf(page, w.controls);
    const shown = { status: s.status, at: v.at, title: v.title };
    if (n >= MAX_PAGES) {
      s.notDriven = `login not driven: no redirect after ${MAX_PAGES} pages (${describeSteps(s.steps)} → ${where(shown)})`;
      return;
    }
    const before = await controlCounts(page, w.controls);
    const step: WalkStep = { ...shown, ...(await act(page, v, w, s)) };
    s.steps.push(step);
    if (step.end !== null) return;
    if (!(await changed(page, w, s, done, toRedirect, before))) {
      s.notDriven = `login not driven: after ${what(step)} on ${v.at}${v.title ? ` ("${v.title}")` : ''} nothing happened within ${w.timeoutMs} ms (IDM_LOGIN_SUBMIT_SELECTOR names the submit control)`;
      return;
    }
  }
}

/** Waits for the page to change after an action: a navigation, or controls shown or hidden by script. */
async function changed(
  page: Page,
  w: WalkRequest,
  s: WalkState,
  done: () => boolean,
  toRedirect: Promise<'redirected'>,
  before: string,
): Promise<boolean> {
  const deadline = Date.now() + w.timeoutMs;
  while (Date.now() < deadline) {
    if (done()) return true;
    if (s.navigations !== s.navsBeforeAction) {
      await Promise.race([page.waitForLoadState('domcontentloaded').catch(() => null), toRedirect]);
      return true;
    }
    if ((await controlCounts(page, w.controls).catch(() => before)) !== before) return true;
    await Promise.race([sleep(100), toRedirect]);
  }
  return false;
}

// The walk's state and one step of it

type WalkState = ReturnType<typeof newState>;

function newState() {
  return {
    caught: null as string | null,
    finalUrl: null as string | null,
    status: null as number | null,
    chain: [] as string[],
    steps: [] as WalkStep[],
    throttled: null as AuthorizeOutcome['throttled'],
    loginStatus: null as number | null,
    awaitingLogin: false,
    identifierSent: false,
    passwordSent: false,
    consent: null as AuthorizeOutcome['consent'],
    problem: null as string | null,
    notDriven: null as string | null,
    refused: false,
    alert: null as string | null,
    /** Main-frame navigations so far, and their count when the last action was taken. */
    navigations: 0,
    navsBeforeAction: 0,
  };
}

/** What the walk did on a page: the step without the page itself. */
type Done = Omit<WalkStep, 'status' | 'at' | 'title'>;

const nothing: Done = { filled: [], ticked: [], acted: null, end: null };
const ended = (end: StepEnd): Done => ({ ...nothing, end });

/**
 * What to do on the page in view: fill and submit, click a consent or logout control, or end
 * the walk (the tenant's answer, or a page the suite cannot drive). Returns what was done.
 */
async function act(page: Page, v: PageView, w: WalkRequest, s: WalkState): Promise<Done> {
  const where = `${v.at}${v.title ? ` ("${v.title}")` : ''}`;
  s.alert = v.alert;
  const refuse = (why: string): Done => {
    s.refused = true;
    s.problem = `the login was refused: ${why} at ${where}${v.alert ? `: "${v.alert}"` : ''}`;
    return ended({ kind: 'refused', why });
  };
  if (w.login && s.loginStatus !== null && s.loginStatus >= 400 && (v.password || v.username || v.alert))
    return refuse(`the password was answered ${s.loginStatus}`);
  if (w.login && v.password) {
    // The password asked again after it was sent: the tenant refused it (whatever the status).
    if (s.passwordSent) return refuse('the password was asked again');
    const filled: Done['filled'] = [];
    if (v.username) {
      await v.username.fill(w.login.username);
      filled.push('username');
    }
    await typeSecret(v.password, w.login.password);
    filled.push('password');
    s.passwordSent = true;
    s.awaitingLogin = true;
    return { ...nothing, filled, acted: await submit(page, v.password, w, s) };
  }
  if (w.login && v.username) {
    if (s.identifierSent) return refuse('the username was asked again');
    await v.username.fill(w.login.username);
    s.identifierSent = true;
    return { ...nothing, filled: ['username'], acted: await submit(page, v.username, w, s) };
  }
  const unknown = v.unknownFields.length > 0;
  if (w.logout && v.logoutConfirm && !unknown) return { ...nothing, acted: await click(v.logoutConfirm, 'logout', s) };
  if (!w.logout && (v.accept || v.decline) && !unknown) {
    if (w.consent === 'decline') {
      if (!v.decline) {
        s.consent = 'no decline control';
        return ended({ kind: 'no-decline' });
      }
      s.consent = 'declined';
      return { ...nothing, acted: await click(v.decline, 'decline', s) };
    }
    if (v.accept) {
      s.consent = 'accepted';
      // A consent page may grant only what is ticked (one checkbox per scope): tick what was asked.
      const ticked = await tickAsked(v.accept, askedScopes(w.url));
      return { ...nothing, ticked, acted: await click(v.accept, 'accept', s) };
    }
  }
  // A logout page with nothing to fill or press is where the logout ended: the tenant's own page,
  // no redirect (a confirmation the walk cannot find has a control it could name).
  if (w.logout && !unknown && v.buttons.length === 0 && (s.status ?? 200) < 400) return ended({ kind: 'own-page' });
  // Nothing the walk knows: the tenant's error page, a refusal after the password, or the suite's gap.
  if ((s.status ?? 200) >= 400) {
    s.problem = `the tenant answered ${s.status} at ${where} (${answers(s.chain)})`;
    if (s.passwordSent) s.refused = true;
    return ended({ kind: 'answered' });
  }
  if (s.passwordSent && v.alert && !unknown) return refuse('an alert after the password');
  s.notDriven = `login not driven: ${describe(v, where, s.status)}; ${settingFor(v, w)}`;
  return ended({ kind: 'not-driven' });
}

async function submit(
  page: Page,
  field: NonNullable<PageView['password']>,
  w: WalkRequest,
  s: WalkState,
): Promise<Done['acted']> {
  const control = await submitOf(page, field, w.controls);
  if (control) return click(control, 'submit', s);
  s.navsBeforeAction = s.navigations;
  await field.press('Enter', { noWaitAfter: true });
  return 'enter';
}

/** The scopes the authorization request asked (RFC 6749 §3.3: space-separated). */
function askedScopes(url: string): string[] {
  try {
    return (new URL(url).searchParams.get('scope') ?? '').split(' ').filter((x) => x !== '');
  } catch {
    return [];
  }
}

/**
 * On the accept control's form, ticks what a person granting the request would: each unticked
 * checkbox or switch whose value is a scope asked (every one when none names a scope: a form of
 * grants), and in a radio group without a choice the option that names a scope asked or grants
 * (allow, accept, yes), else the first. Returns what it ticked.
 */
async function tickAsked(control: NonNullable<PageView['accept']>, asked: string[]): Promise<string[]> {
  return control
    .evaluate((el, scopes) => {
      // Runs in the page; the suite's tsconfig has no DOM types.
      type Input = {
        type: string;
        name: string;
        value: string;
        checked: boolean;
        disabled: boolean;
        getAttribute(n: string): string | null;
        getClientRects(): { length: number };
        click(): void;
      };
      const root =
        (el as { closest(s: string): unknown }).closest('form') ?? (el as { ownerDocument: unknown }).ownerDocument;
      const all = [
        ...(root as { querySelectorAll(s: string): Iterable<Input> }).querySelectorAll(
          'input[type=checkbox], input[type=radio], [role=switch]',
        ),
      ];
      const usable = all.filter((i) => i.getClientRects().length > 0 && !i.disabled);
      const isOn = (i: Input) =>
        i.getAttribute('role') === 'switch' && i.type !== 'checkbox'
          ? i.getAttribute('aria-checked') === 'true'
          : i.checked;
      const names = (i: Input) => scopes.includes(i.value) || scopes.includes(i.name);
      const ticked: string[] = [];
      const tick = (i: Input) => {
        i.click();
        ticked.push(i.value || i.name || i.getAttribute('aria-label') || 'a box');
      };
      const boxes = usable.filter((i) => i.type !== 'radio');
      const byScope = boxes.filter(names);
      for (const i of byScope.length > 0 ? byScope : boxes) if (!isOn(i)) tick(i);
      const groups = new Map<string, Input[]>();
      for (const r of usable.filter((i) => i.type === 'radio')) groups.set(r.name, [...(groups.get(r.name) ?? []), r]);
      for (const g of groups.values()) {
        if (g.some((r) => r.checked)) continue;
        tick(g.find(names) ?? g.find((r) => /^(allow|accept|yes|grant|true|on)$/i.test(r.value)) ?? g[0]!);
      }
      return ticked;
    }, asked)
    .catch(() => [] as string[]);
}

async function click(
  control: NonNullable<PageView['accept']>,
  as: 'submit' | 'accept' | 'decline' | 'logout',
  s: WalkState,
): Promise<Done['acted']> {
  const label = await labelOf(control);
  s.navsBeforeAction = s.navigations;
  await control.click({ noWaitAfter: true });
  return { control: as, label };
}

/** Not fill(): Playwright titles that step `Fill "<value>"` in every report; the prototype's setter reaches script-driven pages too. */
async function typeSecret(field: NonNullable<PageView['password']>, value: string): Promise<void> {
  await field.evaluate((el, v) => {
    // Runs in the page; the suite's tsconfig has no DOM types.
    const g = globalThis as unknown as {
      HTMLInputElement: { prototype: object };
      Event: new (type: string, init: object) => unknown;
    };
    Object.getOwnPropertyDescriptor(g.HTMLInputElement.prototype, 'value')?.set?.call(el, v);
    const input = el as unknown as { dispatchEvent(event: unknown): boolean };
    input.dispatchEvent(new g.Event('input', { bubbles: true }));
    input.dispatchEvent(new g.Event('change', { bubbles: true }));
  }, value);
}

// Helpers

/** Waits until the page's document is parsed and loaded and, unless it is an error page, a control shows (or RENDER_MS passes). */
async function settle(page: Page, c: LoginControls, status: number | null, stop: Promise<unknown>): Promise<void> {
  // readyState, not only the load state: right after a navigation commits, the new document is
  // still loading (its title is the browser's "Loading …") and the old one's state would answer.
  const loaded = page
    .waitForFunction('document.readyState !== "loading"', undefined, { timeout: RENDER_MS })
    .then(() => page.waitForLoadState('load', { timeout: RENDER_MS }))
    .catch(() => null);
  await Promise.race([loaded, stop]);
  if ((status ?? 200) >= 400) return;
  await Promise.race([
    anyControl(page, c)
      .first()
      .waitFor({ state: 'visible', timeout: RENDER_MS })
      .catch(() => null),
    stop,
  ]);
}

function describe(v: PageView, where: string, status: number | null): string {
  const fields = v.unknownFields.length > 0 ? `fields ${v.unknownFields.join(', ')}` : 'no field it can fill';
  const buttons = v.buttons.length > 0 ? `, buttons ${v.buttons.join(', ')}` : '';
  return `the page ${where} (answered ${status ?? '-'}) shows ${fields}${buttons}`;
}

function settingFor(v: PageView, w: WalkRequest): string {
  if (v.unknownFields.length > 0)
    return 'set IDM_LOGIN_USERNAME_SELECTOR / IDM_LOGIN_PASSWORD_SELECTOR if one of them is the login, or use a test user without this step';
  if (w.logout) return 'set IDM_LOGOUT_CONFIRM_SELECTOR to its confirmation control';
  return 'set IDM_LOGIN_CONSENT_SELECTOR to the control that continues (or the field selectors)';
}

function outcome(s: WalkState, endedAt: string): AuthorizeOutcome {
  // page.url() and a Location keep the fragment (the request the route saw does not).
  const callback = s.finalUrl === null ? null : new URL(s.finalUrl);
  const query = Object.fromEntries(callback?.searchParams ?? []);
  const fragment = Object.fromEntries(new URLSearchParams(callback?.hash.replace(/^#/, '') ?? ''));
  const never = `the browser never reached the redirect URI (${answers(s.chain)})`;
  return {
    loggedIn: s.passwordSent,
    steps: s.steps,
    consent: s.consent,
    chain: s.chain,
    loginStatus: s.loginStatus,
    throttled: s.throttled,
    refused: s.refused,
    alert: s.alert,
    callback,
    params: { ...query, ...fragment },
    carriedIn: { query: Object.keys(query), fragment: Object.keys(fragment) },
    problem: callback !== null || s.notDriven !== null ? null : (s.problem ?? never),
    notDriven: callback === null ? s.notDriven : null,
    stoppedAt: callback === null ? endedAt : null,
  };
}

function answers(chain: string[]): string {
  return chain.length === 0 ? 'the tenant answered nothing' : `the tenant answered ${chain.join(', ')}`;
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

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
