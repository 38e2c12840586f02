// The claims of an ID token (OIDC Core §2, §3.1.3.6, §3.2.2.10), built in one place (the
// idTokenClaims part) so that each can be got wrong alone by a variant: iss the issuer, aud
// the client, iat and exp, the nonce of the request, at_hash beside an access token.
import { createHash } from 'node:crypto';

export interface IdTokenInput {
  issuer: string;
  subject: string;
  clientId: string;
  nowS: number;
  lifetimeS: number;
  nonce?: string;
  /** The access token issued with it (at_hash, §3.2.2.9). */
  accessToken?: string;
  /** Standard claims the scope asks for (profile, email). */
  profile: Record<string, unknown>;
}

export type IdTokenClaimsBuilder = (input: IdTokenInput) => Record<string, unknown>;

export const idTokenClaims: IdTokenClaimsBuilder = (i) => ({
  ...i.profile,
  iss: i.issuer,
  sub: i.subject,
  aud: i.clientId,
  iat: i.nowS,
  exp: i.nowS + i.lifetimeS,
  ...(i.nonce !== undefined ? { nonce: i.nonce } : {}),
  ...(i.accessToken !== undefined ? { at_hash: atHash(i.accessToken) } : {}),
});

/** OIDC Core §3.2.2.9: left half of the SHA-256 of the access token (RS256), base64url. */
function atHash(accessToken: string): string {
  return createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url');
}
