// PKCE (RFC 7636): the code_verifier sent to the token endpoint must match the
// code_challenge stored with the authorization code.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { PkceCheck } from '../types.ts';

/** RFC 7636 §4.1: 43..128 characters of [A-Z a-z 0-9 - . _ ~] (a S256 challenge has the same form). */
export const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

export const verifyPkce: PkceCheck = (stored, verifier) => {
  if (stored === undefined) {
    // OAuth 2.1 §4.1.3: a verifier for a code issued without a challenge is refused.
    return verifier === undefined
      ? { ok: true }
      : { ok: false, description: 'code_verifier sent but the authorization request had no code_challenge' };
  }
  if (verifier === undefined) return { ok: false, description: 'Missing required parameter: code_verifier' };
  if (!PKCE_VALUE.test(verifier))
    return { ok: false, description: 'code_verifier must be 43 to 128 unreserved characters' };
  const derived = stored.method === 'S256' ? createHash('sha256').update(verifier).digest('base64url') : verifier;
  const a = Buffer.from(derived);
  const b = Buffer.from(stored.challenge);
  return a.length === b.length && timingSafeEqual(a, b)
    ? { ok: true }
    : { ok: false, description: 'code_verifier does not match the code_challenge' };
};
