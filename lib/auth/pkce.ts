// PKCE (RFC 7636): a high-entropy code_verifier of unreserved characters (§4.1) and its S256
// code_challenge, BASE64URL(SHA256(ASCII(code_verifier))) (§4.2). Also the opaque `state`.
import { createHash, randomBytes } from 'node:crypto';

export interface PkcePair {
  verifier: string;
  challenge: string;
  method: 'S256';
}

export function pkcePair(): PkcePair {
  // 32 random octets → 43 base64url characters, the minimum length §4.1 allows.
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier), method: 'S256' };
}

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** An unguessable `state` (RFC 6749 §10.12), so an echoed one proves the round trip. */
export function newState(): string {
  return randomBytes(12).toString('base64url');
}

/**
 * An authorization code request with PKCE (RFC 6749 §4.1.1, RFC 7636 §4.3) for `clientId`: its
 * parameters, the fresh state they carry and the pair whose challenge they send.
 */
export function codeRequest(
  clientId: string,
  redirectUri: string,
  scope: string,
  extra: Record<string, string> = {},
): { params: Record<string, string>; state: string; pair: PkcePair } {
  const pair = pkcePair();
  const state = newState();
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope,
    state,
    ...extra,
    code_challenge: pair.challenge,
    code_challenge_method: pair.method,
  };
  return { params, state, pair };
}
