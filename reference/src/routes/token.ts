// Authentication API token endpoint (§4.3, §5.1, §5.2, §7.3): grants client_credentials,
// authorization_code (with or without PKCE), password, refresh_token and the passwordless
// one-time code; client authentication through the `authenticateClient` part; errors
// {error, error_description}.
import type { ClientConfig, TenantRequest, TenantResponse, UserRecord } from '../types.ts';
import type { AppContext } from '../context.ts';
import { issueAccessToken } from '../auth/access-token.ts';
import { begin, callerOf, readBody, type Params, type Reply } from '../auth/request.ts';
import { admitUser, issueUserTokens, newRefreshToken, type UserAdmission } from '../auth/user-tokens.ts';
import { admitResourceToken, mintResourceToken } from '../auth/resource-tokens.ts';
import { loginKey } from '../auth/login-limit.ts';
import { rateLimitHeaders } from '../ratelimit.ts';
import { DATABASE_CONNECTION } from '../config.ts';
import { PASSWORDLESS_OTP_GRANT } from '../auth/one-time-code.ts';

export const GRANT_TYPES = [
  'client_credentials',
  'authorization_code',
  'password',
  'refresh_token',
  PASSWORDLESS_OTP_GRANT,
];

/** Login-limit answer (§8): 429 with the pair's own X-RateLimit-* state. */
export const LOGIN_BLOCKED =
  'Too many failed login attempts for this user from this IP address. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.';

/** The authenticated client, and the request a DPoP proof or the edge's certificate is read from. */
type Authenticated = {
  client: ClientConfig;
  x5tS256?: string;
  http: { method: string; uri: string; headers: Record<string, string> };
};

export async function tokenEndpoint(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const read = readBody(req, ctx.parts.limits);
  const started = begin(ctx, 'oauth.token', callerOf(read.ok ? read.params : undefined, req));
  if ('limited' in started) return started.limited;
  const reply = started.reply;
  if (!read.ok) return reply.error(read.status, 'invalid_request', read.description);
  const params = read.params;

  const grantType = params.grant_type;
  if (grantType === undefined) return reply.error(400, 'invalid_request', 'Missing required parameter: grant_type');
  if (!GRANT_TYPES.includes(grantType))
    return reply.error(400, 'unsupported_grant_type', `Unsupported grant type: ${grantType}`);

  const auth = await ctx.parts.authenticateClient({ params, headers: req.headers });
  if (!auth.ok) {
    const basic = auth.status === 401 && /^Basic/i.test(req.headers.authorization ?? '');
    return reply.error(
      auth.status,
      auth.error,
      auth.description,
      basic ? { 'www-authenticate': 'Basic realm="token"' } : {},
    );
  }
  if (!(auth.client.grantTypes ?? ['client_credentials']).includes(grantType)) {
    return reply.error(403, 'unauthorized_client', `Client ${auth.client.clientId} may not use the ${grantType} grant`);
  }
  // RFC 9449 §4.3 check 9: a proof names the request URI without query and fragment.
  const path = (req.url.split('?')[0] ?? '').replace(/^https?:\/\/[^/]+/i, '');
  const who: Authenticated = {
    client: auth.client,
    ...(auth.x5tS256 ? { x5tS256: auth.x5tS256 } : {}),
    http: { method: req.method.toUpperCase(), uri: `${ctx.publicUrl}${path}`, headers: req.headers },
  };
  switch (grantType) {
    case 'client_credentials':
      return clientCredentials(params, who, ctx, reply);
    case 'password':
      return password(params, who, ctx, reply, req.remoteAddress);
    case 'authorization_code':
      return authorizationCode(params, who, ctx, reply);
    case PASSWORDLESS_OTP_GRANT:
      return passwordlessOtp(params, who, ctx, reply);
    default:
      return refreshToken(params, who, ctx, reply);
  }
}

const tokenAnswer = (reply: Reply, body: object) => reply.json(200, body);

