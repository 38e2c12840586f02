// The flows fixture's browser side: logins through the hosted login (the login walk,
// lib/auth/login-walk.ts), one user's logins never overlapping (one-login.ts), the browser's
// requests paced like the suite's own, each shape of login recorded once per worker; logouts
// through a confirmation page; and the test user's tokens from the code flow with PKCE, one
// login per client and scope in a worker.
import { bucketKey } from '../http.ts';
import type { Checks } from '../checks.ts';
import { noCodeSaid, productsSkip, tokenGave } from './flow-products.ts';
import { noChromiumReason } from './browser.ts';
import { skipTest } from '../declare.ts';
import { runSkip, type SkipRecord } from '../skip-record.ts';
import { NO_REDIRECT_URI } from './needs.ts';
import { walkLogin, type AuthorizeOutcome, type BrowserPacing } from './login-walk.ts';
import { oneLoginAtATime } from './one-login.ts';
import { codeRequest, newState, type PkcePair } from './pkce.ts';
import { str, type FlowContext } from './flow-context.ts';
import { contextOf } from './endpoints.ts';
import type { Flows, LoginEnd, UserTokens } from './flow-types.ts';
import type { CodeLogin } from './encoding.ts';
import { describeSteps, drove, type WalkStep } from './walk-steps.ts';

type Logins = Pick<Flows, 'walk' | 'authorize' | 'logout'>;

export function flowLogins(x: FlowContext, r: Pick<Flows, 'stopIfAbsent'>): Logins {
  const { cfg, anon, check, counter, loginBrowser, testInfo, secret } = x;
  const walks = (provokesBlock: boolean) => ({
    controls: cfg.auth.loginControls,
    timeoutMs: cfg.timeoutMs,
    onTenantRequest: () => {
      counter.sent += 1;
    },
    pace: browserPacing(x, provokesBlock),
  });
  const l: Logins = {
    async walk(e, params, redirectUris, as, o = {}) {
      skipTest(
        !loginBrowser.lookup.path &&
          runSkip({ setting: 'IDM_CHROMIUM' }, `browser flows: ${noChromiumReason(loginBrowser.lookup)}`),
        testInfo,
      );
      const user = cfg.auth.user;
      skipTest(
        !user &&
          runSkip(
            { setting: 'IDM_TEST_USERNAME' },
            'needs a test user to log in with: set IDM_TEST_USERNAME and IDM_TEST_PASSWORD',
          ),
        testInfo,
      );
      const u = new URL(e.url);
      for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
      // OIDC Core §11: a tenant may honour offline_access only after consent, so every login asking it says prompt=consent.
      if ((params.scope ?? '').split(' ').includes('offline_access') && params.prompt === undefined)
        u.searchParams.set('prompt', 'consent');
      // A default path nobody confirmed: one plain GET tells "no such endpoint" from a fault.
      if (e.source === 'default') r.stopIfAbsent(e, await anon.send('GET', u.toString(), contextOf(e)));
      const login = { username: as?.username ?? user!.username, password: as?.password ?? user!.password };
      const browser = await loginBrowser.get();
      const outcome = await oneLoginAtATime(cfg.auth.url, login.username, () =>
        walkLogin(browser, {
          url: u.toString(),
          redirectUris,
          login,
          consent: o.consent ?? 'accept',
          ...walks(o.provokesBlock ?? false),
        }),
      );
      for (const k of ['code', 'access_token', 'id_token', 'refresh_token']) secret(outcome.params[k]);
      recordPages(check, outcome.steps);
      return outcome;
    },
    async authorize(e, params, redirectUris, as, o) {
      const outcome = await l.walk(e, params, redirectUris, as, o);
      skipTest(notDrivenSkip(outcome), testInfo);
      return outcome;
    },
    async logout(e, url, returnUris) {
      // Not flows.get: an HTML page here is the tenant's right, not a §7.3 error object.
      const ex = await anon.send('GET', url, contextOf(e));
      const page = ex.status === 200 && /html/i.test(ex.headers['content-type'] ?? '');
      if (!page || !loginBrowser.lookup.path)
        return { ex, redirectedTo: ex.answer.redirect?.href ?? null, steps: [], notDriven: null };
      const walked = await walkLogin(await loginBrowser.get(), {
        url,
        redirectUris: returnUris,
        logout: true,
        ...walks(false),
      });
      recordPages(check, walked.steps);
      return { ex, redirectedTo: walked.callback?.href ?? null, steps: walked.steps, notDriven: walked.notDriven };
    },
  };
  return l;
}

