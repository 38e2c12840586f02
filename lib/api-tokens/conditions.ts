// Named conditions on the tokens issued for the resource server's API after a setting was written
// (§1: its settings "cover signing, token lifetime, token dialect, token encryption, consent,
// proof-of-possession, subject-type authorization and scopes"): each judges one setting on one
// token answer. The refusals a setting calls for go through the twin gate (lib/twin-gate.ts).
import { createHash, X509Certificate } from 'node:crypto';
import type { JSONWebKeySet } from 'jose';
import { condition, perClause } from '../condition.ts';
import { describeAnswer } from '../answer-words.ts';
import { short } from '../values.ts';
import type { Exchange } from '../http.ts';
import { verifiesWith } from './keys.ts';
import { statedLifetime, type ReadToken } from './read.ts';
import type { ApiToken } from './requests.ts';

/** The OpenID scopes a token may carry whatever the API defines (OIDC Core §5.4, §11). */
const OPENID_SCOPES: readonly string[] = ['openid', 'profile', 'email', 'address', 'phone', 'offline_access'];

/** A token that was issued and can be read as a signed JWT; else why not, for the row's message. */
function readable(t: ApiToken): string | null {
  if (!t.access) return `no access token: ${describeAnswer(t.ex)}`;
  if (!t.read?.jws) return `the access token cannot be read: ${t.read?.problem ?? 'unreadable'}`;
  return null;
}

/** A token as a lifetime row sees it: from a token answer, or from the implicit flow's fragment (no exchange). */
export interface Lifetime {
  what: string;
  read: ReadToken | null;
  expiresIn: unknown;
  seconds: number;
  ex?: Exchange;
}

/**
 * §2.1: token_lifetime (from the token endpoint) or token_lifetime_for_web (the implicit flow) is
 * the token's lifetime: its own exp − iat where the suite can read it, else the answer's
 * expires_in. That expires_in agrees with exp − iat is auth.token.expires-in's rule, judged on
 * every token answer (lib/answer-rules.ts): one cause, one failure.
 */
function lifetimeIs(clause: 'rs.settings.token_lifetime' | 'rs.settings.token_lifetime_for_web') {
  return condition<Lifetime>({
    clauses: [clause],
    cite: '§2.1',
    judge: (v, { what, read, expiresIn, seconds, ex }) => {
      const stated = read?.jws ? statedLifetime(read) : null;
      const ok = read?.jws ? stated === seconds : Number(expiresIn) === seconds;
      return v.that(
        ok,
        `${what}: ${read?.jws ? `exp − iat ${stated}` : `expires_in ${short(expiresIn)} (the token cannot be read: ${read?.problem ?? 'none'})`}, the setting ${seconds} s`,
        ex,
      );
    },
  });
}

/** The lifetime row's view of a token answer. */
export function lifetimeOf(t: ApiToken, seconds: number): Lifetime {
  return {
    what: t.what,
    read: t.read,
    expiresIn: (t.ex.body as { expires_in?: unknown } | undefined)?.expires_in,
    seconds,
    ex: t.ex,
  };
}

export const tokenLifetime = lifetimeIs('rs.settings.token_lifetime');
export const webLifetime = lifetimeIs('rs.settings.token_lifetime_for_web');

/** RFC 7515 §4.1.1, §2.1: the JWS alg is signing_alg; RS256/RS512/PS256 verify with the published key of that alg. */
export const signedWithAlg = condition<{ t: ApiToken; alg: string; keys: JSONWebKeySet | string }>({
  clauses: ['rs.settings.signing_alg'],
  cite: '§2.1; RFC 7515 §4.1.1',
  judge: async (v, { t, alg, keys }) => {
    const why = readable(t);
    const seen = t.read?.jws?.header.alg;
    let problem = why ?? (seen === alg ? null : `signed ${short(seen)}`);
    if (problem === null && alg !== 'HS256')
      problem =
        typeof keys === 'string'
          ? `the tenant's keys cannot be read: ${keys}`
          : await verifiesWith(t.read!.jws!.compact, alg, { set: keys });
    return v.that(
      problem === null,
      `${t.what}, signing_alg ${alg}: ${problem ?? `a JWS of alg ${alg}${alg === 'HS256' ? '' : ' that verifies with the published key'}`}`,
      t.ex,
    );
  },
});