async function clientCredentials(
  params: Params,
  who: Authenticated,
  ctx: AppContext,
  reply: Reply,
): Promise<TenantResponse> {
  const limits = ctx.parts.limits;
  const audience = params.audience;
  if (audience === undefined || audience === '') {
    return reply.error(400, 'invalid_request', 'Missing required parameter: audience');
  }
  const requested = params.scope?.split(' ').filter((s) => s !== '');
  const management = `${ctx.publicUrl}/api/v2/`;
  if (audience !== management && audience !== '/api/v2/') return customApiToken(audience, requested, who, ctx, reply);
  // The management API (§5.1): the client's own scopes, the tenant's RS256 key, a fixed lifetime.
  const scope = (requested ? who.client.scopes.filter((s) => requested.includes(s)) : who.client.scopes).join(' ');
  const accessToken = await issueAccessToken(ctx.signingKey, {
    issuer: `${ctx.publicUrl}/`,
    audience: management,
    clientId: who.client.clientId,
    scope,
    lifetimeSeconds: limits.accessTokenLifetimeSeconds,
    nowMs: ctx.parts.now(),
    ...(who.x5tS256 ? { x5tS256: who.x5tS256 } : {}),
  });
  return tokenAnswer(reply, {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: limits.accessTokenLifetimeSeconds,
    scope,
  });
}

/** Client credentials for a custom API: what its settings admit, as they stand now (resource-tokens.ts). */
async function customApiToken(
  audience: string,
  requested: string[] | undefined,
  who: Authenticated,
  ctx: AppContext,
  reply: Reply,
): Promise<TenantResponse> {
  const rs = ctx.parts.store.getResourceServerByIdentifier(audience);
  if (rs === undefined || rs.is_system) return reply.error(403, 'access_denied', `Service not found: ${audience}`);
  const admitted = await admitResourceToken(ctx, {
    rs,
    subject: 'client',
    client: who.client,
    asked: requested,
    asking: true,
    at: 'token',
    http: who.http,
    ...(who.x5tS256 ? { x5tS256: who.x5tS256 } : {}),
  });
  if (!admitted.ok) return refused(reply, admitted);
  const { issue } = admitted;
  const accessToken = await mintResourceToken(ctx, issue, {
    subject: `${who.client.clientId}@clients`,
    clientId: who.client.clientId,
    gty: 'client-credentials',
    audience: rs.identifier,
    nowS: Math.floor(ctx.parts.now() / 1000),
  });
  return tokenAnswer(reply, {
    access_token: accessToken,
    token_type: issue.tokenType,
    expires_in: issue.lifetimeSeconds,
    scope: issue.scope.join(' '),
  });
}

/** A refusal of the admission (or of the user flow's admission) as the error answer. */
function refused(reply: Reply, r: Exclude<UserAdmission, { ok: true }>): TenantResponse {
  return reply.error(r.status, r.error, r.description, r.headers);
}

/** The admission of a user flow at the token endpoint: the request's proof and certificate, the settings now. */
function admitAtToken(
  ctx: AppContext,
  who: Authenticated,
  a: { audience: string | undefined; requested: string | undefined; asking: boolean; refresh?: { jkt?: string } },
): Promise<UserAdmission> {
  return admitUser(ctx, {
    client: who.client,
    ...a,
    at: 'token',
    http: who.http,
    ...(who.x5tS256 ? { x5tS256: who.x5tS256 } : {}),
  });
}

