// What every route handler gets, and the step every route shares: the rate limit and its
// headers (§7.1 429, §8: every response carries X-RateLimit-Limit/Remaining/Reset).
import type {
  ClientConfig,
  ClientGrant,
  ExperimentProfile,
  LoginProfile,
  TenantParts,
  TenantResponse,
  UserRecord,
} from './types.ts';
import type { SigningKey } from './auth/access-token.ts';
import type { KeyRing } from './auth/signing-keys.ts';
import type { NonceStore } from './auth/dpop.ts';
import { RATE_LIMIT_MESSAGE, apiError } from './errors.ts';
import { rateLimitHeaders } from './ratelimit.ts';

export interface AppContext {
  parts: TenantParts;
  publicUrl: string;
  clients: ClientConfig[];
  users: UserRecord[];
  /** The management tokens' key (RS256), also the RS256 key of the ring. */
  signingKey: SigningKey;
  /** One key per asymmetric signing_alg a resource server may choose. */
  keys: KeyRing;
  /** Who may obtain tokens for which custom API (require_client_grant). */
  clientGrants: ClientGrant[];
  /** The custom-domain API key the mTLS edge sends: a forwarded certificate is trusted only with it. */
  edgeApiKey: string;
  /** RFC 9449 §8 nonces given, when `resourceTokenChoices.dpopNonce` demands them. */
  dpopNonces: NonceStore;
  /** Which login, consent and logout pages the tenant shows. */
  login: LoginProfile;
  /** TenantOptions.refreshRotation: a refresh answer carries a new refresh token, the used one dies. */
  refreshRotation: boolean;
  /** TenantOptions.experiments with its defaults: unique names, DELETE offered. */
  experiments: Required<ExperimentProfile>;
  /** TenantOptions.revocationAnnounced: the revocation endpoint's path and the metadata that lists it. */
  revocation: { path: string; announced: 'both' | 'rfc8414' };
}

/**
 * Takes one request from bucket `key`; when refused, also the ready 429: the
 * authentication API's error object for its keys (`oauth.token|…`, `auth.…|…`), the
 * management API's otherwise.
 */
export function rateLimit(
  ctx: AppContext,
  key: string,
): { headers: Record<string, string>; response?: TenantResponse } {
  const state = ctx.parts.rateLimiter.take(key, ctx.parts.now());
  const headers = rateLimitHeaders(state);
  if (state.allowed) return { headers };
  const retry = { ...headers, 'retry-after': String(state.retryAfter) };
  const response =
    key.startsWith('oauth.token|') || key.startsWith('auth.')
      ? ctx.parts.authError(429, 'too_many_requests', RATE_LIMIT_MESSAGE, retry)
      : apiError(429, 'too_many_requests', RATE_LIMIT_MESSAGE, retry);
  return { headers, response };
}

export function withHeaders(res: TenantResponse, headers: Record<string, string>): TenantResponse {
  return { ...res, headers: { ...res.headers, ...headers } };
}
