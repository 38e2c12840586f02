// Rules the spec or a standard states about every answer of a kind, judged on every answer of the
// run (as Schemathesis' checks run on every response), not only in the test written for them: each
// exchange any test's client sends passes through here (lib/fixtures.ts). Each rule's name says what
// it holds. A management 5xx is mgmt.error.server-fault's, and the condition that needed the answer
// skips its clause naming it (lib/twin-gate.ts `faulted`), so a fault is one failure wherever it lands.
import type { TestInfo } from '@playwright/test';
import type { Checks } from './checks.ts';
import type { Config } from './config.ts';
import { carried, passes, PASSES } from './answer-class.ts';
import type { Exchange } from './http.ts';
import { isObject } from './values.ts';
import { peekClaims } from './auth/jwt-read.ts';
import { skipClauses } from './declare.ts';
import { tenantSkip } from './skip-record.ts';
import { MGMT_FAULT } from './twin-gate.ts';
import { recordAuthError } from './auth/error-records.ts';
import { notCacheable } from './auth/token-cache.ts';
import { condition, judgeBy, type Condition } from './condition.ts';

/** An answer as a rule judges it: the exchange, in the test that received it. */
interface Received {
  ex: Exchange;
  info: TestInfo;
}

export interface AnswerRule {
  /** What the rule says, for a reader of this registry. */
  name: string;
  /** Whether the rule speaks of this answer. */
  applies(ex: Exchange, cfg: Config): boolean;
  condition: Condition<Received>;
}

const EXPIRES_IN = 'auth.token.expires-in';
/** Seconds expires_in may differ from exp − iat: a server that counts from the moment it answers rounds to the second. */
const EXPIRES_IN_SLACK_S = 2;
/** Tests that already recorded a token answer whose expires_in agreed with its token. */
const expiresInSaid = new WeakSet<TestInfo>();

/** Tests that already recorded a management answer without a fault. */
const faultFreeSaid = new WeakSet<TestInfo>();

/**
 * RFC 6749 §4.1.2.1 (§4.2.2.1 in the fragment): an error redirect to the request's redirect_uri
 * carries the request's state, exactly: on an answer (`ex`), or where a browser was sent after a
 * login (lib/auth/probe.ts).
 */
export const stateKept = condition({
  clauses: ['auth.sec.error-redirect.state'],
  cite: 'RFC 6749 §4.1.2.1',
  judge: (v, { ex, r = errorRedirect(ex!)! }: { ex?: Exchange; r?: ErrorRedirect }) => {
    const kept = r.state === r.sent;
    const carries = kept ? 'carries the state sent' : r.state === null ? 'carries no state' : 'carries another state';
    return v.that(kept, `the error redirect (error ${r.error}) to the client ${carries}`, ex);
  },
});

export const ANSWER_RULES: readonly AnswerRule[] = [
  {
    name: 'a token answer is never stored (RFC 6749 §5.1)',
    applies: (ex, cfg) => isTokenEndpoint(ex, cfg) && carriesToken(ex),
    condition: notCacheable,
  },
  {
    name: "a token answer's expires_in is its access token's lifetime, exp − iat (RFC 6749 §5.1)",
    applies: (ex, cfg) => isTokenEndpoint(ex, cfg) && carriesToken(ex),
    condition: condition({
      clauses: [EXPIRES_IN],
      cite: 'RFC 6749 §5.1',
      judge: (v, { ex, info }: Received) => {
        const lifetimes = statedLifetimes(ex);
        if (lifetimes === null) return notReadable(info);
        const { expiresIn, stated } = lifetimes;
        const agree = Math.abs(expiresIn - stated) <= EXPIRES_IN_SLACK_S;
        // A pass is said once a test; every disagreement is said with its answer.
        if (agree && expiresInSaid.has(info)) return null;
        if (agree) expiresInSaid.add(info);
        const what = `${ex.request.method} ${new URL(ex.request.url).pathname}`;
        return v.that(agree, `${what}: expires_in ${expiresIn}, the access token's exp − iat ${stated}`, ex);
      },
    }),
  },
  {
    name: "a 429's X-RateLimit-Remaining is below its X-RateLimit-Limit (§8: the headers report the limit state)",
    applies: (ex) => ex.status === 429 && limitState(ex) !== null,
    condition: condition({
      clauses: ['ratelimit.429.remaining-spent'],
      cite: '§8',
      judge: (v, { ex }: { ex: Exchange }) => {
        const { limit, remaining } = limitState(ex)!;
        return v.that(
          remaining < limit,
          `a 429 of ${ex.request.method} ${new URL(ex.request.url).pathname} says X-RateLimit-Remaining ${remaining} of X-RateLimit-Limit ${limit}${remaining < limit ? '' : ': an untouched budget'}`,
          ex,
        );
      },
    }),
  },
  {
    name: 'an error redirect to the client carries the state the request sent (RFC 6749 §4.1.2.1)',
    applies: (ex) => errorRedirect(ex) !== null,
    condition: stateKept,
  },
  {
    name: 'a management answer is never a 5xx (§7.1 lists its statuses; RFC 9110 §15.6: a fault of the service)',
    applies: (ex, cfg) => ex.request.url.startsWith(cfg.apiBase),
    condition: condition({
      clauses: [MGMT_FAULT],
      cite: '§7.1; RFC 9110 §15.6',
      judge: (v, { ex, info }: Received) => {
        const fault = ex.answer.class === 'fault';
        // A pass is said once a test; every fault is said with its answer.
        if (!fault && faultFreeSaid.has(info)) return null;
        if (!fault) faultFreeSaid.add(info);
        const what = `${ex.request.method} ${decodeURIComponent(new URL(ex.request.url).pathname)}`;
        return v.that(!fault, `${what} answered ${ex.status}${fault ? ': a fault on the service side' : ''}`, ex);
      },
    }),
  },
  {
    name: 'an authentication-API error is an error object (§7.3), judged over the run',
    applies: (ex, cfg) => ex.status >= 400 && isAuthenticationApi(ex, cfg),
    condition: condition({
      clauses: ['auth.error.object'],
      cite: '§7.3 (judged over the run, reporters/auth-errors.ts)',
      judge: (_v, { ex, info }: Received) => {
        recordAuthError(info, ex);
        return null;
      },
    }),
  },
];

