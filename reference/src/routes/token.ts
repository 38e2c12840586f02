// Authentication API token endpoint (§4.3, §5.1, §5.2, §7.3): grants client_credentials,
// authorization_code (with or without PKCE), password, refresh_token and the passwordless
// one-time code; client authentication through the `authenticateClient` part; errors
// {error, error_description}.
import type { ClientConfig, TenantRequest, TenantResponse, UserRecord } from '../types.ts';
import type { AppContext } from '../context.ts';
import { issueAccessToken } from '../auth/access-token.ts';
import { begin, callerOf, readBody, type Params, type Reply } from '../auth/request.ts';
import { issueUserTokens, newRefreshToken, userScope } from '../auth/user-tokens.ts';
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

type Authenticated = { client: ClientConfig; x5tS256?: string };

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
  const who: Authenticated = { client: auth.client, ...(auth.x5tS256 ? { x5tS256: auth.x5tS256 } : {}) };
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
  if (params.audience === undefined || params.audience === '') {
    return reply.error(400, 'invalid_request', 'Missing required parameter: audience');
  }
  const granted = grantedScopes(params.audience, who.client, ctx);
  if (granted === undefined) return reply.error(403, 'access_denied', `Service not found: ${params.audience}`);
  const requested = params.scope?.split(' ').filter((s) => s !== '');
  const scope = (requested ? granted.scopes.filter((s) => requested.includes(s)) : granted.scopes).join(' ');
  const accessToken = await issueAccessToken(ctx.signingKey, {
    issuer: `${ctx.publicUrl}/`,
    audience: granted.audience,
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

/** The management API (audience `<public URL>/api/v2/`, or `/api/v2/` as §5.1 writes it) or a custom resource server. */
function grantedScopes(
  audience: string,
  client: ClientConfig,
  ctx: AppContext,
): { audience: string; scopes: string[] } | undefined {
  const management = `${ctx.publicUrl}/api/v2/`;
  if (audience === management || audience === '/api/v2/') return { audience: management, scopes: client.scopes };
  const rs = ctx.parts.store.getResourceServerByIdentifier(audience);
  if (rs === undefined || rs.is_system) return undefined;
  return { audience: rs.identifier, scopes: rs.scopes.map((s) => s.value) };
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
  const scope = userScope(ctx, params.scope, params.audience);
  if (scope === undefined) return reply.error(403, 'access_denied', `Service not found: ${params.audience}`);

  const login = checkLogin(ctx, connection, username, pw, ip);
  if (!login.ok)
    return login.blocked
      ? reply.error(429, 'too_many_attempts', LOGIN_BLOCKED, login.headers)
      : reply.error(400, 'invalid_grant', 'Wrong email or password.');
  const tokens = await issueUserTokens(ctx, {
    client: who.client,
    user: login.user,
    scope,
    ...(params.audience ? { audience: params.audience } : {}),
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
  ctx.parts.authStore.deleteCode(code);
  const tokens = await issueUserTokens(ctx, {
    client: who.client,
    user,
    scope: grant.scope,
    ...(grant.audience ? { audience: grant.audience } : {}),
    ...(grant.nonce !== undefined ? { nonce: grant.nonce } : {}),
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
  const scope = userScope(ctx, params.scope, params.audience);
  if (scope === undefined) return reply.error(403, 'access_denied', `Service not found: ${params.audience}`);
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
  const tokens = await issueUserTokens(ctx, {
    client: who.client,
    user,
    scope,
    ...(params.audience ? { audience: params.audience } : {}),
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
  const scope = scoped.scope;
  // Consumed before anything awaits, so two requests with one token cannot both be answered.
  if (ctx.refreshRotation) ctx.parts.authStore.revokeRefreshToken(token);
  const tokens = await issueUserTokens(ctx, {
    client: who.client,
    user,
    scope,
    ...(grant.audience ? { audience: grant.audience } : {}),
    refreshable: false,
    gty: 'refresh_token',
  });
  return tokenAnswer(reply, ctx.refreshRotation ? { ...tokens, refresh_token: newRefreshToken(ctx, grant) } : tokens);
}
