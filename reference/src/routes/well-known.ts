// Discovery documents: the tenant's signing keys, its OpenID configuration (OpenID Connect
// Discovery 1.0 §3, RFC 8705 §5) and its OAuth 2.0 authorization server metadata (RFC 8414 §2,
// at /.well-known/oauth-authorization-server: the issuer's path is "/", RFC 8414 §3.1); issuer and
// endpoints follow the public URL. The revocation endpoint is in both, or in RFC 8414's only.
import type { TenantResponse } from '../types.ts';
import { json } from '../errors.ts';
import type { AppContext } from '../context.ts';
import { ASSERTION_ALGS } from '../auth/assertion.ts';
import { CLIENT_AUTH_METHODS } from '../auth/client-auth.ts';
import { GRANT_TYPES } from './token.ts';

/** Every signing key of the tenant (RFC 7517 §5), each with its alg and kid; RS256 first. */
export async function jwks(ctx: AppContext): Promise<TenantResponse> {
  return json(200, { keys: await ctx.keys.publicJwks() });
}

/** OIDC Core §5.4's scopes the remembered-consent profile asks for too, though it issues no claim of theirs. */
const CONSENT_ONLY_SCOPES = ['address', 'phone'];

/** The scopes the tenant lists: with remembered consents, those its consent page asks for and remembers. */
export function scopesSupported(ctx: AppContext): string[] {
  const scopes = ['openid', 'profile', 'email', 'offline_access'];
  return ctx.login.consent === 'remembered' ? [...scopes, ...CONSENT_ONLY_SCOPES] : scopes;
}

/** OpenID Connect Discovery 1.0 §3: the revocation endpoint only where it is announced there too. */
export function openidConfiguration(ctx: AppContext): TenantResponse {
  const u = ctx.publicUrl;
  const everywhere = ctx.revocation.announced === 'both';
  return json(200, {
    ...serverMetadata(ctx, everywhere),
    userinfo_endpoint: `${u}/userinfo`,
    end_session_endpoint: `${u}/v2/logout`,
    // The edge terminates mTLS for the same host, so the aliases are the endpoints themselves.
    mtls_endpoint_aliases: {
      token_endpoint: `${u}/oauth/token`,
      ...(everywhere ? { revocation_endpoint: `${u}${ctx.revocation.path}` } : {}),
      userinfo_endpoint: `${u}/userinfo`,
    },
    claims_supported: ['sub', 'iss', 'aud', 'exp', 'iat', 'nonce', 'name', 'nickname', 'email', 'email_verified'],
    tls_client_certificate_bound_access_tokens: true,
    id_token_signing_alg_values_supported: ['RS256'],
    subject_types_supported: ['public'],
  });
}

/** RFC 8414 §2: the OAuth 2.0 authorization server metadata, the revocation endpoint always listed (RFC 7009). */
export function authorizationServerMetadata(ctx: AppContext): TenantResponse {
  return json(200, serverMetadata(ctx, true));
}

// Helpers

/** The members both documents carry (RFC 8414 §2 names them, OpenID Connect Discovery 1.0 §3 too). */
function serverMetadata(ctx: AppContext, revocation: boolean): Record<string, unknown> {
  const u = ctx.publicUrl;
  return {
    issuer: `${u}/`,
    authorization_endpoint: `${u}/authorize`,
    token_endpoint: `${u}/oauth/token`,
    ...(revocation ? { revocation_endpoint: `${u}${ctx.revocation.path}` } : {}),
    jwks_uri: `${u}/.well-known/jwks.json`,
    grant_types_supported: [...GRANT_TYPES, 'implicit'],
    response_types_supported: ['code', 'token', 'id_token', 'id_token token'],
    response_modes_supported: ['query', 'fragment'],
    scopes_supported: scopesSupported(ctx),
    code_challenge_methods_supported: ['S256', 'plain'],
    // The token and the revocation endpoint authenticate a client the same ways (§5.2).
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    token_endpoint_auth_signing_alg_values_supported: ASSERTION_ALGS,
    ...(revocation ? { revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS } : {}),
  };
}
