// §8: repeat login attempts on a database connection are limited per user account and IP
// address. The lockout user (never the test user) fails to log in a bounded number of times;
// then even its right password is refused, while the test user still logs in from the same
// IP — the limit is per account, not per IP alone. It may lock that user on a real tenant,
// hence IDM_ALLOW=lockout there. The logins are password grants where the tenant offers and
// accepts them (the test user's right login first: the accepted twin), else logins through
// the hosted login page (code flow with PKCE), so a tenant without the grant is still held to §8.
import type { TwinGate } from '../../../lib/twin-gate.ts';
import { notIssuedCause } from '../../../lib/answer-words.ts';
import { test, type Flows } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../../../lib/declare.ts';
import { notOfferedSkip, optInSkip, type Config } from '../../../lib/config.ts';
import { newState, pkcePair } from '../../../lib/auth/pkce.ts';
import type { AuthorizeOutcome } from '../../../lib/auth/login-walk.ts';
import { tokenGave } from '../../../lib/auth/flow-products.ts';
import type { Exchange } from '../../../lib/http.ts';
import { parseRateLimit } from '../../../lib/pacer.ts';
import { oneLoginAtATime } from '../../../lib/auth/one-login.ts';
import { runSkip, tenantSkip } from '../../../lib/skip-record.ts';
import { notDrivenSkip } from '../../../lib/auth/flow-logins.ts';
import { describeSteps } from '../../../lib/auth/walk-steps.ts';

/**
 * The three kinds of attempt share the endpoint's own rate limit, which refills within
 * seconds; a block outlasts it. A 429 whose Reset is this near is that limit, waited out.
 */
const ENDPOINT_RESET_MS = 5_000;

test.describe('repeat login attempts (§8)', () => {
  test(
    'failed logins of one user are limited; another user from the same IP still logs in',
    clauses(
      OPERATIONS.authApi,
      'ratelimit.login-attempts',
      'auth.error.client-fault-4xx',
      'auth.error.object',
      'auth.error.oauth-error',
    ),
    async ({ run, anon, check, flows, gate }) => {
      const { cfg } = run;
      const { lockout, user, post } = cfg.auth;
      skipTest(
        !lockout &&
          runSkip(
            { setting: 'IDM_LOCKOUT_USERNAME' },
            'needs a lockout user: set IDM_LOCKOUT_USERNAME and IDM_LOCKOUT_PASSWORD',
          ),
      );
      // A refusal proves the limit only beside the same login accepted: the test user's.
      skipTest(
        !user &&
          runSkip(
            { setting: 'IDM_TEST_USERNAME' },
            'needs the test user beside the lockout user (its login is the accepted twin): set IDM_TEST_USERNAME and IDM_TEST_PASSWORD',
          ),
      );
      skipTest(optInSkip(cfg, 'lockout'));
      // Logins through the password grant where it is offered and works; else through the login page.
      const off = notOfferedSkip(cfg, 'password');
      if (off !== null || !post) {
        await throughLoginPage(flows, gate, cfg, off?.text ?? 'no client for the password grant (IDM_POST_CLIENT_ID)');
        return;
      }
      const { encoding } = await flows.encoding();
      // Every attempt spends the client's own bucket (lib/http.ts), paced like the client's other
      // requests; a 429 teaches the pacer nothing (the block's X-RateLimit-* — Remaining 0 until
      // the block ends — would make it wait out the block itself). The endpoint's own limit may
      // still answer 429: such a 429 (Reset within seconds) is waited out and the same login sent
      // again, so that only the per-account block is taken for one. No attempt overlaps another
      // login of the same user (lib/auth/one-login.ts).
      const login = (username: string, password: string): Promise<Exchange> =>
        pastEndpointLimit(
          () =>
            oneLoginAtATime(cfg.auth.url, username, () =>
              anon.send('POST', cfg.auth.tokenUrl, {
                data: {
                  grant_type: 'password',
                  client_id: post!.id,
                  client_secret: post!.secret,
                  username,
                  password,
                  scope: 'openid',
                  ...(user?.connection ? { realm: user.connection } : {}),
                },
                encoding,
                retryOn429: false,
                learnFrom429: false,
              }),
            ),
          (ex) => (ex.status === 429 ? parseRateLimit(ex.headers).resetAt : undefined),
        );
      // The accepted twin: the test user's right login is a login (a token) before any failure counts.
      const accepted = await login(user!.username, user!.password);
      const twin = gate.gave(tokenGave('auth.flow.password', accepted));
      if (!twin.ok) {
        await throughLoginPage(flows, gate, cfg, `the password grant ${notIssuedCause(accepted)}`);
        return;
      }
      let failed = 0;
      let last: Exchange | null = null;
      const first = await login(lockout!.username, `${lockout!.password}-wrong`);
      failed++;
      last = first;
      // Stop as soon as the answer changes (blocked); the right password decides.
      while (failed < cfg.auth.lockoutAttempts && last.status === first.status && last.status !== 429) {
        last = await login(lockout!.username, `${lockout!.password}-wrong-${failed}`);
        failed++;
      }
      const right = await login(lockout!.username, lockout!.password);
      gate.refused(
        twin,
        'ratelimit.login-attempts',
        right,
        `the lockout user's right password after ${failed} failed logins (IDM_LOCKOUT_ATTEMPTS=${cfg.auth.lockoutAttempts} at most)`,
        { tokenEndpoint: true, faulty: false },
      );
      const other = await login(user!.username, user!.password);
      check.that(
        'ratelimit.login-attempts',
        other.answer.issued !== null,
        `the test user from the same IP answered ${other.status} (the limit is per account)`,
        other,
      );
    },
  );
});

