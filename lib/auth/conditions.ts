// Named conditions of the authentication API: what the specs judge or record, each a small
// function that names its clause and the text it rests on (the OpenID Foundation suite's
// conditions, Schemathesis' named checks). A spec is then a short sequence of them; refusals
// go through the twin gate (twin-gate.ts), and rules about every answer are judged on every
// answer (lib/answer-rules.ts).
import type { Checks } from '../checks.ts';
import type { Exchange } from '../http.ts';
import { isObject } from '../values.ts';
import { describeAnswer } from '../answer-words.ts';
import { describeEndpoint, type Endpoint } from './endpoints.ts';
import { answerEvidence, describeClass, passes, PASSES } from '../answer-class.ts';
import { revocationGave, userInfoGave } from './flow-products.ts';
import { validateIdToken, type IdTokenContext, type IssuerKeys } from './id-token.ts';

/** §4.3 names the flow; where the suite found its endpoint (auth.api.named-flows, recorded). */
export function endpointOf(check: Checks, flow: string, e: Endpoint | string): void {
  check.observe('auth.api.named-flows', `${flow}: ${typeof e === 'string' ? e : describeEndpoint(e)}`);
}

/**
 * What the tenant answered where the spec or the standard leaves the answer open: status, where
 * a redirect pointed, the error code or the members of a JSON body (observe clauses only).
 */
export function answerOf(check: Checks, clause: string, what: string, ex: Exchange, extra = ''): void {
  check.observe(clause, `${what}: answered ${describeAnswer(ex)}${extra}`, ex);
}

/**
 * OIDC Core §3.1.3.7 (and §3.2.2.11 beside an access token): the ID token validates against the
 * discovered keys — signature, iss, aud, exp, iat, nonce, at_hash. An answer that should carry
 * one and does not fails too (§3.1.3.3). Null when the keys could not be read (`keys` says why).
 */
export async function idTokenValid(
  check: Checks,
  of: string,
  idToken: string | null | undefined,
  keys: IssuerKeys | string,
  expect: IdTokenContext,
  ex?: Exchange,
): Promise<boolean | null> {
  if (!idToken) return check.that('auth.sec.id-token.valid', false, `${of}: no id_token`, ex);
  if (typeof keys === 'string') return null;
  const v = await validateIdToken(idToken, keys, expect);
  return check.that(
    'auth.sec.id-token.valid',
    v.ok,
    `ID token of ${of}: ${v.ok ? 'validates' : v.problems.join('; ')}`,
    ex,
  );
}

/** §4.3 get user info, OIDC Core §5.3.2: 200 with the user's claims, `sub` among them (flow-products.ts decides). */
export function userInfoAnswered(check: Checks, ex: Exchange, from: string): boolean {
  const g = userInfoGave(ex);
  return check.that(g.clause, g.ok, `user info with the user's Bearer token (from ${from}) ${g.seen}`, ex);
}

/** OIDC Core §5.3.2: user info for a login's access token speaks for the ID token's subject. */
export function sameSubject(check: Checks, info: Exchange, sub: string): boolean {
  const same = isObject(info.body) && info.body.sub === sub;
  return check.that(
    'auth.sec.userinfo.sub',
    same,
    `user info for the login's access token: sub ${same ? 'is' : 'is not'} the ID token's`,
    info,
  );
}

/** RFC 7009 §2.2: the revocation request is answered 200 (flow-products.ts decides). */
export function revocationAnswered(check: Checks, ex: Exchange, note: string): boolean {
  const g = revocationGave(ex);
  return check.that(g.clause, g.ok, `revocation with the client ID and secret ${g.seen}, expected 200${note}`, ex);
}

/**
 * §4.3: POST parameters are sent as JSON. An accepted answer is a JSON body read, a 415 one
 * refused (lib/answer-class.ts); with `any2xx` false other answers say nothing about the
 * encoding (null: not judged). A 5xx is never a body read.
 */
export function jsonBodyRead(check: Checks, ex: Exchange, url: string, any2xx = true): boolean | null {
  const { answer } = ex;
  const read = passes(answer, PASSES.success);
  if (!any2xx && !read && answer.rule !== 'unsupported-media-type') return null;
  return check.that(
    'auth.api.post-json',
    read,
    `POST ${new URL(url).pathname} with a JSON body answered ${ex.status}: ${describeClass(answer)}`,
    ex,
    answerEvidence(answer),
  );
}

const LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/** §8: the authentication API's answers report the limit state in X-RateLimit-* (one at least). */
export function limitStateReported(check: Checks, looked: readonly Exchange[], note: string): boolean {
  const carrying = looked.filter((ex) => LIMIT_HEADERS.every((h) => /^\s*\d+(\.\d+)?\s*$/.test(ex.headers[h] ?? '')));
  const seen = looked
    .map(
      (ex) =>
        `${ex.request.method} ${new URL(ex.request.url).pathname} ${ex.status}: ${LIMIT_HEADERS.filter((h) => ex.headers[h] !== undefined).join(', ') || 'no X-RateLimit-* header'}`,
    )
    .join('; ');
  return check.that(
    'ratelimit.auth-api.headers',
    carrying.length > 0,
    `${carrying.length} of ${looked.length} authentication-API answers report the limit state (${seen})${note}`,
    carrying[0] ?? looked[0],
  );
}

/** §7.3: a 429 of the authentication API carries X-RateLimit-* and a message that points at them. */
export function tooManyRequestsExplained(check: Checks, r: Exchange, what: string): boolean {
  const headers = check.expectRateLimitHeaders('auth.error.429', r, what);
  const text = typeof r.body === 'string' ? r.body : JSON.stringify(r.body ?? '');
  const named = /x-ratelimit/i.test(text);
  check.that(
    'auth.error.429',
    named,
    `the 429 message ${named ? 'points at' : 'does not mention'} the X-RateLimit-* headers: ${text.slice(0, 200)}`,
    r,
  );
  return headers && named;
}