/** Resource owner password (RFC 6749 §4.3), `realm` naming the database connection. */
async function password(
  params: Params,
  who: Authenticated,
  ctx: AppContext,
  reply: Reply,
  ip: string | undefined,
): Promise<TenantResponse> {
  const { username, password: pw } = params;
  if (username === undefined || username === '')
    return reply.error(400, 'invalid_request', 'Missing required parameter: username');
  if (pw === undefined || pw === '') return reply.error(400, 'invalid_request', 'Missing required parameter: password');
  const connection = params.realm ?? DATABASE_CONNECTION;
  if (connection !== DATABASE_CONNECTION)
    return reply.error(400, 'invalid_request', `Unknown realm (database connection): ${connection}`);
  const admitted = await admitAtToken(ctx, who, { audience: params.audience, requested: params.scope, asking: true });
  if (!admitted.ok) return refused(reply, admitted);

  const login = checkLogin(ctx, connection, username, pw, ip);
  if (!login.ok)
    return login.blocked
      ? reply.error(429, 'too_many_attempts', LOGIN_BLOCKED, login.headers)
      : reply.error(400, 'invalid_grant', 'Wrong email or password.');
  const tokens = await issueUserTokens(ctx, { client: who.client, user: login.user }, admitted, {
    audience: params.audience,
    refreshable: true,
    gty: 'password',
  });
  return tokenAnswer(reply, tokens);
}

/** §8 repeat-login limit around one password check (also used by the login page). */
export function checkLogin(
  ctx: AppContext,
  connection: string,
  username: string,
  pw: string,
  ip: string | undefined,
):
  | { ok: true; user: NonNullable<ReturnType<AppContext['parts']['checkPassword']>> }
  | { ok: false; blocked: boolean; headers: Record<string, string> } {
  const key = loginKey(connection, username, ip);
  const nowMs = ctx.parts.now();
  const state = ctx.parts.loginLimiter.check(key, nowMs);
  if (!state.allowed)
    return {
      ok: false,
      blocked: true,
      headers: { ...rateLimitHeaders(state), 'retry-after': String(state.retryAfter) },
    };
  const user = ctx.parts.checkPassword(connection, username, pw);
  if (user === undefined) {
    ctx.parts.loginLimiter.failed(key, nowMs);
    return { ok: false, blocked: false, headers: {} };
  }
  ctx.parts.loginLimiter.succeeded(key);
  return { ok: true, user };
}

/** RFC 6749 §4.1.3, RFC 7636 §4.5: the code is single use and bound to client and redirect URI. */
async function authorizationCode(
  params: Params,
  who: Authenticated,
  ctx: AppContext,
  reply: Reply,
): Promise<TenantResponse> {
  const code = params.code;
  if (code === undefined || code === '') return reply.error(400, 'invalid_request', 'Missing required parameter: code');
  const grant = ctx.parts.authStore.getCode(code);
  if (grant === undefined) return reply.error(400, 'invalid_grant', 'Invalid or expired authorization code');
  const unbound = ctx.parts.securityRules.codeBindingFault(grant, who.client.clientId, params.redirect_uri);
  if (unbound !== null) return reply.error(400, 'invalid_grant', unbound);
  // A failed verifier leaves the code usable (it cannot be guessed); a success consumes it.
  const pkce = ctx.parts.verifyPkce(grant.pkce, params.code_verifier);
  if (!pkce.ok) return reply.error(400, 'invalid_grant', pkce.description);
  const user = ctx.users.find((u) => u.userId === grant.userId);
  if (user === undefined) return reply.error(400, 'invalid_grant', 'The user of this code no longer exists');
  // The API's settings at the exchange: the scope granted at /authorize is kept where it still holds.
  const admitted = await admitAtToken(ctx, who, { audience: grant.audience, requested: grant.scope, asking: false });
  if (!admitted.ok) return refused(reply, admitted);
  // Consumed only after the awaits, and only if no other request consumed it meanwhile (single use).
  if (ctx.parts.authStore.getCode(code) === undefined)
    return reply.error(400, 'invalid_grant', 'Invalid or expired authorization code');
  ctx.parts.authStore.deleteCode(code);
  const tokens = await issueUserTokens(ctx, { client: who.client, user }, admitted, {
    audience: grant.audience,
    nonce: grant.nonce,
    refreshable: true,
    gty: 'authorization_code',
  });
  return tokenAnswer(reply, tokens);
}

/**
 * The passwordless OTP grant: `username` the email address or phone number the code was sent
 * to, `otp` the code, `realm` the connection. The code is checked (and consumed) by the
 * `verifyOneTimeCode` part before the user is looked up, so an address without an account
 * cannot be told from a wrong code.
 */
