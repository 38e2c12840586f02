// The attack catalogue as data: every place a credential is presented (a carrier), and every
// attack sent on it, each row with the clause it is judged under, the standard that clause cites
// (from the clause catalogue, one place), how the attack is made and what the tenant must do.
// The specs send the rows of a carrier in the test that holds its genuine credential (the
// accepted twin); the report lists every row with the answer it got (reporters/attacks.ts).
import { clause } from '../../../contract/clauses.ts';
import { JWT_ATTACKS, sentAt } from './jwt.ts';

export type CarrierId =
  | 'management-token'
  | 'user-token'
  | 'client-assertion'
  | 'refresh-token'
  | 'authorization-code'
  | 'one-time-code';

export interface Carrier {
  id: CarrierId;
  name: string;
  /** Where and how it is presented. */
  presented: string;
  /** What the tenant must answer an attack with. */
  must: string;
  /** The test that sends its rows, for a reader of the table. */
  sentBy: string;
}

export const CARRIERS: Record<CarrierId, Carrier> = {
  'management-token': {
    id: 'management-token',
    name: 'Management API bearer token',
    presented: 'Authorization: Bearer on PATCH /api/v2/resource-servers/{id} (§5.1)',
    must: '401 (§7.1)',
    sentBy: 'specs/authorization/update.spec.ts, specs/authentication/attacks/management-token.spec.ts',
  },
  'user-token': {
    id: 'user-token',
    name: "User's access token",
    presented: 'Authorization: Bearer at user info (§5.2 "OAuth2 access token")',
    must: 'a 4xx with an error object (§5.2, §7.3)',
    sentBy: 'specs/authentication/methods/bearer.spec.ts, specs/authentication/attacks/user-token.spec.ts',
  },
  'client-assertion': {
    id: 'client-assertion',
    name: 'Client assertion',
    presented: 'client_assertion at the token endpoint (§5.2, RFC 7523 §3)',
    must: 'a 4xx with an error object and no token (§7.3, RFC 6749 §5.2)',
    sentBy: 'specs/authentication/methods/client-authentication.spec.ts',
  },
  'refresh-token': {
    id: 'refresh-token',
    name: 'Refresh token',
    presented: 'refresh_token at the token endpoint (RFC 6749 §6)',
    must: 'a 4xx with an error object and no token (RFC 6749 §5.2)',
    sentBy: 'specs/authentication/flows/revoke.spec.ts',
  },
  'authorization-code': {
    id: 'authorization-code',
    name: 'Authorization code',
    presented: 'code at the token endpoint (RFC 6749 §4.1.3)',
    must: 'a 4xx with an error object and no token (RFC 6749 §5.2)',
    sentBy: 'specs/authentication/security/code-binding.spec.ts, specs/authentication/flows/authorization-code.spec.ts',
  },
  'one-time-code': {
    id: 'one-time-code',
    name: 'Passwordless one-time code',
    presented: 'otp of the passwordless grant at the token endpoint (§4.3 passwordless)',
    must: 'invalid_grant and no token (RFC 6749 §5.2)',
    sentBy: 'specs/authentication/flows/passwordless.spec.ts',
  },
};

export interface AttackRow {
  /** `<carrier>/<attack>`: the key of its record in the report. */
  id: string;
  carrier: CarrierId;
  attack: string;
  clause: string;
  /** How it is made. */
  what: string;
  /** Sent at IDM_DEPTH=deep only. */
  deep?: true;
}

/** The carriers every JWT attack is sent on, where the credential is a JWT. */
const JWT_CARRIERS: readonly CarrierId[] = ['management-token', 'user-token', 'client-assertion'];

/** The client assertion's own faults (RFC 7523 §3), each what is wrong with it (lib/auth/methods/client-assertion.ts makes them). */
export const ASSERTION_FAULTS = {
  'wrong-aud': 'an audience other than the tenant',
  expired: 'expired ten minutes ago',
  'iss-not-sub': 'iss differs from sub',
  'no-sub': 'no sub claim',
  'foreign-key': 'signed by a key the tenant never registered',
  'alg-none': 'unsigned (alg: none)',
} as const;
export type AssertionFault = keyof typeof ASSERTION_FAULTS;

