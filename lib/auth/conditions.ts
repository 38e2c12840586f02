// Named conditions of the authentication API (lib/condition.ts, the shape both halves share): what
// the specs judge or record, each naming its clauses and the text it rests on, run by the gate
// (`gate.call(c, null, input)`: these take answers whose class the spec has already read). Refusals
// go through the twin gate itself (lib/twin-gate.ts), and rules about every answer are judged on
// every answer (lib/answer-rules.ts). What the tenant answered where the spec is silent is
// management/recorded.ts's `recorded(clause)`, for both halves.
import type { Exchange } from '../http.ts';
import { isObject } from '../values.ts';
import { answerEvidence, describeClass, passes, PASSES } from '../answer-class.ts';
import { condition, perClause } from '../condition.ts';
import type { Twin } from '../twin-gate.ts';
import { describeEndpoint, type Endpoint } from './endpoints.ts';
import { revocationGave, userInfoGave } from './flow-products.ts';
import { validateIdToken, type IdTokenContext, type IssuerKeys } from './id-token.ts';
import { describeProbe, type ProbeAnswer } from './probe.ts';
import type { LogoutAnswer } from './flow-types.ts';
import { describeSteps } from './walk-steps.ts';

/** §4.3 names the flow; where the suite found its endpoint (auth.api.named-flows, recorded). */
export const endpointOf = condition({
  clauses: ['auth.api.named-flows'],
  cite: '§4.3 (paths not shown: recorded)',
  judge: (v, { flow, at }: { flow: string; at: Endpoint | string }) =>
    v.observe(`${flow}: ${typeof at === 'string' ? at : describeEndpoint(at)}`),
});

/** What an authorization request probe came to (lib/auth/probe.ts), where the spec leaves the answer open. */
export const probeRecorded = perClause((clause) =>
  condition({
    clauses: [clause],
    cite: 'not shown by the spec: recorded',
    judge: (v, { what, probe }: { what: string; probe: ProbeAnswer }) =>
      v.observe(`${what}: ${describeProbe(probe)}`, probe.anonymous),
  }),
);

/** What the spec leaves open about an answer or a walk, in words the spec's test says (an `observe` clause). */
export const seen = perClause((clause) =>
  condition({
    clauses: [clause],
    cite: 'not stated: recorded',
    judge: (v, { said, ex }: { said: string; ex?: Exchange }) => v.observe(said, ex),
  }),
);

/**
 * OIDC Core §3.1.3.7 (and §3.2.2.11 beside an access token): the ID token validates against the
 * discovered keys — signature, iss, aud, exp, iat, nonce, at_hash. An answer that should carry
 * one and does not fails too (§3.1.3.3). Null when the keys could not be read (`keys` says why).
 */
export const idTokenValid = condition({
  clauses: ['auth.sec.id-token.valid'],
  cite: 'OIDC Core §3.1.3.7',
  judge: async (
    v,
    t: {
      of: string;
      idToken: string | null | undefined;
      keys: IssuerKeys | string;
      expect: IdTokenContext;
      ex?: Exchange;
    },
  ) => {
    if (!t.idToken) return v.that(false, `${t.of}: no id_token`, t.ex);
    if (typeof t.keys === 'string') return null;
    const r = await validateIdToken(t.idToken, t.keys, t.expect);
    return v.that(r.ok, `ID token of ${t.of}: ${r.ok ? 'validates' : r.problems.join('; ')}`, t.ex);
  },
});

/** §4.3 get user info, OIDC Core §5.3.2: 200 with the user's claims, `sub` among them (flow-products.ts decides). */
export const userInfoAnswered = condition({
  clauses: ['auth.flow.userinfo'],
  cite: '§4.3; OIDC Core §5.3.2',
  judge: (v, { ex, from }: { ex: Exchange; from: string }) => {
    const g = userInfoGave(ex);
    return v.that(g.ok, `user info with the user's Bearer token (from ${from}) ${g.seen}`, ex);
  },
});

