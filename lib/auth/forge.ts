// Tokens the tenant must refuse, built by the suite: signed with a key pair the suite
// generates (jose), carrying the real token's header and claims where that makes the case
// sharper (same kid, issuer, subject and scope, so only the property under test differs).
import { SignJWT, decodeJwt, decodeProtectedHeader, generateKeyPair, type JWTPayload } from 'jose';

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let keyPromise: Promise<PrivateKey> | null = null;

function suiteKey(): Promise<PrivateKey> {
  keyPromise ??= generateKeyPair('RS256', { extractable: false }).then((k) => k.privateKey);
  return keyPromise;
}

export interface ForgeOptions {
  /** Claims to override on top of the real token's claims. */
  claims?: JWTPayload;
}

/** A JWT with the real token's header and claims (plus overrides), signed by the suite's key. */
export async function forgeLike(realToken: string, opts: ForgeOptions = {}): Promise<string> {
  const header = decodeProtectedHeader(realToken);
  const claims = { ...decodeJwt(realToken), ...opts.claims };
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'RS256', typ: header.typ ?? 'JWT', ...(header.kid ? { kid: header.kid } : {}) })
    .sign(await suiteKey());
}

/** Same claims as the real token, but expired an hour ago. */
export function forgeExpired(realToken: string): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return forgeLike(realToken, { claims: { iat: now - 7200, nbf: now - 7200, exp: now - 3600 } });
}

/** Same claims as the real token, but for another audience. */
export function forgeWrongAudience(realToken: string, audience: string): Promise<string> {
  return forgeLike(realToken, { claims: { aud: audience } });
}

/** Claims readable from a JWT without verifying it (for messages, never for decisions). */
export function peekClaims(token: string): JWTPayload | null {
  try {
    return decodeJwt(token);
  } catch {
    return null;
  }
}

export const MALFORMED_TOKENS = {
  'not a JWT at all': 'not-a-jwt',
  'three segments of garbage': 'abc.def.ghi',
} as const;