async function passwordlessOtp(
  params: Params,
  who: Authenticated,
  ctx: AppContext,
  reply: Reply,
): Promise<TenantResponse> {
  const { username, otp, realm } = params;
  if (username === undefined || username === '')
    return reply.error(400, 'invalid_request', 'Missing required parameter: username');
  if (otp === undefined || otp === '') return reply.error(400, 'invalid_request', 'Missing required parameter: otp');
  if (realm !== 'email' && realm !== 'sms')
    return reply.error(400, 'invalid_request', 'realm must be the passwordless connection: "email" or "sms"');
  const admitted = await admitAtToken(ctx, who, { audience: params.audience, requested: params.scope, asking: true });
  if (!admitted.ok) return refused(reply, admitted);
  const verdict = ctx.parts.verifyOneTimeCode({
    connection: realm,
    recipient: username,
    clientId: who.client.clientId,
    code: otp,
  });
  if (!verdict.ok) return reply.error(400, 'invalid_grant', verdict.description);
  const user = passwordlessUser(ctx.users, realm, username);
  if (user === undefined)
    return reply.error(
      400,
      'invalid_grant',
      `No user has this ${realm === 'email' ? 'email address' : 'phone number'}`,
    );
  const tokens = await issueUserTokens(ctx, { client: who.client, user }, admitted, {
    audience: params.audience,
    refreshable: true,
    gty: 'passwordless',
  });
  return tokenAnswer(reply, tokens);
}

/** The existing user with that email address (compared without case) or phone number; none are created. */
function passwordlessUser(users: UserRecord[], realm: 'email' | 'sms', recipient: string): UserRecord | undefined {
  const wanted = recipient.toLowerCase();
  return users.find((u) => (realm === 'email' ? u.username.toLowerCase() === wanted : u.phoneNumber === recipient));
}

/**
 * RFC 6749 §6: scope may narrow. Without `refreshRotation` the refresh token stays valid until
 * revoked; with it, the answer carries a new one for the same grant (its scope identical to the
 * used one's, §6) and the used one is refused from then on.
 */
async function refreshToken(
  params: Params,
  who: Authenticated,
  ctx: AppContext,
  reply: Reply,
): Promise<TenantResponse> {
  const token = params.refresh_token;
  if (token === undefined || token === '')
    return reply.error(400, 'invalid_request', 'Missing required parameter: refresh_token');
  const grant = ctx.parts.authStore.getRefreshToken(token);
  if (grant === undefined || !ctx.parts.securityRules.refreshBoundToClient(grant.clientId, who.client.clientId)) {
    return reply.error(400, 'invalid_grant', 'Unknown or revoked refresh token');
  }
  const user = ctx.users.find((u) => u.userId === grant.userId);
  if (user === undefined) return reply.error(400, 'invalid_grant', 'The user of this refresh token no longer exists');
  const scoped = ctx.parts.securityRules.refreshScope(grant.scope, params.scope);
  if (!scoped.ok) return reply.error(400, 'invalid_scope', scoped.description);
  // The API's settings at the refresh (its proof of possession, policies, scopes, lifetime…).
  const admitted = await admitAtToken(ctx, who, {
    audience: grant.audience,
    requested: scoped.scope,
    asking: false,
    refresh: grant.jkt ? { jkt: grant.jkt } : {},
  });
  if (!admitted.ok) return refused(reply, admitted);
  if (ctx.refreshRotation) {
    // Consumed only if no other request with this token consumed it during the awaits.
    if (ctx.parts.authStore.getRefreshToken(token) === undefined)
      return reply.error(400, 'invalid_grant', 'Unknown or revoked refresh token');
    ctx.parts.authStore.revokeRefreshToken(token);
  }
  const tokens = await issueUserTokens(ctx, { client: who.client, user }, admitted, {
    audience: grant.audience,
    refreshable: false,
    gty: 'refresh_token',
  });
  return tokenAnswer(reply, ctx.refreshRotation ? { ...tokens, refresh_token: newRefreshToken(ctx, grant) } : tokens);
}
