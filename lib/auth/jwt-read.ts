// Reading a token the tenant issued as a JWT, without verifying it (jose's decoders).
import { decodeJwt, decodeProtectedHeader, type JWTPayload } from 'jose';

/**
 * Whether the suite can read a token as a JWT (a compact JWS with a JSON header and claims). An
 * access token may as well be opaque to the client (RFC 6749 §1.4): then only the variants that
 * need no decoding apply.
 */
export function isJwt(token: string): boolean {
  try {
    decodeProtectedHeader(token);
    decodeJwt(token);
    return true;
  } catch {
    return false;
  }
}

/** Claims readable from a JWT without verifying it (for messages, never for decisions). */
export function peekClaims(token: string): JWTPayload | null {
  try {
    return decodeJwt(token);
  } catch {
    return null;
  }
}