/**
 * The same §8 test through the hosted login page (code flow with PKCE, public client), for a
 * tenant without the password grant: the test user's login is the accepted twin.
 */
async function throughLoginPage(flows: Flows, gate: TwinGate, cfg: Config, why: string): Promise<void> {
  const { lockout, user, publicClientId, redirectUri } = cfg.auth;
  skipTest(
    (!publicClientId || !redirectUri) &&
      runSkip(
        { setting: publicClientId ? 'IDM_REDIRECT_URI' : 'IDM_PUBLIC_CLIENT_ID' },
        `logins through the login page (${why}) need a public client and its redirect URI: set IDM_PUBLIC_CLIENT_ID and IDM_REDIRECT_URI`,
      ),
  );
  const e = await flows.endpoint('authorize');
  // The login page's own rate limit (a 429 whose Reset is within seconds) is waited out and the
  // attempt made again, as with the password grant: only the per-account block counts.
  const attempt = (username: string, password: string): Promise<AuthorizeOutcome> =>
    pastEndpointLimit(
      () => {
        const pair = pkcePair();
        return flows.authorize(
          e,
          {
            response_type: 'code',
            client_id: publicClientId!,
            redirect_uri: redirectUri!,
            scope: 'openid',
            state: newState(),
            code_challenge: pair.challenge,
            code_challenge_method: pair.method,
          },
          [redirectUri!],
          { username, password },
          { provokesBlock: true },
        );
      },
      (out) => out.throttled?.resetAt,
    );
  const accepted = await attempt(user!.username, user!.password);
  const twin = gate.given(
    'auth.flow.code.pkce',
    !!accepted.params.code,
    accepted.problem ?? 'no code at the redirect URI',
  );
  if (!twin.ok) {
    gate.skip(twin, 'ratelimit.login-attempts');
    return;
  }
  let failed = 1;
  let last = await attempt(lockout!.username, `${lockout!.password}-wrong`);
  skipTest(
    !last.loggedIn &&
      (notDrivenSkip(last) ??
        tenantSkip(
          last.stoppedAt === null ? {} : { page: last.stoppedAt },
          `the login page took no password: ${last.problem ?? describeSteps(last.steps)}`,
        )),
  );
  // Stop as soon as the answer changes (blocked): its status, or the message the page shows.
  const answer = (o: AuthorizeOutcome): string => `${o.loginStatus} ${o.refused} ${o.alert ?? ''}`;
  const first = answer(last);
  while (failed < cfg.auth.lockoutAttempts && answer(last) === first && last.loginStatus !== 429) {
    last = await attempt(lockout!.username, `${lockout!.password}-wrong-${failed}`);
    failed++;
  }
  const right = await attempt(lockout!.username, lockout!.password);
  // A login the walk did not drive to its end says nothing of the block: no code is no refusal.
  skipTest(notDrivenSkip(right));
  gate.holds(
    twin,
    'ratelimit.login-attempts',
    !right.params.code,
    `through the login page (${why}): the lockout user's right password after ${failed} failed logins (IDM_LOCKOUT_ATTEMPTS=${cfg.auth.lockoutAttempts} at most) ${right.params.code ? 'obtained a code' : `was refused (${right.problem ?? `the password answered ${right.loginStatus}`})`}`,
  );
  const other = await attempt(user!.username, user!.password);
  skipTest(notDrivenSkip(other));
  gate.holds(
    twin,
    'ratelimit.login-attempts',
    !!other.params.code,
    `through the login page: the test user from the same IP ${other.params.code ? 'obtained a code' : `did not (${other.problem})`} (the limit is per account)`,
  );
}

/**
 * `send`, made again after the endpoint's own 429 (its Reset within seconds) once that Reset has
 * passed, at most three times; `resetOf` gives an answer's 429 Reset (null: none given),
 * undefined when it is no 429. A 429 whose Reset is further off is the answer.
 */
async function pastEndpointLimit<T>(
  send: () => Promise<T>,
  resetOf: (answer: T) => number | null | undefined,
): Promise<T> {
  for (let waits = 0; ; waits++) {
    const answer = await send();
    const resetAt = resetOf(answer);
    const wait = resetAt === undefined || resetAt === null ? null : resetAt - Date.now();
    if (wait === null || wait > ENDPOINT_RESET_MS || waits === 3) return answer;
    await new Promise((r) => setTimeout(r, Math.max(wait, 0) + 50));
  }
}
