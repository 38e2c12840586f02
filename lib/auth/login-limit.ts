// How §8's login limit is provoked (specs/authentication/conventions/login-limit.spec.ts judges
// it): logins of one user at a time, through the password grant or the hosted login page, each
// sent again past the endpoint's own rate limit so that only the per-account block is taken for
// one, and wrong logins sent until the answer changes (blocked) or the bound is reached.
import type { Config } from '../config.ts';
import type { ApiClient, Exchange } from '../http.ts';
import { parseRateLimit } from '../pacer.ts';
import type { Flows } from './flow-types.ts';
import type { AuthorizeOutcome } from './login-walk.ts';
import { oneLoginAtATime } from './one-login.ts';
import { codeRequest } from './pkce.ts';

/**
 * The three kinds of attempt share the endpoint's own rate limit, which refills within
 * seconds; a block outlasts it. A 429 whose Reset is this near is that limit, waited out.
 */
const ENDPOINT_RESET_MS = 5_000;

/** RFC 6585 §4: too many requests. */
const TOO_MANY = 429;

export type Login<T> = (username: string, password: string) => Promise<T>;

/**
 * A password grant of the Post client. Every attempt spends the client's own bucket (lib/http.ts),
 * paced like the client's other requests; a 429 teaches the pacer nothing (the block's
 * X-RateLimit-* — Remaining 0 until the block ends — would make it wait out the block itself). No
 * attempt overlaps another login of the same user (lib/auth/one-login.ts).
 */
export function passwordLogin(anon: ApiClient, cfg: Config, encoding: 'json' | 'form'): Login<Exchange> {
  const { post, user } = cfg.auth;
  return (username, password) =>
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
      (ex) => (ex.status === TOO_MANY ? parseRateLimit(ex.headers).resetAt : undefined),
    );
}

/** A login through the hosted page (code flow with PKCE, the public client), its own 429 waited out the same way. */
export async function pageLogin(flows: Flows, cfg: Config): Promise<Login<AuthorizeOutcome>> {
  const { publicClientId, redirectUri } = cfg.auth;
  const e = await flows.endpoint('authorize');
  return (username, password) =>
    pastEndpointLimit(
      () => {
        const { params } = codeRequest(publicClientId!, redirectUri!, 'openid');
        return flows.authorize(e, params, [redirectUri!], { username, password }, { provokesBlock: true });
      },
      (out) => out.throttled?.resetAt,
    );
}

/** What a wrong login was answered, to tell when the answer changes: an exchange's status, a page's status and message. */
const answerOf = (a: Exchange | AuthorizeOutcome): { said: string; blocked: boolean } =>
  'request' in a
    ? { said: String(a.status), blocked: a.status === TOO_MANY }
    : { said: `${a.loginStatus} ${a.refused} ${a.alert ?? ''}`, blocked: a.loginStatus === TOO_MANY };

/**
 * Wrong logins of `username` (after `first`, already sent) until the answer changes — a block — or
 * `max` have failed: how many failed, and the last answer.
 */
export async function failUntilBlocked<T extends Exchange | AuthorizeOutcome>(
  login: Login<T>,
  lockout: { username: string; password: string },
  first: T,
  max: number,
): Promise<{ failed: number; last: T }> {
  let failed = 1;
  let last = first;
  while (failed < max && answerOf(last).said === answerOf(first).said && !answerOf(last).blocked) {
    last = await login(lockout.username, `${lockout.password}-wrong-${failed}`);
    failed++;
  }
  return { failed, last };
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