/** One rule on an answer that came outside the suite's clients (a burst's own connections); false when it does not speak of it. */
export function judgeByRule(clause: string, ex: Exchange, cfg: Config, on: { check: Checks; info: TestInfo }): boolean {
  const rules = ANSWER_RULES.filter((rule) => rule.condition.clauses[0] === clause && rule.applies(ex, cfg));
  for (const rule of rules) void judgeBy(rule.condition, on.check, { ex, info: on.info });
  return rules.length > 0;
}

/** Every rule that speaks of `ex`, judged in the test that received it. */
export function judgeAnswer(ex: Exchange, cfg: Config, on: { check: Checks; info: TestInfo }): void {
  for (const rule of ANSWER_RULES)
    if (rule.applies(ex, cfg)) void judgeBy(rule.condition, on.check, { ex, info: on.info });
}

// Helpers

/** An error sent to the client by redirect: its code, the state it carries, the state the request sent. */
export interface ErrorRedirect {
  error: string;
  state: string | null;
  sent: string;
}

/** A 3xx to the request's own redirect_uri carrying `error`, from a request that sent a state. */
export function errorRedirect(ex: Exchange): ErrorRedirect | null {
  const to = ex.answer.redirect;
  if (to === null || ex.request.method !== 'GET') return null;
  const asked = new URL(ex.request.url).searchParams;
  const sent = asked.get('state');
  const redirectUri = asked.get('redirect_uri');
  if (sent === null || !redirectUri) return null;
  if (`${to.origin}${to.pathname}` !== redirectUri.split(/[?#]/)[0]) return null;
  const params = carried(to);
  const error = params.get('error');
  return error === null ? null : { error, state: params.get('state'), sent };
}

/** X-RateLimit-Limit and -Remaining as numbers, or null when either is absent or not a number. */
function limitState(ex: Exchange): { limit: number; remaining: number } | null {
  const limit = Number(ex.headers['x-ratelimit-limit']);
  const remaining = Number(ex.headers['x-ratelimit-remaining']);
  if (ex.headers['x-ratelimit-limit'] === undefined || ex.headers['x-ratelimit-remaining'] === undefined) return null;
  return Number.isFinite(limit) && Number.isFinite(remaining) ? { limit, remaining } : null;
}

/** The authentication API: its origin, outside the management API's /api/v2. */
function isAuthenticationApi(ex: Exchange, cfg: Config): boolean {
  const u = new URL(ex.request.url);
  return u.origin === new URL(cfg.auth.url).origin && !`${u.origin}${u.pathname}`.startsWith(cfg.apiBase);
}

function isTokenEndpoint(ex: Exchange, cfg: Config): boolean {
  const path = (url: string) => new URL(url).pathname.replace(/\/$/, '');
  const u = new URL(ex.request.url);
  return (
    ex.request.method === 'POST' &&
    [cfg.auth.tokenUrl, cfg.tokenUrl].some((t) => new URL(t).origin === u.origin && path(t) === path(u.href))
  );
}

/**
 * An access token the client cannot read (RFC 6749 §1.4: opaque) or an answer without expires_in
 * leaves the rule nothing to compare: not applicable to this answer, the tenant's (a clause judged
 * on another answer of the run still passes or fails there).
 */
function notReadable(info: TestInfo): null {
  if (!info.annotations.some((a) => a.type === 'clause' && a.description === EXPIRES_IN))
    info.annotations.push({ type: 'clause', description: EXPIRES_IN });
  skipClauses(
    info,
    tenantSkip(
      {},
      'not applicable: the access token is not a JWT the suite can read, or the answer states no expires_in',
    ),
    EXPIRES_IN,
  );
  return null;
}

/** expires_in and the access token's own exp − iat, where the answer states one and the token is a readable JWT. */
function statedLifetimes(ex: Exchange): { expiresIn: number; stated: number } | null {
  const body = isObject(ex.body) ? ex.body : {};
  const expiresIn = typeof body.expires_in === 'string' ? Number(body.expires_in) : body.expires_in;
  if (typeof expiresIn !== 'number' || !Number.isFinite(expiresIn) || typeof body.access_token !== 'string')
    return null;
  const claims = peekClaims(body.access_token);
  return typeof claims?.exp === 'number' && typeof claims.iat === 'number'
    ? { expiresIn, stated: claims.exp - claims.iat }
    : null;
}

function carriesToken(ex: Exchange): boolean {
  if (!passes(ex.answer, PASSES.success) || !isObject(ex.body)) return false;
  const body = ex.body;
  return ['access_token', 'refresh_token', 'id_token'].some((k) => typeof body[k] === 'string' && body[k] !== '');
}
