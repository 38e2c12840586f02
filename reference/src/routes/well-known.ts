// Discovery documents: the tenant's signing keys and its OpenID configuration (OpenID
// Connect Discovery 1.0 §3, RFC 8414, RFC 8705 §5); issuer and endpoints follow the public URL.
import type { TenantResponse } from '../types.ts';
import { json } from '../errors.ts';
import type { AppContext } from '../context.ts';
import { ASSERTION_ALGS } from '../auth/assertion.ts';
import { GRANT_TYPES } from './token.ts';

/** The token and the revocation endpoint authenticate a client the same ways (§5.2). */
const CLIENT_AUTH_METHODS = [
  'client_secret_post',
  'client_secret_basic',
  'private_key_jwt',
  'none',
  'tls_client_auth',
  'self_signed_tls_client_auth',
];

/** Every signing key of the tenant (RFC 7517 §5), each with its alg and kid; RS256 first. */
export async function jwks(ctx: AppContext): Promise<TenantResponse> {
  return json(200, { keys: await ctx.keys.publicJwks() });
}

export function openidConfiguration(ctx: AppContext): TenantResponse {
  const u = ctx.publicUrl;
  return json(200, {
    issuer: `${u}/`,
    authorization_endpoint: `${u}/authorize`,
    token_endpoint: `${u}/oauth/token`,
    userinfo_endpoint: `${u}/userinfo`,
    revocation_endpoint: `${u}/oauth/revoke`,
    end_session_endpoint: `${u}/v2/logout`,
    jwks_uri: `${u}/.well-known/jwks.json`,
    // The edge terminates mTLS for the same host, so the aliases are the endpoints themselves.
    mtls_endpoint_aliases: {
      token_endpoint: `${u}/oauth/token`,
      revocation_endpoint: `${u}/oauth/revoke`,
      userinfo_endpoint: `${u}/userinfo`,
    },
    grant_types_supported: [...GRANT_TYPES, 'implicit'],
    response_types_supported: ['code', 'token', 'id_token', 'id_token token'],
    response_modes_supported: ['query', 'fragment'],
    scopes_supported: ['openid', 'profile', 'email', 'offline_access'],
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'nonce', 'name', 'nickname', 'email', 'email_verified'],
    code_challenge_methods_supported: ['S256', 'plain'],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGS,
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    tls_client_certificate_bound_access_tokens: true,
    id_token_signing_alg_values_supported: ['RS256'],
    subject_types_supported: ['public'],
  });
}
