// The conformance `test` of the named flows (§4.3): the suite's fixtures plus
//   flows        – endpoints (setting > discovery > default), token-endpoint and plain
//                  requests that register every credential they obtain with the redactor,
//                  authorization requests through the login page (skips without Chromium),
//                  and the one judgement of a refused grant (lib/auth-checks.ts)
// Requests follow the §4.3 conventions: POST parameters as JSON (as a form where the target
// refuses JSON and takes the form: lib/auth/encoding.ts), GET parameters in the query.
import { test as base } from '../fixtures.ts';
import { noChromiumReason } from './browser.ts';
import { absentReason, endpoint, type Endpoint } from './endpoints.ts';
import { walkLogin, type AuthorizeOutcome, type BrowserPacing } from './login-walk.ts';
import { oneLoginAtATime } from './one-login.ts';
import { bucketKey } from '../http.ts';
import { TwinGate } from './twin-gate.ts';
import { authEncoding, type AuthEncoding } from './encoding.ts';
import { newState, pkcePair } from './pkce.ts';
import { failureCause, issued, notExercised } from './acceptance.ts';
import type { AuthPath } from '../config.ts';
import type { Exchange } from '../http.ts';
import type { Checks } from '../checks.ts';

export interface TokenAnswer {
  ex: Exchange;
  accessToken: string | null;
  refreshToken: string | null;
  tokenType: string | null;
}

/** A user's tokens and where they came from (said in the evidence of the checks that use them). */
export interface UserTokens {
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  /** The client the code was issued to, and the nonce its authorization request carried. */
  clientId: string | null;
  nonce: string | null;
  /** The code exchange's answer (null when there was no code to exchange). */
  exchange: Exchange | null;
  /** e.g. "the code flow with PKCE (client conformance-spa)". */
  source: string;
  /** Why there are none: the reason the dependent clauses are skipped with. */
  problem: string | null;
  /** What the login met on a consent page (null: none was shown). */
  consent: AuthorizeOutcome['consent'];
}

export interface WalkOptions {
  /** What to do on a consent page (default accept). */
  consent?: 'accept' | 'decline';
  /** The walk provokes a per-account block (§8): a 429's headers describe the block, not the pace. */
  provokesBlock?: boolean;
}

/** A logout request and where it sent the browser (through a confirmation page when the tenant shows one). */
export interface LogoutAnswer {
  /** The answer to the logout URL itself. */
  ex: Exchange;
  /** Where the tenant sent the browser (a 3xx's Location, or where the confirmation walk ended); null: nowhere. */
  redirectedTo: string | null;
  /** The confirmation pages walked, when the answer was a page. */
  pages: string[];
  /** The walk could not confirm the page (the suite's gap), or null. */
  notDriven: string | null;
}

export interface Flows {
  /** The encoding POSTs are sent with (JSON, or the form where JSON alone is refused). */
  encoding(): Promise<AuthEncoding>;
  /**
   * The test user's tokens through the authorization code flow with PKCE in the browser
   * (RFC 9700 §2.1.1), never a deprecated grant: the public client, or the confidential
   * (Post) client when `confidential`. offline_access is asked with prompt=consent (OIDC Core §11).
   * One login per client and scope in a worker: the tests that only read with the tokens share
   * it (the same login twice is the same request twice); a test that spends its refresh token
   * asks for a combination nobody else does.
   */
  userTokens(scope: string, o?: { confidential?: boolean }): Promise<UserTokens>;
  /** Where an endpoint is; skips the test when a default path is not served (404/405). */
  endpoint(which: AuthPath): Promise<Endpoint>;
  /** Skips the test when `ex` shows that a default-path endpoint does not exist. */
  skipIfAbsent(e: Endpoint, ex: Exchange): void;
  /** POST to the token endpoint (the accepted encoding); tokens in the answer are masked from then on. */
  token(data: Record<string, unknown>): Promise<TokenAnswer>;
  /**
   * The test user's tokens through the password grant with the confidential (Post) client;
   * skips the test, naming the settings, when either is not configured.
   */
  passwordGrant(scope: string): Promise<TokenAnswer>;
  /** POST with the accepted encoding (JSON by §4.3). */
  post(url: string, data: Record<string, unknown>, headers?: Record<string, string>): Promise<Exchange>;
  /** GET with parameters in the query string. */
  get(url: string, query?: Record<string, string>, headers?: Record<string, string>): Promise<Exchange>;
  /**
   * An authorization request through the hosted login in Chromium (the login walk), as the
   * configured test user. Skips the test (with the reason) when there is no Chromium or no test
   * user, and when the walk could not drive a page ("login not driven: …": the suite's gap).
   */
  authorize(
    e: Endpoint,
    params: Record<string, string>,
    redirectUris: string[],
    as?: { username: string; password: string },
    o?: WalkOptions,
  ): Promise<AuthorizeOutcome>;
  /** As authorize, but a page the walk cannot drive is returned (`notDriven`) instead of skipping. */
  walk(
    e: Endpoint,
    params: Record<string, string>,
    redirectUris: string[],
    as?: { username: string; password: string },
    o?: WalkOptions,
  ): Promise<AuthorizeOutcome>;
  /**
   * GET a logout URL; a page in answer (a logout confirmation) is walked in the browser,
   * confirmed, and followed to where it sends the browser (any of `returnUris`).
   */
  logout(url: string, returnUris: string[]): Promise<LogoutAnswer>;
  /** Masks a value in every report from now on (codes, tokens met outside a token answer). */
  secret(value: string | null | undefined): void;
}

