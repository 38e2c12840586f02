// Discovery documents: the tenant's signing keys and its OpenID configuration; issuer and
// endpoints follow the public URL.
import type { TenantResponse } from '../types.ts';
import { json } from '../errors.ts';
import type { AppContext } from '../context.ts';

export function jwks(ctx: AppContext): TenantResponse {
  return json(200, { keys: [ctx.signingKey.publicJwk] });
}

export function openidConfiguration(ctx: AppContext): TenantResponse {
  const publicUrl = ctx.publicUrl;
  return json(200, {
    issuer: `${publicUrl}/`,
    token_endpoint: `${publicUrl}/oauth/token`,
    jwks_uri: `${publicUrl}/.well-known/jwks.json`,
    grant_types_supported: ['client_credentials'],
    response_types_supported: ['token'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'],
    id_token_signing_alg_values_supported: ['RS256'],
    subject_types_supported: ['public'],
  });
}
