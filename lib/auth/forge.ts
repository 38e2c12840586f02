// Tokens the tenant must refuse, built by the suite: signed with a key pair the suite
// generates (jose), carrying the real token's header and claims where that makes the case
// sharper (same kid, issuer, subject and scope, so only the property under test differs).
// jose is loaded by the first forged token: the management specs import this module, and
// Playwright's runner, which only lists them, spent about 0.15 s of CPU loading it.
import { createPrivateKey, type KeyObject } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { hasRunState, readRunState } from '../run-state.ts';
import { runKey } from './run-key.ts';
import { forged } from '../credential-origin.ts';

let keyPromise: Promise<KeyObject> | null = null;

/** The suite's own RS256 key, that no tenant registered: the run's (lib/auth/run-key.ts), else this process's. */
export function suiteKey(): Promise<KeyObject> {
  keyPromise ??= (hasRunState() ? Promise.resolve(readRunState().foreignKey) : runKey()).then((key) =>
    createPrivateKey({ key, format: 'jwk' }),
  );
  return keyPromise;
}

export interface ForgeOptions {
  /** Claims to override on top of the real token's claims. */
  claims?: JWTPayload;
}

/** A JWT with the real token's header and claims (plus overrides), signed by the suite's key. */
export async function forgeLike(realToken: string, opts: ForgeOptions = {}): Promise<string> {
  const { SignJWT, decodeJwt, decodeProtectedHeader } = await import('jose');
  const header = decodeProtectedHeader(realToken);
  const claims = { ...decodeJwt(realToken), ...opts.claims };
  // Signed by the suite's key alone: no secret, printed as sent in a reproduction.
  return forged(
    await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', typ: header.typ ?? 'JWT', ...(header.kid ? { kid: header.kid } : {}) })
      .sign(await suiteKey()),
  );
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

/**
 * The token with one character in the middle of its last segment changed, its length kept: a
 * JWT's signature no longer matches, an opaque value names nothing. (Not the last character: its
 * low bits may be base64url padding that decodes to the same bytes.)
 */
export function alterToken(token: string): string {
  const start = token.lastIndexOf('.') + 1;
  const at = start + Math.floor((token.length - start) / 2);
  const swapped = token[at] === 'A' ? 'B' : 'A';
  return `${token.slice(0, at)}${swapped}${token.slice(at + 1)}`;
}

/** The token without its last eight characters. */
export function truncateToken(token: string): string {
  return token.slice(0, Math.max(1, token.length - 8));
}

export const MALFORMED_TOKENS = {
  'not a JWT at all': forged('not-a-jwt'),
  'three segments of garbage': forged('abc.def.ghi'),
} as const;