// loginBrowser is registered with the base fixtures (lib/fixtures.ts): a worker fixture
// declared here would give these specs workers of their own, started after the others'.
/**
 * The scope of the public client's shared login: what user info, the Bearer refusals and the
 * relying-party checks of a code-flow login need together (offline_access for a refresh).
 */
export const USER_SCOPE = 'openid profile email offline_access';

/** The login walks' page sequences already recorded by this worker (one observation per shape). */
const recordedWalks = new Set<string>();

/** auth.flow.login-pages: each shape of hosted login once per worker (the spec shows no login page). */
function recordPages(check: Checks, pages: string[]): void {
  // A page the tenant answered with an error and nothing to do is the test's evidence, not a shape of login.
  if (!pages.some((p) => / (filled|clicked) /.test(p))) return;
  // A path segment that is a per-login id (/interaction/<uid>) is the same page every time.
  const shape = pages.join(' → ').replace(/\/[A-Za-z0-9_-]{16,}(?=[/ ":]|$)/g, '/<id>');
  if (recordedWalks.has(shape)) return;
  recordedWalks.add(shape);
  check.observe('auth.flow.login-pages', shape);
}

/**
 * Why a login gave no code, in the words its dependants are skipped with: the walk's gap as it
 * is ("login not driven: …", the suite's), or the tenant's answer to this very login (its scope
 * and client named: a plain code-flow login is judged by auth.flow.code.*, not here).
 */
function loginProblem(out: AuthorizeOutcome, clientId: string, scope: string): string {
  if (out.notDriven !== null) return out.notDriven;
  const error = out.params.error;
  const answered = out.callback
    ? `the redirect URI received ${error ? `error=${error}${out.params.error_description ? ` (${out.params.error_description})` : ''}` : 'no code with the state sent'}`
    : (out.problem ?? 'no redirect');
  return `the login for client ${clientId} asking "${scope}"${scope.includes('offline_access') ? ' with prompt=consent' : ''}: ${answered} (allow this scope for the client on the tenant)`;
}

/** This worker's user logins, by client and scope (module state lives as long as the worker). */
const userLogins = new Map<string, Promise<UserTokens>>();

export const test = base.extend<{ flows: Flows; gate: TwinGate }>({
  // The accepted-twin rule, one gate for every refusal of the authentication API (lib/auth/twin-gate.ts).
  gate: async ({ check }, use, testInfo) => {
    await use(new TwinGate(check, testInfo));
  },
  flows: async ({ suite, anon, counter, check, loginBrowser }, use, testInfo) => {
    const { cfg, redactor } = suite;
    const secret = (v: string | null | undefined): void => {
      if (typeof v === 'string' && v.length >= 4) redactor.add(v);
    };
    const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
    /** The browser's requests spend the buckets the suite's own requests of the same kind spend (lib/pacer.ts). */
    const browserPacing = (provokesBlock: boolean): BrowserPacing => {
      const key = (method: string, url: string) => bucketKey('anonymous', method, url, cfg.apiBase);
      return {
        async before(method, url) {
          counter.waitedMs += await suite.pacer.acquire(key(method, url));
        },
        async after(method, url, answer, held) {
          const learn = answer !== null && !(provokesBlock && answer.status === 429);
          if (held)
            await suite.pacer.release(key(method, url), learn ? answer.headers : null, learn ? answer.status : null);
          else if (learn) await suite.pacer.note(key(method, url), answer.headers, answer.status);
        },
      };
    };
    const flows: Flows = {
      endpoint: (which) => endpoint(cfg, anon, which),
      skipIfAbsent(e, ex) {
        const reason = absentReason(e, ex.status);
        testInfo.skip(reason !== null, reason ?? '');
      },
      encoding: () => authEncoding(cfg, anon),
      async token(data) {
        const { encoding } = await flows.encoding();
        const send = () => anon.send('POST', cfg.auth.tokenUrl, { data, encoding });
        // A login (the password grant) never overlaps another of the same user (lib/auth/one-login.ts).
        const ex =
          data.grant_type === 'password' && typeof data.username === 'string'
            ? await oneLoginAtATime(cfg.auth.url, data.username, send)
            : await send();
        const body = typeof ex.body === 'object' && ex.body !== null ? (ex.body as Record<string, unknown>) : {};
        const answer = {
          ex,
          accessToken: str(body.access_token),
          refreshToken: str(body.refresh_token),
          tokenType: str(body.token_type),
        };
        secret(answer.accessToken);
        secret(answer.refreshToken);
        secret(str(body.id_token));
        if (ex.status >= 200 && ex.status < 300)
          await check.expectSchema('auth.token.answer', 'TokenResponse', ex.body, ex);
        return answer;
      },
      async passwordGrant(scope) {
        const { post, user } = cfg.auth;
        testInfo.skip(
          !post,
          'needs a confidential client allowed the password grant: set IDM_POST_CLIENT_ID and IDM_POST_CLIENT_SECRET',
        );
        testInfo.skip(!user, 'needs a test user: set IDM_TEST_USERNAME and IDM_TEST_PASSWORD');
        return flows.token({
          grant_type: 'password',
          client_id: post!.id,
          client_secret: post!.secret,
          username: user!.username,
          password: user!.password,
          scope,
        });
      },
      post: async (url, data, headers) =>
        anon.send('POST', url, {
          data,
          encoding: (await flows.encoding()).encoding,
          ...(headers ? { headers } : {}),
        }),
      async userTokens(scope, o = {}) {
        const { post, redirectUri, publicClientId } = cfg.auth;
        const client = o.confidential
          ? post
            ? { id: post.id, secret: post.secret }
            : null
          : publicClientId
            ? { id: publicClientId, secret: null }
            : null;
        testInfo.skip(
          !client,
          o.confidential
            ? 'needs a confidential client allowed the code flow: set IDM_POST_CLIENT_ID and IDM_POST_CLIENT_SECRET'
            : 'needs a public client allowed the code flow: set IDM_PUBLIC_CLIENT_ID',
        );
        testInfo.skip(!redirectUri, 'needs a redirect URI registered for the clients: set IDM_REDIRECT_URI');
        const source = `the code flow with PKCE (client ${client!.id})`;
        const accept = o.confidential ? 'auth.flow.code.confidential' : 'auth.flow.code.pkce';
        const key = `${client!.id} ${scope}`;
        const login = async (): Promise<UserTokens> => {
          const none = { accessToken: null, refreshToken: null, idToken: null, clientId: client!.id, source };
          const pair = pkcePair();
          const state = newState();
          const nonce = newState();
          const out = await flows.walk(
            await flows.endpoint('authorize'),
            {
              response_type: 'code',
              client_id: client!.id,
              redirect_uri: redirectUri!,
              scope,
              state,
              nonce,
              code_challenge: pair.challenge,
              code_challenge_method: pair.method,
            },
            [redirectUri!],
          );
          const code = out.params.state === state ? (out.params.code ?? null) : null;
          if (code === null)
            return {
              ...none,
              nonce,
              exchange: null,
              consent: out.consent,
              problem: loginProblem(out, client!.id, scope),
            };
          const t = await flows.token({
            grant_type: 'authorization_code',
            client_id: client!.id,
            ...(client!.secret ? { client_secret: client!.secret } : {}),
            code,
            redirect_uri: redirectUri!,
            code_verifier: pair.verifier,
          });
          const body =
            typeof t.ex.body === 'object' && t.ex.body !== null ? (t.ex.body as Record<string, unknown>) : {};
          return {
            ...none,
            accessToken: t.accessToken,
            refreshToken: t.refreshToken,
            idToken: str(body.id_token),
            nonce,
            exchange: t.ex,
            consent: out.consent,
            problem: issued(t.ex) ? null : notExercised(accept, failureCause(t.ex)),
          };
        };
        let shared = userLogins.get(key);
        if (!shared) {
          shared = login();
          userLogins.set(key, shared);
          // A login that threw (a browser crash) is not kept: the next test tries again.
          shared.catch(() => userLogins.delete(key));
        }
        return shared;
      },
      async get(url, query, headers) {
        const u = new URL(url);
        for (const [k, v] of Object.entries(query ?? {})) u.searchParams.set(k, v);
        return anon.send('GET', u.toString(), headers ? { headers } : {});
      },
      async walk(e, params, redirectUris, as, o = {}) {
        testInfo.skip(!loginBrowser.lookup.path, `browser flows: ${noChromiumReason(loginBrowser.lookup)}`);
        const user = cfg.auth.user;
        testInfo.skip(!user, 'needs a test user to log in with: set IDM_TEST_USERNAME and IDM_TEST_PASSWORD');
        const u = new URL(e.url);
        for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
        // OIDC Core §11: a tenant may honour offline_access only after consent, so every login asking it says prompt=consent.
        if ((params.scope ?? '').split(' ').includes('offline_access') && params.prompt === undefined)
          u.searchParams.set('prompt', 'consent');
        // A default path nobody confirmed: one plain GET tells "no such endpoint" from a fault.
        if (e.source === 'default') flows.skipIfAbsent(e, await anon.send('GET', u.toString()));
        const login = { username: as?.username ?? user!.username, password: as?.password ?? user!.password };
        const browser = await loginBrowser.get();
        const outcome = await oneLoginAtATime(cfg.auth.url, login.username, () =>
          walkLogin(browser, {
            url: u.toString(),
            redirectUris,
            login,
            consent: o.consent ?? 'accept',
            controls: cfg.auth.loginControls,
            timeoutMs: cfg.timeoutMs,
            onTenantRequest: () => {
              counter.sent += 1;
            },
            pace: browserPacing(o.provokesBlock ?? false),
          }),
        );
        for (const k of ['code', 'access_token', 'id_token', 'refresh_token']) secret(outcome.params[k]);
        recordPages(check, outcome.pages);
        return outcome;
      },
      async authorize(e, params, redirectUris, as, o) {
        const outcome = await flows.walk(e, params, redirectUris, as, o);
        testInfo.skip(outcome.notDriven !== null, outcome.notDriven ?? '');
        return outcome;
      },
      async logout(url, returnUris) {
        // Not flows.get: an HTML page here is the tenant's right, not a §7.3 error object.
        const ex = await anon.send('GET', url);
        const location = ex.status >= 300 && ex.status < 400 ? (ex.headers.location ?? null) : null;
        const page = ex.status === 200 && /html/i.test(ex.headers['content-type'] ?? '');
        if (!page || !loginBrowser.lookup.path)
          return {
            ex,
            redirectedTo: location === null ? null : new URL(location, url).href,
            pages: [],
            notDriven: null,
          };
        const walked = await walkLogin(await loginBrowser.get(), {
          url,
          redirectUris: returnUris,
          logout: true,
          controls: cfg.auth.loginControls,
          timeoutMs: cfg.timeoutMs,
          onTenantRequest: () => {
            counter.sent += 1;
          },
          pace: browserPacing(false),
        });
        recordPages(check, walked.pages);
        return { ex, redirectedTo: walked.callback?.href ?? null, pages: walked.pages, notDriven: walked.notDriven };
      },
      secret,
    };
    await use(flows);
  },
});