/** §2.1: an HS256 token verifies with the API's signing_secret (taken as its UTF-8 bytes). */
export const signedWithSecret = condition<{ t: ApiToken; secret: string }>({
  clauses: ['rs.settings.signing_secret'],
  cite: '§2.1; RFC 7518 §3.2',
  judge: async (v, { t, secret }) => {
    const problem = readable(t) ?? (await verifiesWith(t.read!.jws!.compact, 'HS256', { secret }));
    return v.that(
      problem === null,
      `${t.what}: ${problem === null ? 'verifies with the signing_secret written' : `does not verify with the signing_secret written (${problem})`}`,
      t.ex,
    );
  },
});

/** RFC 7519 §4.1, §5.1 (§2.3 "JWT with standard claims"): typed JWT (or untyped), iss, sub, aud, exp, iat. */
export const plainDialect = condition<ApiToken>({
  clauses: ['rs.settings.token_dialect.access_token'],
  cite: '§2.3; RFC 7519 §4.1',
  judge: (v, t) => {
    const problems = readable(t)
      ? [readable(t)!]
      : dialectProblems(t.read!, ['iss', 'sub', 'aud', 'exp', 'iat'], 'JWT');
    return v.that(
      problems.length === 0,
      `${t.what}, dialect access_token: ${problems.join('; ') || 'typed JWT with iss, sub, aud, exp, iat'}`,
      t.ex,
    );
  },
});

/** RFC 9068 §2.1, §2.2: typ at+jwt, and iss, exp, aud, sub, client_id, iat, jti. */
export const rfc9068Dialect = condition<ApiToken>({
  clauses: ['rs.settings.token_dialect.rfc9068'],
  cite: '§2.3; RFC 9068 §2.1, §2.2',
  judge: (v, t) => {
    const problems = readable(t)
      ? [readable(t)!]
      : dialectProblems(t.read!, ['iss', 'exp', 'aud', 'sub', 'client_id', 'iat', 'jti'], 'at+jwt');
    return v.that(
      problems.length === 0,
      `${t.what}, dialect rfc9068_profile: ${problems.join('; ') || 'typed at+jwt with every claim of RFC 9068 §2.2'}`,
      t.ex,
    );
  },
});

/**
 * §2.3: an _authz dialect "adds RBAC permission claims": with enforce_policies true its token
 * carries a claim the plain dialect's token of the same API does not; which one is recorded.
 */
export const permissionsAdded = condition<{ authz: ApiToken; plain: ReadToken }>({
  clauses: ['rs.settings.token_dialect.authz', 'rs.settings.permissions.claim'],
  cite: '§2.3',
  judge: (v, { authz, plain }) => {
    const why = readable(authz);
    const base = new Set(Object.keys(plain.jws?.claims ?? {}));
    const claims = authz.read?.jws?.claims ?? {};
    const added = Object.keys(claims).filter((k) => !base.has(k) && !VARYING.has(k));
    if (added.length > 0)
      v.on('rs.settings.permissions.claim').observe(
        `the _authz token adds ${added.map((k) => `${k} ${short(claims[k])}`).join(', ')}`,
      );
    return v.that(
      why === null && added.length > 0,
      `${authz.what}: ${why ?? (added.length > 0 ? `adds ${added.join(', ')} to the plain dialect's claims` : "carries no claim the plain dialect's token lacks")}`,
      authz.ex,
    );
  },
});

/**
 * RFC 7516 §7.1, RFC 7519 §5.2 (§2.3 compact-nested-jwe): five parts, header alg and kid as
 * configured, cty JWT, decrypting with the run's key to a signed JWT. With `off`, the token after
 * `token_encryption: null` is a JWS again.
 */
export const encryptedAsConfigured = condition<{ t: ApiToken; alg: string; kid: string } | { t: ApiToken; off: true }>({
  clauses: ['rs.settings.token_encryption'],
  cite: '§2.3; RFC 7516 §7.1; RFC 7519 §5.2',
  judge: (v, input) => {
    const { t } = input;
    const problems: string[] = [];
    if (!t.access) problems.push(`no access token: ${describeAnswer(t.ex)}`);
    else if ('off' in input) {
      if (t.read?.form !== 'jws') problems.push(`still ${t.read?.form === 'jwe' ? 'encrypted' : 'not a JWS'}`);
    } else {
      const h = t.read?.jwe;
      if (t.read?.form !== 'jwe' || !h) problems.push(`not a compact JWE (${t.read?.form ?? 'unread'})`);
      else {
        if (h.alg !== input.alg) problems.push(`header alg ${short(h.alg)}, configured ${input.alg}`);
        if (h.kid !== input.kid) problems.push(`header kid ${short(h.kid)}, configured ${input.kid}`);
        if (String(h.cty).toUpperCase() !== 'JWT') problems.push(`cty ${short(h.cty)}, not JWT (nested)`);
        if (!t.read.jws) problems.push(t.read.problem ?? 'no signed JWT inside');
      }
    }
    const what =
      'off' in input ? 'after token_encryption null' : `encrypted to the pem written (${input.alg}, kid ${input.kid})`;
    return v.that(
      problems.length === 0,
      `${t.what}, ${what}: ${problems.join('; ') || ('off' in input ? 'a JWS again' : 'a compact nested JWE that decrypts with the run’s key')}`,
      t.ex,
    );
  },
});

