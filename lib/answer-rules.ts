// Rules the spec or a standard states about every answer of a kind, judged on every answer of
// the run (as Schemathesis' checks run on every response), not only in the test written for
// them: each exchange any test's client sends passes through here (lib/fixtures.ts).
// - RFC 6749 §5.1: a token-endpoint answer that carries a token says Cache-Control: no-store.
// - §7.3: an authentication-API error answer is an error object; each is recorded for the
//   run-wide judgement (reporters/auth-errors.ts: an object on every 4xx, most with a code
//   and a description).
// - §8 (§7.1): a 429 reports the limit state, so its Remaining is below its Limit.
// - RFC 6749 §4.1.2.1: an error reported to the client by redirect carries the state sent.
// - RFC 6749 §5.1: expires_in is the access token's lifetime — its own exp − iat where it is a JWT.
// - §7.1 (RFC 9110 §15.6): a management answer is a success or an error status §7.1 lists,
//   never a 5xx; the condition that needed the answer skips its clause naming this one
//   (lib/twin-gate.ts `faulted`), so a fault is one failure wherever it lands.
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
import { expectNotCacheable } from './auth/token-cache.ts';

export interface AnswerRule {
  /** What the rule says, for a reader of this registry. */
  name: string;
  clause: string;
  /** Whether the rule speaks of this answer. */
  applies(ex: Exchange, cfg: Config): boolean;
  judge(ex: Exchange, on: { check: Checks; info: TestInfo }): void;
}

const EXPIRES_IN = 'auth.token.expires-in';
/** Seconds expires_in may differ from exp − iat: a server that counts from the moment it answers rounds to the second. */
const EXPIRES_IN_SLACK_S = 2;
/** Tests that already recorded a token answer whose expires_in agreed with its token. */
const expiresInSaid = new WeakSet<TestInfo>();

/** Tests that already recorded a management answer without a fault. */
const faultFreeSaid = new WeakSet<TestInfo>();

export const ANSWER_RULES: readonly AnswerRule[] = [
  {
    name: 'a token answer is never stored (RFC 6749 §5.1)',
    clause: 'auth.sec.token.no-store',
    applies: (ex, cfg) => isTokenEndpoint(ex, cfg) && carriesToken(ex),
    judge: (ex, { check }) => void expectNotCacheable(check, ex),
  },
  {
    name: "a token answer's expires_in is its access token's lifetime, exp − iat (RFC 6749 §5.1)",
    clause: EXPIRES_IN,
    applies: (ex, cfg) => isTokenEndpoint(ex, cfg) && carriesToken(ex),
    judge: (ex, { check, info }) => {
      const lifetimes = statedLifetimes(ex);
      if (lifetimes === null) return notReadable(info);
      const { expiresIn, stated } = lifetimes;
      const agree = Math.abs(expiresIn - stated) <= EXPIRES_IN_SLACK_S;
      // A pass is said once a test; every disagreement is said with its answer.
      if (agree && expiresInSaid.has(info)) return;
      if (agree) expiresInSaid.add(info);
      check.that(
        EXPIRES_IN,
        agree,
        `${ex.request.method} ${new URL(ex.request.url).pathname}: expires_in ${expiresIn}, the access token's exp − iat ${stated}`,
        ex,
      );
    },
  },
  {
    name: "a 429's X-RateLimit-Remaining is below its X-RateLimit-Limit (§8: the headers report the limit state)",
    clause: 'ratelimit.429.remaining-spent',
    applies: (ex) => ex.status === 429 && limitState(ex) !== null,
    judge: (ex, { check }) => {
      const { limit, remaining } = limitState(ex)!;
      check.that(
        'ratelimit.429.remaining-spent',
        remaining < limit,
        `a 429 of ${ex.request.method} ${new URL(ex.request.url).pathname} says X-RateLimit-Remaining ${remaining} of X-RateLimit-Limit ${limit}${remaining < limit ? '' : ': an untouched budget'}`,
        ex,
      );
    },
  },
  {
    name: 'an error redirect to the client carries the state the request sent (RFC 6749 §4.1.2.1)',
    clause: 'auth.sec.error-redirect.state',
    applies: (ex) => errorRedirect(ex) !== null,
    judge: (ex, { check }) => void stateKept(check, errorRedirect(ex)!, ex),
  },
  {
    name: 'a management answer is never a 5xx (§7.1 lists its statuses; RFC 9110 §15.6: a fault of the service)',
    clause: MGMT_FAULT,
    applies: (ex, cfg) => ex.request.url.startsWith(cfg.apiBase),
    judge: (ex, { check, info }) => {
      const fault = ex.answer.class === 'fault';
      // A pass is said once a test; every fault is said with its answer.
      if (!fault && faultFreeSaid.has(info)) return;
      if (!fault) faultFreeSaid.add(info);
      check.that(
        MGMT_FAULT,
        !fault,
        `${ex.request.method} ${decodeURIComponent(new URL(ex.request.url).pathname)} answered ${ex.status}${fault ? ': a fault on the service side' : ''}`,
        ex,
      );
    },
  },
  {
    name: 'an authentication-API error is an error object (§7.3), judged over the run',
    clause: 'auth.error.object',
    applies: (ex, cfg) => ex.status >= 400 && isAuthenticationApi(ex, cfg),
    judge: (ex, { info }) => void recordAuthError(info, ex),
  },
];

/** One rule on an answer that came outside the suite's clients (a burst's own connections); false when it does not speak of it. */
export function judgeByRule(clause: string, ex: Exchange, cfg: Config, on: { check: Checks; info: TestInfo }): boolean {
  const rules = ANSWER_RULES.filter((rule) => rule.clause === clause && rule.applies(ex, cfg));
  for (const rule of rules) rule.judge(ex, on);
  return rules.length > 0;
}

/** Every rule that speaks of `ex`, judged in the test that received it. */
export function judgeAnswer(ex: Exchange, cfg: Config, on: { check: Checks; info: TestInfo }): void {
  for (const rule of ANSWER_RULES) if (rule.applies(ex, cfg)) rule.judge(ex, on);
}

/**
 * RFC 6749 §4.1.2.1 (§4.2.2.1 in the fragment): an error redirect to the request's redirect_uri
 * carries the request's state, exactly: on an answer (`ex`), or where a browser was sent after a
 * login (lib/auth/probe.ts).
 */
export function stateKept(check: Checks, r: ErrorRedirect, ex?: Exchange): boolean {
  const kept = r.state === r.sent;
  return check.that(
    'auth.sec.error-redirect.state',
    kept,
    `the error redirect (error ${r.error}) to the client ${kept ? 'carries the state sent' : r.state === null ? 'carries no state' : 'carries another state'}`,
    ex,
  );
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
function notReadable(info: TestInfo): void {
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