/** This worker's user logins, by client and scope (module state lives as long as the worker). */
const userLogins = new Map<string, Promise<UserTokens>>();

/**
 * The test user's tokens through the authorization code flow with PKCE in the browser (RFC 9700
 * §2.1.1), never a deprecated grant; one login per client and scope in a worker.
 */
export function userTokensOf(x: FlowContext, f: Pick<Flows, 'walk' | 'endpoint' | 'token'>): Flows['userTokens'] {
  const { cfg, testInfo } = x;
  return async (scope, o = {}) => {
    const { post, redirectUri, publicClientId } = cfg.auth;
    const client = o.confidential
      ? post
        ? { id: post.id, secret: post.secret as string | null }
        : null
      : publicClientId
        ? { id: publicClientId, secret: null }
        : null;
    skipTest(
      !client &&
        (o.confidential
          ? runSkip(
              { setting: 'IDM_POST_CLIENT_ID' },
              'needs a confidential client allowed the code flow: set IDM_POST_CLIENT_ID and IDM_POST_CLIENT_SECRET',
            )
          : runSkip(
              { setting: 'IDM_PUBLIC_CLIENT_ID' },
              'needs a public client allowed the code flow: set IDM_PUBLIC_CLIENT_ID',
            )),
      testInfo,
    );
    skipTest(!redirectUri && NO_REDIRECT_URI, testInfo);
    if (o.fresh) return loginFor(f, client!, redirectUri!, scope, o.confidential ?? false);
    const key = `${client!.id} ${scope}`;
    let shared = userLogins.get(key);
    if (!shared) {
      shared = loginFor(f, client!, redirectUri!, scope, o.confidential ?? false);
      userLogins.set(key, shared);
      // A login that threw (a browser crash) is not kept: the next test tries again.
      shared.catch(() => userLogins.delete(key));
    }
    return shared;
  };
}

/**
 * Fresh codes of the test user's logins for any client (lib/auth/encoding.ts: the code exchange
 * the ways to authenticate go over where the tenant offers neither client credentials nor the
 * password grant): the code flow with PKCE through the login walk, one login per code. It never
 * skips the test it runs in (the encoding probe runs inside whichever test asked first): what
 * stands in the way is its record.
 */
export function codeLoginOf(x: FlowContext, f: Pick<Flows, 'walk' | 'endpoint'>): CodeLogin {
  const { cfg, loginBrowser } = x;
  return async (clientId) => {
    const { redirectUri, user } = cfg.auth;
    if (!loginBrowser.lookup.path)
      return runSkip({ setting: 'IDM_CHROMIUM' }, `browser flows: ${noChromiumReason(loginBrowser.lookup)}`);
    if (!user)
      return runSkip({ setting: 'IDM_TEST_USERNAME' }, 'a code exchange needs a test user: set IDM_TEST_USERNAME');
    if (!redirectUri) return NO_REDIRECT_URI;
    const { out, code, pair } = await codeLogin(f, clientId, redirectUri, 'openid');
    if (code === null) return loginProblem(out, clientId, 'openid');
    return { grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: pair.verifier };
  };
}

// Helpers

/** One code-flow login with PKCE through the login walk: its outcome, and the code when it came with the state sent. */
async function codeLogin(
  f: Pick<Flows, 'walk' | 'endpoint'>,
  clientId: string,
  redirectUri: string,
  scope: string,
  nonce?: string,
): Promise<{ out: AuthorizeOutcome; code: string | null; pair: PkcePair; login: LoginEnd }> {
  const { params, state, pair } = codeRequest(clientId, redirectUri, scope, nonce === undefined ? {} : { nonce });
  const out = await f.walk(await f.endpoint('authorize'), params, [redirectUri]);
  const login = loginEnd(out, state);
  return { out, code: login === 'came-back' ? (out.params.code ?? null) : null, pair, login };
}