/** Attacks sent before this catalogue existed, now rows of it (their clauses unchanged): by carrier, each attack, its clause, how it is made. */
const EARLIER: Partial<Record<CarrierId, ReadonlyArray<readonly [attack: string, clause: string, what: string]>>> = {
  'management-token': [
    ['no-token', 'auth.mgmt.no-token', 'no Authorization header'],
    ['malformed', 'auth.mgmt.malformed-token', 'not a JWT, or three segments of garbage'],
    ['foreign-key', 'auth.mgmt.bad-signature', 'the genuine claims re-signed by a key the suite generated'],
    ['expired', 'auth.mgmt.expired-token', 'the genuine claims with exp an hour ago'],
    ['wrong-audience', 'auth.mgmt.wrong-audience', 'a token for another audience'],
  ],
  'user-token': [
    ['no-token', 'auth.method.bearer', 'no Authorization header'],
    ['malformed', 'auth.method.bearer', 'not a JWT, or three segments of garbage'],
    ['altered', 'auth.method.bearer', 'one character changed'],
    ['truncated', 'auth.method.bearer', 'cut short'],
    ['other-client', 'auth.method.bearer', "another client's valid token for another audience"],
    ['expired', 'auth.method.bearer', 'the genuine claims with exp an hour ago (a JWT only)'],
    ['foreign-key', 'auth.method.bearer', 'the genuine claims re-signed by a key the tenant never published'],
  ],
  'client-assertion': Object.entries(ASSERTION_FAULTS).map(
    ([a, what]) => [a, 'auth.method.client-assertion.refused', what] as const,
  ),
  'refresh-token': [['revoked', 'auth.flow.revoke.effective', 'revoked by the client (RFC 7009)']],
  'authorization-code': [
    ['reused', 'auth.flow.code.single-use', 'exchanged a second time'],
    ['other-redirect-uri', 'auth.sec.code.bound-redirect-uri', 'another redirect_uri than its request'],
    ['other-client', 'auth.sec.code.bound-client', 'exchanged by another client'],
    [
      'verifier-without-challenge',
      'auth.sec.pkce.no-downgrade',
      'a code_verifier for a code issued without code_challenge',
    ],
    ['wrong-verifier', 'auth.flow.code.pkce.wrong-verifier', 'a wrong code_verifier'],
    ['no-verifier', 'auth.flow.code.pkce.missing-verifier', 'no code_verifier for a code issued with a code_challenge'],
  ],
};

/** Attacks on the credentials that are not JWTs to the client (or need not be). */
export const GRANT_ATTACKS = {
  refreshNeverIssued: row(
    'refresh-token',
    'never-issued',
    'auth.sec.refresh.forged',
    'made up in the shape of the genuine one (same length and alphabet; a JWT: its claims, unsigned)',
  ),
  refreshAltered: row(
    'refresh-token',
    'altered',
    'auth.sec.refresh.forged',
    'the genuine one with one character changed',
  ),
  refreshExpired: row(
    'refresh-token',
    'expired',
    'auth.sec.refresh.forged',
    'a JWT refresh token with exp an hour ago, re-signed (opaque tokens: not made)',
  ),
  refreshOtherClient: row(
    'refresh-token',
    'other-client',
    'auth.sec.refresh.client-bound',
    'presented by another client with its own right credentials',
  ),
  codeWithoutRedirectUri: row(
    'authorization-code',
    'no-redirect-uri',
    'auth.sec.code.redirect-uri-required',
    'exchanged without the redirect_uri its request carried',
  ),
  otpMadeUp: row(
    'one-time-code',
    'made-up',
    'auth.sec.passwordless.otp-checked',
    'a one-time code the tenant never sent',
  ),
} as const;

/** Every row: the JWT attacks on each JWT carrier, the grant attacks, the earlier ones. */
export const ATTACK_ROWS: readonly AttackRow[] = [
  ...JWT_CARRIERS.flatMap((c) =>
    JWT_ATTACKS.map((a) => ({
      ...row(c, a.id, a.clause, a.what),
      ...(sentAt(a, 'default', c === 'management-token') ? {} : { deep: true as const }),
    })),
  ),
  ...Object.values(GRANT_ATTACKS),
  ...Object.entries(EARLIER).flatMap(([c, rows]) => rows.map(([a, cl, what]) => row(c as CarrierId, a, cl, what))),
];

/** The standard a row's clause cites, or the spec section. */
export function citationOf(r: AttackRow): string {
  const c = clause(r.clause);
  return c.source ?? `§${c.section}`;
}

/** The row of a carrier's attack (a suite bug when it is not in the table). */
export function attackRow(carrier: CarrierId, attack: string): AttackRow {
  const r = ATTACK_ROWS.find((x) => x.carrier === carrier && x.attack === attack);
  if (!r) throw new Error(`suite bug: no attack row ${carrier}/${attack}`);
  return r;
}

// Helpers

function row(carrier: CarrierId, attack: string, clauseId: string, what: string): AttackRow {
  return { id: `${carrier}/${attack}`, carrier, attack, clause: clauseId, what };
}
