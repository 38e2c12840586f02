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
import { noCodeSaid, tokenGave } from '../../../lib/auth/flow-products.ts';
import { runSkip, tenantSkip } from '../../../lib/skip-record.ts';
import { notDrivenSkip } from '../../../lib/auth/flow-logins.ts';
import { describeSteps } from '../../../lib/auth/walk-steps.ts';
import { otherUserLogsIn } from '../../../lib/auth/conditions.ts';
import { failUntilBlocked, pageLogin, passwordLogin } from '../../../lib/auth/login-limit.ts';

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
    async ({ run, anon, flows, gate }) => {
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
      const login = passwordLogin(anon, cfg, (await flows.encoding()).encoding);
      // The accepted twin: the test user's right login is a login (a token) before any failure counts.
      const accepted = await login(user!.username, user!.password);
      const twin = gate.gave(tokenGave('auth.flow.password', accepted));
      if (!twin.ok) {
        await throughLoginPage(flows, gate, cfg, `the password grant ${notIssuedCause(accepted)}`);
        return;
      }
      const first = await login(lockout!.username, `${lockout!.password}-wrong`);
      // Stop as soon as the answer changes (blocked); the right password decides.
      const { failed } = await failUntilBlocked(login, lockout!, first, cfg.auth.lockoutAttempts);
      const right = await login(lockout!.username, lockout!.password);
      gate.refused(
        twin,
        'ratelimit.login-attempts',
        right,
        `the lockout user's right password after ${failed} failed logins (IDM_LOCKOUT_ATTEMPTS=${cfg.auth.lockoutAttempts} at most)`,
        { tokenEndpoint: true, faulty: false },
      );
      await gate.call(otherUserLogsIn, null, await login(user!.username, user!.password));
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
  // The login page's own rate limit (a 429 whose Reset is within seconds) is waited out and the
  // attempt made again, as with the password grant: only the per-account block counts.
  const attempt = await pageLogin(flows, cfg);
  const accepted = await attempt(user!.username, user!.password);
  const twin = gate.given('auth.flow.code.pkce', !!accepted.params.code, noCodeSaid(accepted));
  if (!twin.ok) {
    gate.skip(twin, 'ratelimit.login-attempts');
    return;
  }
  const first = await attempt(lockout!.username, `${lockout!.password}-wrong`);
  skipTest(
    !first.loggedIn &&
      (notDrivenSkip(first) ??
        tenantSkip(
          first.stoppedAt === null ? {} : { page: first.stoppedAt },
          `the login page took no password: ${first.problem ?? describeSteps(first.steps)}`,
        )),
  );
  // Stop as soon as the answer changes (blocked): its status, or the message the page shows.
  const { failed } = await failUntilBlocked(attempt, lockout!, first, cfg.auth.lockoutAttempts);
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
    `through the login page: the test user from the same IP ${other.params.code ? 'obtained a code' : `did not (${noCodeSaid(other)})`} (the limit is per account)`,
  );
}
