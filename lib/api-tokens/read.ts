// An access token for the resource server's API, read as a relying API reads it (RFC 7515,
// RFC 7516, RFC 7519 §5.2): a compact JWE is decrypted with the key the run made, its plaintext a
// signed JWT; a compact JWS is decoded; anything else is opaque to the suite. Reading never throws:
// a token the suite cannot parse is said in `problem` and fails its row, never the run.
import { compactDecrypt, decodeJwt, decodeProtectedHeader, type CryptoKey, type JWTPayload } from 'jose';

export interface ReadToken {
  form: 'jws' | 'jwe' | 'opaque';
  /** The JWE's protected header, when the token was encrypted. */
  jwe?: Record<string, unknown>;
  /** The signed JWT (inside the JWE when nested): its header, its claims, and itself. */
  jws?: { header: Record<string, unknown>; claims: JWTPayload; compact: string };
  /** Why it could not be read in full. */
  problem?: string;
}

/** Five dot-separated parts: a compact JWE (RFC 7516 §7.1); three: a compact JWS (RFC 7515 §7.1). */
export async function readToken(token: string, decryptKey: CryptoKey | null): Promise<ReadToken> {
  const parts = token.split('.');
  if (parts.length === 5) {
    let jwe: Record<string, unknown>;
    try {
      jwe = decodeProtectedHeader(token) as Record<string, unknown>;
    } catch (e) {
      return { form: 'jwe', problem: `a five-part token whose header is not JSON: ${(e as Error).message}` };
    }
    if (!decryptKey) return { form: 'jwe', jwe, problem: 'encrypted, and the run holds no key for it' };
    try {
      const { plaintext } = await compactDecrypt(token, decryptKey);
      const inner = new TextDecoder().decode(plaintext);
      const signed = decodeJws(inner);
      return typeof signed === 'string'
        ? { form: 'jwe', jwe, problem: `its plaintext ${signed}` }
        : { form: 'jwe', jwe, jws: signed };
    } catch (e) {
      return { form: 'jwe', jwe, problem: `does not decrypt with the run's key (${(e as Error).message})` };
    }
  }
  const signed = decodeJws(token);
  return typeof signed === 'string' ? { form: 'opaque', problem: `the token ${signed}` } : { form: 'jws', jws: signed };
}

/** A compact JWS with JSON header and claims, or why it is not one. */
function decodeJws(compact: string): NonNullable<ReadToken['jws']> | string {
  if (compact.split('.').length !== 3) return 'is not a compact JWS (three parts)';
  try {
    return {
      header: decodeProtectedHeader(compact) as Record<string, unknown>,
      claims: decodeJwt(compact),
      compact,
    };
  } catch (e) {
    return `is not a JWT (${(e as Error).message})`;
  }
}

/** The lifetime a token states for itself (exp − iat, RFC 7519 §4.1.4, §4.1.6), or null. */
export function statedLifetime(t: ReadToken): number | null {
  const c = t.jws?.claims;
  return typeof c?.exp === 'number' && typeof c.iat === 'number' ? c.exp - c.iat : null;
}