/** OIDC Core §5.3.2: user info for a login's access token speaks for the ID token's subject. */
export const sameSubject = condition({
  clauses: ['auth.sec.userinfo.sub'],
  cite: 'OIDC Core §5.3.2',
  judge: (v, { info, sub }: { info: Exchange; sub: string }) => {
    const same = isObject(info.body) && info.body.sub === sub;
    return v.that(same, `user info for the login's access token: sub ${same ? 'is' : 'is not'} the ID token's`, info);
  },
});

/** RFC 7009 §2.2: the revocation request is answered 200 (flow-products.ts decides). */
export const revocationAnswered = condition({
  clauses: ['auth.flow.revoke'],
  cite: 'RFC 7009 §2.2',
  judge: (v, { ex, note }: { ex: Exchange; note: string }) => {
    const g = revocationGave(ex);
    return v.that(g.ok, `revocation with the client ID and secret ${g.seen}, expected 200${note}`, ex);
  },
});

/**
 * §4.3: POST parameters are sent as JSON. An accepted answer is a JSON body read, a 415 one
 * refused (lib/answer-class.ts); with `any2xx` false other answers say nothing about the
 * encoding (null: not judged). A 5xx is never a body read.
 */
export const jsonBodyRead = condition({
  clauses: ['auth.api.post-json'],
  cite: '§4.3',
  judge: (v, { ex, url, any2xx = true }: { ex: Exchange; url: string; any2xx?: boolean }) => {
    const { answer } = ex;
    const read = passes(answer, PASSES.success);
    if (!any2xx && !read && answer.rule !== 'unsupported-media-type') return null;
    const said = `POST ${new URL(url).pathname} with a JSON body answered ${ex.status}: ${describeClass(answer)}`;
    return v.that(read, said, ex, answerEvidence(answer));
  },
});

/** §5.2 "client ID only, for public applications": the public client's code exchange is that method. */
export const clientIdOnly = condition({
  clauses: ['auth.method.client-id-only'],
  cite: '§5.2',
  judge: (v, { twin, ex, note }: { twin: Twin; ex: Exchange; note: string }) =>
    v.that(
      twin.ok,
      `the public client's code exchange with its client ID alone ${twin.ok ? `answered ${ex.status} with a token` : twin.cause}${note}`,
      ex,
    ),
});

/**
 * RFC 6749 §4.1.2: a code a wrong exchange spent or killed is the tenant's right; how many codes the
 * wrong exchanges took is recorded (lib/auth/live-credential.ts sent the later ones on a fresh one).
 */
export const codesTaken = condition({
  clauses: ['auth.flow.refusals'],
  cite: 'RFC 6749 §4.1.2 (recorded)',
  judge: (v, { codes, wrong }: { codes: number; wrong: string }) =>
    v.observe(
      codes === 1
        ? `the code survived ${wrong}: its right exchange after them was accepted`
        : `${wrong} took ${codes} codes: a refusal or an acceptance let the code die (RFC 6749 §4.1.2), and the ones after it were sent again on a fresh code`,
    ),
});

/** §8: another user from the same IP still logs in while one account is blocked (the limit is per account). */
export const otherUserLogsIn = condition({
  clauses: ['ratelimit.login-attempts'],
  cite: '§8',
  judge: (v, other: Exchange) =>
    v.that(
      other.answer.issued !== null,
      `the test user from the same IP answered ${other.status} (the limit is per account)`,
      other,
    ),
});

/** RFC 6750 §3: a 401 at a resource says how to authenticate in WWW-Authenticate (recorded beside its status). */
export const challengeRecorded = condition({
  clauses: ['auth.method.bearer.status'],
  cite: 'RFC 6750 §3 (recorded)',
  judge: (v, ex: Exchange) =>
    ex.status === 401 ? v.observe(`WWW-Authenticate: ${ex.headers['www-authenticate'] ?? '(absent)'}`) : null,
});

const LIMIT_HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];

/** §8: the authentication API's answers report the limit state in X-RateLimit-* (one at least). */
export const authLimitStateReported = condition({
  clauses: ['ratelimit.auth-api.headers'],
  cite: '§8',
  judge: (v, { looked, note }: { looked: readonly Exchange[]; note: string }) => {
    const carrying = looked.filter((ex) => LIMIT_HEADERS.every((h) => /^\s*\d+(\.\d+)?\s*$/.test(ex.headers[h] ?? '')));
    const seen = looked
      .map(
        (ex) =>
          `${ex.request.method} ${new URL(ex.request.url).pathname} ${ex.status}: ${LIMIT_HEADERS.filter((h) => ex.headers[h] !== undefined).join(', ') || 'no X-RateLimit-* header'}`,
      )
      .join('; ');
    return v.that(
      carrying.length > 0,
      `${carrying.length} of ${looked.length} authentication-API answers report the limit state (${seen})${note}`,
      carrying[0] ?? looked[0],
    );
  },
});

