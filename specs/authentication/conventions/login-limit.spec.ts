// §8: repeat login attempts on a database connection are limited per user account and IP
// address. The lockout user (never the test user) fails to log in a bounded number of times;
// then even its right password is refused, while the test user still logs in from the same
// IP — the limit is per account, not per IP alone. It may lock that user on a real tenant,
// hence IDM_ALLOW=lockout there.
import { test } from '../../../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { allowed, notOfferedReason, optInReason } from '../../../lib/config.ts';
import { failureCause, issued, notExercised } from '../../../lib/auth/acceptance.ts';
import { authEncoding } from '../../../lib/auth/encoding.ts';
import { expectAuthRefusal } from '../../../lib/auth/checks.ts';
import { recordAuthError } from '../../../lib/auth/error-records.ts';
import type { Exchange } from '../../../lib/http.ts';
import { parseRateLimit } from '../../../lib/pacer.ts';

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
    async ({ run, anon, check }, info) => {
      const { cfg } = run;
      const { lockout, user, post } = cfg.auth;
      test.skip(
        !lockout || !post,
        'needs a lockout user and a client for the password grant: set IDM_LOCKOUT_USERNAME/IDM_LOCKOUT_PASSWORD and IDM_POST_CLIENT_ID/SECRET',
      );
      test.skip(!allowed(cfg, 'lockout'), optInReason('lockout'));
      // The attempts are password-grant logins; the login-page variant is not built yet.
      const off = notOfferedReason(cfg, 'password');
      test.skip(off !== null, `logins through the password grant: ${off}`);
      const { encoding } = await authEncoding(cfg, anon);
      // Each kind of attempt paces in a bucket of its own: the block's X-RateLimit-* answer
      // (Remaining 0 until the block ends) must not make the pacer wait out the block itself.
      const login = (bucket: string, username: string, password: string): Promise<Exchange> =>
        anon.withAuthorization(`login-${bucket}`, null).send('POST', cfg.auth.tokenUrl, {
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
        });
      // The accepted twin: the test user's right login is a login (a token) before any failure counts.
      if (user) {
        const right = await login('accepted', user.username, user.password);
        test.skip(
          !issued(right),
          `${notExercised('auth.flow.password', failureCause(right))}: the attempts would not be logins`,
        );
      }
      let failed = 0;
      let last: Exchange | null = null;
      const first = await login('failing', lockout!.username, `${lockout!.password}-wrong`);
      failed++;
      last = first;
      // Stop as soon as the answer changes (blocked); the right password decides.
      while (failed < cfg.auth.lockoutAttempts && last.status === first.status && last.status !== 429) {
        last = await login('failing', lockout!.username, `${lockout!.password}-wrong-${failed}`);
        failed++;
      }
      recordAuthError(info, last);
      const right = await login('blocked', lockout!.username, lockout!.password);
      expectAuthRefusal(
        check,
        info,
        'ratelimit.login-attempts',
        right,
        `the lockout user's right password after ${failed} failed logins (IDM_LOCKOUT_ATTEMPTS=${cfg.auth.lockoutAttempts} at most)`,
        { tokenEndpoint: true, faulty: false },
      );
      if (user) {
        let other = await login('other-user', user.username, user.password);
        for (let i = 0; i < 3 && other.status === 429; i++) {
          const { resetAt } = parseRateLimit(other.headers);
          const wait = resetAt === null ? null : resetAt - Date.now();
          if (wait === null || wait > ENDPOINT_RESET_MS) break;
          await new Promise((r) => setTimeout(r, Math.max(wait, 0) + 50));
          other = await login('other-user', user.username, user.password);
        }
        check.that(
          'ratelimit.login-attempts',
          issued(other),
          `the test user from the same IP answered ${other.status} (the limit is per account)`,
          other,
        );
      }
    },
  );
});