/** RFC 9449 §5, §6.1: with a proof, token_type DPoP and cnf.jkt the proof key's thumbprint (where the token is a JWT). */
export const dpopBound = condition<{ t: ApiToken; thumbprint: string }>({
  clauses: ['rs.settings.pop.dpop.bound', 'rs.settings.dpop.nonce'],
  cite: '§2.3; RFC 9449 §5, §6.1',
  judge: (v, { t, thumbprint }) => {
    v.on('rs.settings.dpop.nonce').observe(
      `${t.what}: ${t.nonceAsked ? 'the tenant asked for a nonce first (use_dpop_nonce)' : 'no nonce asked'}`,
    );
    const problems: string[] = [];
    if (!t.access) problems.push(`no access token: ${describeAnswer(t.ex)}`);
    else {
      if (t.tokenType?.toLowerCase() !== 'dpop') problems.push(`token_type ${short(t.tokenType)}`);
      const cnf = t.read?.jws?.claims.cnf as { jkt?: unknown } | undefined;
      if (t.read?.jws && cnf?.jkt !== thumbprint)
        problems.push(`cnf.jkt ${short(cnf?.jkt)}, not the proof key's thumbprint`);
    }
    return v.that(
      problems.length === 0,
      `${t.what}: ${problems.join('; ') || `token_type DPoP${t.read?.jws ? ', cnf.jkt the proof key' : ''}`}`,
      t.ex,
    );
  },
});

/**
 * RFC 8705 §3.1: a token obtained through the edge with a certificate carries cnf.x5t#S256 of it,
 * where the client can read it; an opaque token (RFC 6749 §1.4) keeps its binding where the
 * resource server looks it up, so only that it was issued is judged here.
 */
export const certificateBound = condition<{ t: ApiToken; certPem: string }>({
  clauses: ['rs.settings.pop.mtls'],
  cite: '§2.3; RFC 8705 §3.1',
  judge: (v, { t, certPem }) => {
    if (t.access && t.read?.form === 'opaque') return null;
    const expected = createHash('sha256').update(new X509Certificate(certPem).raw).digest('base64url');
    const cnf = t.read?.jws?.claims.cnf as Record<string, unknown> | undefined;
    const why = readable(t);
    const ok = why === null && cnf?.['x5t#S256'] === expected;
    return v.that(
      ok,
      `${t.what}: ${why ?? (ok ? 'bound to the certificate (cnf.x5t#S256)' : `cnf ${short(cnf)}, not the certificate's thumbprint`)}`,
      t.ex,
    );
  },
});

/** §2.1: with allow_offline_access false no refresh token for the API is issued; with true one is. */
export const offlineAccessAs = condition<{ t: ApiToken; allowed: boolean }>({
  clauses: ['rs.settings.allow_offline_access'],
  cite: '§2.1',
  judge: (v, { t, allowed }) =>
    v.that(
      allowed ? t.refresh !== null : t.refresh === null,
      `${t.what} with allow_offline_access ${allowed}: ${t.refresh ? 'a refresh token was issued' : `no refresh token (${describeAnswer(t.ex)})`}`,
      t.ex,
    ),
});

/**
 * §2.1, RFC 6749 §3.3: the token carries no scope value the API does not define (OpenID scopes
 * aside); the undefined value asked for was dropped or refused with invalid_scope (recorded which).
 */