/** §7.3: a 429 of the authentication API carries X-RateLimit-* and a message that points at them. */
export const tooManyRequestsExplained = condition({
  clauses: ['auth.error.429'],
  cite: '§7.3',
  judge: (v, { r, what }: { r: Exchange; what: string }) => {
    const headers = v.rateLimitHeaders(r, what);
    const text = typeof r.body === 'string' ? r.body : JSON.stringify(r.body ?? '');
    const named = /x-ratelimit/i.test(text);
    v.that(
      named,
      `the 429 message ${named ? 'points at' : 'does not mention'} the X-RateLimit-* headers: ${text.slice(0, 200)}`,
      r,
    );
    return headers && named;
  },
});

/** RFC 6749 §6 leaves a narrower refresh's answer open: what a refresh asking for openid alone was answered. */
export const narrowingRecorded = condition({
  clauses: ['auth.sec.refresh.narrowing'],
  cite: 'RFC 6749 §6 (recorded)',
  judge: (v, { who, narrower }: { who: string; narrower: Exchange }) => {
    const scope = narrower.answer.issued ? ` with scope ${scopeOf(narrower) ?? '(not stated)'}` : '';
    return v.observe(`${who}: refresh asking for openid only answered ${narrower.status}${scope}`, narrower);
  },
});

/** RFC 6749 §6 forbids widening, not answering: what a refresh asking beyond the grant was answered. */
export const widerRecorded = condition({
  clauses: ['auth.sec.refresh.wider-answer'],
  cite: 'RFC 6749 §6 (recorded)',
  judge: (v, { what, wider }: { what: string; wider: Exchange }) => {
    const stated = scopeOf(wider);
    return v.observe(
      wider.answer.issued === null
        ? `${what}: refused with ${wider.status}`
        : `${what}: answered ${wider.status} with ${stated === null ? 'no scope member' : `scope "${stated}"`}`,
      wider,
    );
  },
});

/** RFC 6749 §5.1: the scope a token answer states, or null. */
function scopeOf(ex: Exchange): string | null {
  const scope = isObject(ex.body) ? ex.body.scope : undefined;
  return typeof scope === 'string' && scope !== '' ? scope : null;
}

/** A logout's answer in one line: its status, where it sent the browser, the pages it went through. */
export function describeLogout(a: LogoutAnswer, how = ''): string {
  const to = a.redirectedTo ? ` to ${a.redirectedTo.split(/[?#]/)[0]}` : '';
  const through = a.steps.length > 0 ? ` (through ${describeSteps(a.steps)})` : '';
  return `answered ${a.ex.status}${to}${through}${how}`;
}

/** OIDC RP-Initiated Logout 1.0 §2 leaves the answer to an unregistered return URL open: recorded. */
export const logoutRecorded = condition({
  clauses: ['auth.sec.logout.unregistered-answer'],
  cite: 'OIDC RP-Initiated Logout 1.0 §2 (recorded)',
  judge: (v, { what, near, how }: { what: string; near: LogoutAnswer; how: string }) =>
    v.observe(`${what}: ${describeLogout(near, how)}`, near.ex),
});

/** RFC 6749 §1.4: an access token may be opaque to the client; whether the user's is a JWT decides which variants are made. */
export const bearerTokenFormat = condition({
  clauses: ['auth.method.bearer.token-format'],
  cite: 'RFC 6749 §1.4 (recorded)',
  judge: (v, { jwt, jwtOnly }: { jwt: boolean; jwtOnly: readonly string[] }) =>
    v.observe(
      jwt
        ? `the user's access token is a JWT: every variant exercised`
        : `the user's access token is opaque (not a JWT, RFC 6749 §1.4): not exercised: ${jwtOnly.join('; ')}`,
    ),
});