/** One code-flow login and the code's exchange: the user's tokens, or why there are none. */
async function loginFor(
  f: Pick<Flows, 'walk' | 'endpoint' | 'token'>,
  client: { id: string; secret: string | null },
  redirectUri: string,
  scope: string,
  confidential: boolean,
): Promise<UserTokens> {
  const source = `the code flow with PKCE (client ${client.id})`;
  const none = { accessToken: null, refreshToken: null, idToken: null, clientId: client.id, source };
  const nonce = newState();
  const { out, code, pair, login } = await codeLogin(f, client.id, redirectUri, scope, nonce);
  if (code === null)
    return {
      ...none,
      nonce,
      exchange: null,
      consent: out.consent,
      login,
      problem: loginProblem(out, client.id, scope),
    };
  const t = await f.token({
    grant_type: 'authorization_code',
    client_id: client.id,
    ...(client.secret ? { client_secret: client.secret } : {}),
    code,
    redirect_uri: redirectUri,
    code_verifier: pair.verifier,
  });
  const body = typeof t.ex.body === 'object' && t.ex.body !== null ? (t.ex.body as Record<string, unknown>) : {};
  const accept = confidential ? 'auth.flow.code.confidential' : 'auth.flow.code.pkce';
  return {
    ...none,
    accessToken: t.accessToken,
    refreshToken: t.refreshToken,
    idToken: str(body.id_token),
    nonce,
    exchange: t.ex,
    consent: out.consent,
    login,
    problem: productsSkip(tokenGave(accept, t.ex)),
  };
}

/** The browser's requests spend the buckets the suite's own requests of the same kind spend (lib/pacer.ts). */
function browserPacing(x: FlowContext, provokesBlock: boolean): BrowserPacing {
  const key = (method: string, url: string) => bucketKey('anonymous', method, url, x.cfg.apiBase);
  return {
    async before(method, url) {
      x.counter.waitedMs += await x.pacer.acquire(key(method, url));
    },
    async after(method, url, answer, held) {
      const learn = answer !== null && !(provokesBlock && answer.status === 429);
      // A block's 429 was served all the same: the bucket is one emptier, whatever its headers said.
      if (held)
        await x.pacer.release(key(method, url), learn ? answer.headers : null, learn ? answer.status : null, {
          spent: answer !== null && !learn,
        });
      else if (learn) await x.pacer.note(key(method, url), answer.headers, answer.status);
    },
  };
}

/** The login walks' page sequences already recorded by this worker (one observation per shape). */
const recordedWalks = new Set<string>();

/** auth.flow.login-pages: each shape of hosted login once per worker (the spec shows no login page). */
function recordPages(check: Checks, steps: readonly WalkStep[]): void {
  // A page the tenant answered with an error and nothing to do is the test's evidence, not a shape of login.
  if (!steps.some(drove)) return;
  // A path segment that is a per-login id (/interaction/<uid>) is the same page every time.
  const shape = describeSteps(steps).replace(/\/[A-Za-z0-9_-]{16,}(?=[/ ":]|$)/g, '/<id>');
  if (recordedWalks.has(shape)) return;
  recordedWalks.add(shape);
  check.observe('auth.flow.login-pages', shape);
}

/** Where a login that sent `state` ended, from the walk's outcome (never its words). */
function loginEnd(out: AuthorizeOutcome, state: string): LoginEnd {
  if (out.callback !== null) return out.params.state === state ? 'came-back' : 'another-state';
  if (out.notDriven !== null) return 'not-driven';
  return out.refused ? 'refused' : 'stopped';
}

/** The record of a page the login walk could not drive (the run's: a selector setting moves it), or null. */
export function notDrivenSkip(out: Pick<AuthorizeOutcome, 'notDriven' | 'stoppedAt'>): SkipRecord | null {
  if (out.notDriven === null) return null;
  return runSkip(out.stoppedAt === null ? {} : { page: out.stoppedAt }, out.notDriven);
}

/**
 * Why a login gave no code, as the record its dependants are skipped with: the walk's gap as it
 * is ("login not driven: …", the run's), or the tenant's answer to this very login (its scope
 * and client named: a plain code-flow login is judged by auth.flow.code.*, not here). That answer
 * is a refusal of how the tenant was set up for the run, so it stays the run's: the verdict cannot speak for it.
 */
function loginProblem(out: AuthorizeOutcome, clientId: string, scope: string): SkipRecord {
  const gap = notDrivenSkip(out);
  if (gap !== null) return gap;
  const answered = noCodeSaid(out);
  return runSkip(
    { answer: 'refused' },
    `the login for client ${clientId} asking "${scope}"${scope.includes('offline_access') ? ' with prompt=consent' : ''}: ${answered} (allow this scope for the client on the tenant)`,
  );
}
