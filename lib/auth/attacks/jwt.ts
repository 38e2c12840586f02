// The JWT attacks, made from a genuine credential of the carrier: each keeps the genuine token's
// claims (so only the property under attack differs) and changes how it is signed (RFC 8725 §2.1,
// §3.1, §3.10; RFC 7515 §4.1.2/§4.1.3/§4.1.5, §5.2). Made at run time with keys generated in memory,
// none a credential that works; those that carry no signature of the tenant's are registered as
// forged (lib/credential-origin.ts), a borrowed or kept genuine signature is the issued token's.
import { createHmac, createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { SignJWT, type JWK } from 'jose';
import { attackerKeys } from './attacker-keys.ts';
import { forged } from '../../credential-origin.ts';

/** What a JWT attack is made from, beside the genuine token. */
export interface JwtMaterial {
  /** The public key the genuine token verifies with, as the tenant publishes it (null: none found). */
  published: JWK | null;
  /** Another genuine token of the same signer (its signature is borrowed), or null. */
  other: string | null;
}

export interface JwtAttack {
  id: string;
  /** The clause the refusal is judged under. */
  clause: string;
  /** How it is made, for the report and the evidence. */
  what: string;
  /**
   * Where it is sent below IDM_DEPTH=deep (which sends every attack on every carrier): `core` on
   * every carrier, `wide` on the Management API's token only, `deep` nowhere; every class has a
   * `core` variant, so every class is judged on every carrier at every depth.
   */
  tier: Tier;
  /** The attack token, or why it cannot be made for this carrier (a string that starts with "not"). */
  make(genuine: string, m: JwtMaterial): Promise<string | NotMade>;
}

/** Why an attack could not be made from what the carrier offers. */
export interface NotMade {
  notMade: string;
}

export type Tier = 'core' | 'wide' | 'deep';

const UNSIGNED = 'auth.sec.jwt.unsigned';
const CONFUSION = 'auth.sec.jwt.alg-confusion';
const EMBEDDED = 'auth.sec.jwt.embedded-key';
const REMOTE = 'auth.sec.jwt.remote-key';
const SIGNATURE = 'auth.sec.jwt.signature';

type KeyForm = 'pem' | 'pem-no-newline' | 'jwk-json';
const KEY_FORMS: Record<KeyForm, string> = {
  pem: 'the public key as PEM',
  'pem-no-newline': 'the public key as PEM without its final newline',
  'jwk-json': 'the public key as its JWK JSON',
};

export const JWT_ATTACKS: readonly JwtAttack[] = [
  ...(
    [
      ['none', true, 'core'],
      ['none', false, 'wide'],
      ['None', true, 'wide'],
      ['NONE', true, 'core'],
      ['None', false, 'deep'],
      ['NONE', false, 'deep'],
    ] as const
  ).map(
    ([alg, dot, tier]): JwtAttack => ({
      id: `unsigned-${alg}${dot ? '' : '-no-dot'}`,
      clause: UNSIGNED,
      what: `unsigned: alg "${alg}", ${dot ? 'an empty signature after the last dot' : 'no trailing dot'}`,
      tier,
      make: async (genuine) => {
        const [header, payload] = parts(genuine);
        return forged(`${encode({ ...header, alg })}.${encode(payload)}${dot ? '.' : ''}`);
      },
    }),
  ),
  ...(
    [
      ['HS256', 'pem', 'core'],
      ['HS256', 'pem-no-newline', 'wide'],
      ['HS256', 'jwk-json', 'core'],
      ['HS384', 'pem', 'wide'],
      ['HS512', 'pem', 'deep'],
      ['HS384', 'jwk-json', 'deep'],
      ['HS512', 'jwk-json', 'deep'],
      ['HS384', 'pem-no-newline', 'deep'],
      ['HS512', 'pem-no-newline', 'deep'],
    ] as const
  ).map(
    ([alg, form, tier]): JwtAttack => ({
      id: `hmac-${alg.toLowerCase()}-${form}`,
      clause: CONFUSION,
      what: `${alg} keyed with ${KEY_FORMS[form]}`,
      tier,
      make: async (genuine, m) => {
        if (!m.published) return { notMade: 'not made: no published public key for this token was found' };
        const [header, payload] = parts(genuine);
        return forged(hmac({ ...header, alg }, payload, keyText(m.published, form)));
      },
    }),
  ),
  {
    id: 'embedded-jwk',
    tier: 'core',
    clause: EMBEDDED,
    what: "its own public key in the header (jwk), signed by the attacker's private key, the genuine kid kept",
    make: async (genuine) => {
      const k = await attackerKeys();
      const [header, payload] = parts(genuine);
      const { kid: _kid, use: _use, ...jwk } = k.jwk;
      return forged(await sign(payload, { ...header, alg: 'RS256', jwk }, k.privateKey));
    },
  },
  {
    id: 'jku',
    tier: 'core',
    clause: REMOTE,
    what: 'a jku header naming a key set outside the tenant, signed by a key the tenant never published',
    make: async (genuine) => {
      const k = await attackerKeys();
      const [header, payload] = parts(genuine);
      return forged(await sign(payload, { ...header, alg: 'RS256', kid: k.jwk.kid, jku: k.jku }, k.privateKey));
    },
  },
  {
    id: 'x5u',
    tier: 'wide',
    clause: REMOTE,
    what: 'an x5u header naming a certificate outside the tenant, signed by its key',
    make: async (genuine) => {
      const k = await attackerKeys();
      const [header, payload] = parts(genuine);
      const { kid: _kid, ...rest } = header;
      return forged(await sign(payload, { ...rest, alg: 'RS256', x5u: k.x5u }, k.privateKey));
    },
  },
  {
    id: 'signature-stripped',
    tier: 'core',
    clause: SIGNATURE,
    what: 'the signature stripped (the header and claims kept, the last segment empty)',
    make: async (genuine) => forged(`${genuine.slice(0, genuine.lastIndexOf('.'))}.`),
  },
  {
    id: 'signature-borrowed',
    tier: 'core',
    clause: SIGNATURE,
    what: "the signature of another genuine token over this token's header and claims",
    make: async (genuine, m) => {
      if (!m.other) return { notMade: 'not made: no second genuine token of the same signer' };
      return `${genuine.slice(0, genuine.lastIndexOf('.'))}${m.other.slice(m.other.lastIndexOf('.'))}`;
    },
  },
  {
    id: 'claims-tampered',
    tier: 'wide',
    clause: SIGNATURE,
    what: 'the claims changed (exp a day later, a jti of its own) under the genuine signature',
    make: async (genuine) => {
      const [header, payload, signature] = parts(genuine);
      const exp = typeof payload.exp === 'number' ? payload.exp + 86_400 : Math.floor(Date.now() / 1000) + 86_400;
      return `${encode(header)}.${encode({ ...payload, exp, jti: `tampered-${Date.now()}` })}.${signature}`;
    },
  },
];

/** The attacks a run sends on a carrier at its depth (the tiers above). */
export function jwtAttacksAt(depth: string, everyVariant: boolean): readonly JwtAttack[] {
  return JWT_ATTACKS.filter((a) => sentAt(a, depth, everyVariant));
}

/** Whether `a` is sent at `depth` on a carrier that gets every variant (the Management API's token) or not. */
export function sentAt(a: JwtAttack, depth: string, everyVariant: boolean): boolean {
  return depth === 'deep' || a.tier === 'core' || (a.tier === 'wide' && everyVariant);
}

/** The public key as a PEM text (SPKI), from a JWK. */
export function pemOf(jwk: JWK): string {
  return createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' })
    .export({ type: 'spki', format: 'pem' })
    .toString();
}

// Helpers

type Json = Record<string, unknown>;

function parts(token: string): [Json, Json, string] {
  const [h, p, s] = token.split('.');
  return [decode(h ?? ''), decode(p ?? ''), s ?? ''];
}

function decode(segment: string): Json {
  const v: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not a JSON object segment');
  return v as Json;
}

function encode(v: Json): string {
  return Buffer.from(JSON.stringify(v)).toString('base64url');
}

function keyText(jwk: JWK, form: KeyForm): string {
  if (form === 'jwk-json') return JSON.stringify(jwk);
  const pem = pemOf(jwk);
  return form === 'pem' ? pem : pem.replace(/\n$/, '');
}

function hmac(header: Json, payload: Json, secret: string): string {
  const input = `${encode(header)}.${encode(payload)}`;
  const alg = String(header.alg).replace('HS', 'sha');
  return `${input}.${createHmac(alg, secret).update(input).digest('base64url')}`;
}

function sign(payload: Json, header: Json, key: KeyObject): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ ...header, alg: 'RS256' }).sign(key);
}

/** The clauses the JWT attacks are judged under, one per class. */
export const JWT_CLAUSES: readonly string[] = [...new Set(JWT_ATTACKS.map((a) => a.clause))];