export const onlyDefinedScopes = condition<{ t: ApiToken; defined: readonly string[]; undefinedAsked: string }>({
  clauses: ['rs.settings.scopes', 'rs.settings.scopes.undefined'],
  cite: '§2.1; RFC 6749 §3.3',
  judge: (v, { t, defined, undefinedAsked }) => {
    const error = (t.ex.body as { error?: unknown } | undefined)?.error;
    if (!t.access && error === 'invalid_scope') {
      v.on('rs.settings.scopes.undefined').observe(`${t.what}: refused with invalid_scope`);
      return v.that(true, `${t.what}: refused with invalid_scope`, t.ex);
    }
    const granted = scopesOf(t);
    const foreign = granted.filter((s) => !defined.includes(s) && !OPENID_SCOPES.includes(s));
    if (t.access)
      v.on('rs.settings.scopes.undefined').observe(
        `${t.what}: ${granted.includes(undefinedAsked) ? 'carried' : 'dropped'} (token scope ${short(granted.join(' '))})`,
      );
    return v.that(
      t.access !== null && foreign.length === 0,
      `${t.what}: ${t.access ? `scope ${short(granted.join(' '))}${foreign.length > 0 ? `, ${foreign.join(', ')} not defined by the API` : ', every value defined'}` : `no token and no invalid_scope: ${describeAnswer(t.ex)}`}`,
      t.ex,
    );
  },
});

/** The API's token before any write, in a few words: what rs.settings.defaults records. */
export function defaultsOf(t: ApiToken): { what: string; ex: Exchange; extra: string } {
  const h = t.read?.jws?.header ?? t.read?.jwe ?? {};
  const life = t.read ? statedLifetime(t.read) : null;
  const shape = `${t.read?.form ?? 'none'}, alg ${String(h.alg)}, typ ${String(h.typ)}, lifetime ${life === null ? 'unread' : `${life} s`}, token_type ${t.tokenType}`;
  return { what: 'the API’s token before any write', ex: t.ex, extra: `: ${shape}` };
}

// Helpers

/** Claims that differ between any two tokens, whatever the dialect. */
const VARYING = new Set(['jti', 'iat', 'exp', 'nbf', 'auth_time']);

/** RFC 9068 §2.1 allows "at+jwt" or "application/at+jwt"; RFC 7519 §5.1 "JWT", or no typ at all. */
function dialectProblems(t: ReadToken, claims: readonly string[], typ: 'JWT' | 'at+jwt'): string[] {
  const got = t.jws!.header.typ;
  const seen = typeof got === 'string' ? got.toLowerCase().replace(/^application\//, '') : undefined;
  const problems: string[] = [];
  if (typ === 'at+jwt' ? seen !== 'at+jwt' : seen !== undefined && seen !== 'jwt') problems.push(`typ ${short(got)}`);
  const missing = claims.filter((c) => !(c in t.jws!.claims));
  if (missing.length > 0) problems.push(`without ${missing.join(', ')}`);
  return problems;
}

/** The scope the token was granted: its `scope` claim where readable, else the answer's scope member. */
function scopesOf(t: ApiToken): string[] {
  const claim = t.read?.jws?.claims.scope;
  const member = (t.ex.body as { scope?: unknown } | undefined)?.scope;
  const value = typeof claim === 'string' ? claim : typeof member === 'string' ? member : '';
  return value.split(' ').filter((s) => s !== '');
}

/**
 * §2.1 ("used as the audience parameter on authorization calls"), RFC 6749 §5.1: a client holding
 * a grant for the API obtains a token for it — before any setting is written (the twin of every
 * refusal a setting calls for) and under each setting that calls for none.
 */
export const apiTokenIssued = condition<ApiToken>({
  clauses: ['rs.settings.token.issued'],
  cite: '§2.1; RFC 6749 §5.1; RFC 7519 §4.1.3',
  judge: (v, t) => {
    // A token the suite can read names its audience (RFC 7519 §4.1.3): one for another API is none for this one.
    const aud = t.read?.jws?.claims.aud;
    const forIt = aud === undefined || (Array.isArray(aud) ? aud.includes(t.audience) : aud === t.audience);
    return v.that(
      t.access !== null && forIt,
      `${t.what}: ${t.access ? `answered ${t.ex.status} with an access token (${t.read?.form ?? 'unread'})${forIt ? '' : ` for the audience ${short(aud)}, not the API`}` : describeAnswer(t.ex)}`,
      t.ex,
    );
  },
});

/**
 * §2.3: a setting that calls for no refusal of this client issues its token for the API —
 * required_for public_clients to a confidential client without a proof ("which client types require
 * it"), require_client_grant to a client holding a grant.
 */
export const issuedUnder = perClause((clause) =>
  condition<ApiToken>({
    clauses: [clause],
    cite: '§2.3',
    judge: (v, t) =>
      v.that(t.access !== null, `${t.what} under ${clause}: ${t.access ? 'issued' : describeAnswer(t.ex)}`, t.ex),
  }),
);
