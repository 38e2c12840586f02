// The tenant's HTTP-level handler: routing, rate limiting, authorization, bodies, operations.
// Plain data in and out (TenantRequest → TenantResponse) so it can be wrapped from outside.
import type { AccessTokenClaims, ClientConfig, Handler, TenantParts, TenantRequest, TenantResponse } from './types.ts';
import { HttpFailure, RATE_LIMIT_MESSAGE, apiError, json, oauthError } from './errors.ts';
import { bodyFormat, bodyTooLarge, decodeObject, type FormKinds } from './body.ts';
import { makeCheck } from './validation/engine.ts';
import { UPDATE_FORM_KINDS } from './validation/resource-server.ts';
import { EXPERIMENT_FORM_KINDS } from './validation/experiment.ts';
import { rateLimitHeaders } from './ratelimit.ts';
import { base58Id } from './ids.ts';
import { issueAccessToken, type SigningKey } from './auth/access-token.ts';
import { authenticateClient } from './auth/client-auth.ts';
import type { Issue } from './types.ts';

export interface AppContext {
  parts: TenantParts;
  publicUrl: string;
  clients: ClientConfig[];
  signingKey: SigningKey;
}

type Route =
  | { id: 'rs.update'; scope: string; pathId: string }
  | { id: 'exp.create'; scope: string }
  | { id: 'oauth.token' }
  | { id: 'jwks' }
  | { id: 'openid-configuration' };

export function createApp(ctx: AppContext): Handler {
  return async (req) => {
    try {
      return await dispatch(req, ctx);
    } catch (e) {
      if (e instanceof HttpFailure) return e.response;
      // A bug, never client input: answer 500 and keep serving.
      console.error('reference tenant: internal error:', e instanceof Error ? e.message : String(e));
      return apiError(500, 'internal_error', 'Internal error');
    }
  };
}

async function dispatch(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const path = (req.url.split('?')[0] ?? '').replace(/^https?:\/\/[^/]+/i, '');
  const matched = matchRoute(req.method.toUpperCase(), path);
  if ('status' in matched) {
    const limited = rateLimit(ctx, `unrouted|ip:${req.remoteAddress ?? '-'}`);
    if (limited.response) return limited.response;
    const res =
      matched.status === 404
        ? apiError(404, 'not_found', `No route for ${req.method} ${path}`)
        : apiError(405, 'method_not_allowed', `Method ${req.method} not allowed on ${path}`, { allow: matched.allow });
    return withHeaders(res, limited.headers);
  }
  const route = matched.route;
  switch (route.id) {
    case 'rs.update':
    case 'exp.create':
      return management(req, route, ctx);
    case 'oauth.token':
      return tokenEndpoint(req, ctx);
    case 'jwks':
    case 'openid-configuration': {
      const limited = rateLimit(ctx, `${route.id}|ip:${req.remoteAddress ?? '-'}`);
      if (limited.response) return limited.response;
      const body =
        route.id === 'jwks' ? { keys: [ctx.signingKey.publicJwk] } : openidConfiguration(ctx.publicUrl);
      return withHeaders(json(200, body), limited.headers);
    }
  }
}

// ---------------------------------------------------------------------------------------
// Routing (§4.1, §4.2, §5.1 token endpoint path `/oauth/token/`)

function matchRoute(method: string, path: string): { route: Route } | { status: 404 } | { status: 405; allow: string } {
  const rs = /^\/api\/v2\/resource-servers\/([^/]+)$/.exec(path);
  if (rs) {
    return method === 'PATCH'
      ? { route: { id: 'rs.update', scope: 'update:resource_servers', pathId: rs[1] ?? '' } }
      : { status: 405, allow: 'PATCH' };
  }
  if (path === '/api/v2/experimentation/experiments') {
    return method === 'POST' ? { route: { id: 'exp.create', scope: 'create:experimentation' } } : { status: 405, allow: 'POST' };
  }
  if (path === '/oauth/token' || path === '/oauth/token/') {
    return method === 'POST' ? { route: { id: 'oauth.token' } } : { status: 405, allow: 'POST' };
  }
  if (path === '/.well-known/jwks.json') return method === 'GET' ? { route: { id: 'jwks' } } : { status: 405, allow: 'GET' };
  if (path === '/.well-known/openid-configuration') {
    return method === 'GET' ? { route: { id: 'openid-configuration' } } : { status: 405, allow: 'GET' };
  }
  return { status: 404 };
}

// ---------------------------------------------------------------------------------------
// Rate limiting (§8, §7.1 429): every response carries the three headers.

function rateLimit(ctx: AppContext, key: string): { headers: Record<string, string>; response?: TenantResponse } {
  const state = ctx.parts.rateLimiter.take(key, ctx.parts.now());
  const headers = rateLimitHeaders(state);
  if (state.allowed) return { headers };
  const retry = { ...headers, 'retry-after': String(state.retryAfter) };
  const response = key.startsWith('oauth.token|')
    ? oauthError(429, 'too_many_requests', RATE_LIMIT_MESSAGE, retry)
    : apiError(429, 'too_many_requests', RATE_LIMIT_MESSAGE, retry);
  return { headers, response };
}

function withHeaders(res: TenantResponse, headers: Record<string, string>): TenantResponse {
  return { ...res, headers: { ...res.headers, ...headers } };
}

// ---------------------------------------------------------------------------------------
// Management API (§4.1, §4.2, §5.1, §7.1)

async function management(
  req: TenantRequest,
  route: Extract<Route, { id: 'rs.update' | 'exp.create' }>,
  ctx: AppContext,
): Promise<TenantResponse> {
  const auth = await authorize(req, ctx);
  const caller = auth.ok ? `client:${String(auth.claims.azp ?? auth.claims.sub)}` : `ip:${req.remoteAddress ?? '-'}`;
  const limited = rateLimit(ctx, `${route.id}|${caller}`);
  if (limited.response) return limited.response;
  let res: TenantResponse;
  try {
    res = await authorizedOperation(req, route, ctx, auth);
  } catch (e) {
    if (!(e instanceof HttpFailure)) throw e;
    res = e.response;
  }
  return withHeaders(res, limited.headers);
}

async function authorizedOperation(
  req: TenantRequest,
  route: Extract<Route, { id: 'rs.update' | 'exp.create' }>,
  ctx: AppContext,
  auth: { ok: true; claims: AccessTokenClaims } | { ok: false; reason: string },
): Promise<TenantResponse> {
  const realm = `${ctx.publicUrl}/api/v2/`;
  // §7.1 401: token missing, malformed, badly signed, expired, wrong audience.
  if (!auth.ok) {
    return apiError(401, 'invalid_token', auth.reason, { 'www-authenticate': `Bearer realm="${realm}", error="invalid_token"` });
  }
  // §7.1 403: the token lacks the operation's scope; the message names it.
  if (!ctx.parts.rules.hasScope(auth.claims, route.scope)) {
    return apiError(403, 'insufficient_scope', `Insufficient scope, expected any of: ${route.scope}`, {
      'www-authenticate': `Bearer realm="${realm}", error="insufficient_scope", scope="${route.scope}"`,
    });
  }
  const kinds: FormKinds = route.id === 'rs.update' ? UPDATE_FORM_KINDS : EXPERIMENT_FORM_KINDS;
  const body = readBody(req, kinds, ctx);
  return route.id === 'rs.update' ? updateResourceServer(route.pathId, body, ctx) : createExperiment(body, ctx);
}

async function authorize(
  req: TenantRequest,
  ctx: AppContext,
): Promise<{ ok: true; claims: AccessTokenClaims } | { ok: false; reason: string }> {
  const header = req.headers.authorization;
  if (header === undefined || header === '') return { ok: false, reason: 'Missing authentication' };
  const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header);
  if (!m?.[1]) return { ok: false, reason: 'Bad HTTP authentication header format' };
  return ctx.parts.verifyAccessToken(m[1]);
}

/** §4: bodies as JSON or form; 413 over the size limit, 415 other types, 400 malformed. */
function readBody(req: TenantRequest, kinds: FormKinds, ctx: AppContext): Record<string, unknown> {
  const limits = ctx.parts.limits;
  if (bodyTooLarge(req, limits)) {
    throw new HttpFailure(apiError(413, 'payload_too_large', `Request body is larger than ${limits.maxBodyBytes} bytes`));
  }
  const format = bodyFormat(req);
  if (!format.ok) throw new HttpFailure(apiError(format.status, errorCodeFor(format.status), format.message));
  const decoded = decodeObject(req, format.value, kinds, limits);
  if (!decoded.ok) throw new HttpFailure(apiError(decoded.status, errorCodeFor(decoded.status), decoded.message));
  return decoded.value;
}

function errorCodeFor(status: number): string {
  return status === 415 ? 'unsupported_media_type' : status === 413 ? 'payload_too_large' : 'invalid_body';
}

function validationError(issues: Issue[]): TenantResponse {
  const message = issues.map((i) => `'${i.message}' on property ${i.path || '(body)'}`).join('; ');
  return apiError(400, 'invalid_body', `Payload validation error: ${message}`);
}

/** §4.1 PATCH /resource-servers/{id}: partial update, 201 with the §2.1 object. */
function updateResourceServer(pathId: string, body: Record<string, unknown>, ctx: AppContext): TenantResponse {
  const { rules, store, validators } = ctx.parts;
  const rs = rules.resolveResourceServer(store, pathId);
  if (rs === undefined) return apiError(404, 'inexistent_resource_server', 'The resource server does not exist');
  const system = rules.rejectSystemResourceServer(rs);
  if (system !== null) return apiError(400, 'operation_not_supported', system);
  const issues = makeCheck(validators)('rs.body', body, '');
  if (issues.length > 0) return validationError(issues);
  // Applied only after the whole body validated: a rejected request changes nothing.
  const next = rules.enforceWebLifetime(rules.applyResourceServerPatch(rs, body));
  store.saveResourceServer(next);
  return json(201, rules.presentResourceServer(next));
}

/** §4.2 POST /experimentation/experiments: 201 with the §2.4 experiment, status draft. */
function createExperiment(body: Record<string, unknown>, ctx: AppContext): TenantResponse {
  const { rules, store, validators, now } = ctx.parts;
  const issues = makeCheck(validators)('exp.body', body, '');
  if (issues.length > 0) return validationError(issues);
  const flag = store.getFeatureFlag(body.feature_flag_id as string);
  if (flag === undefined) {
    return apiError(404, 'inexistent_feature_flag', `The feature flag ${String(body.feature_flag_id)} does not exist`);
  }
  const allocationIssues = rules.checkAllocations(body, flag);
  if (allocationIssues.length > 0) return validationError(allocationIssues);
  const at = new Date(now()).toISOString();
  const experiment = {
    id: base58Id('exp_', 20),
    name: body.name as string,
    ...(body.description !== undefined ? { description: body.description } : {}),
    feature_flag_id: flag.id,
    ...(body.authentication_flow !== undefined ? { authentication_flow: body.authentication_flow } : {}),
    ...(body.assignment_config !== undefined ? { assignment_config: body.assignment_config } : {}),
    allocation_strategy: (body.allocation_strategy as string | undefined) ?? 'percentage',
    allocations: body.allocations as Array<Record<string, unknown>>,
    status: 'draft',
    is_valid: rules.isExperimentValid(body),
    created_at: at,
    updated_at: at,
  };
  store.saveExperiment(experiment);
  return json(201, experiment);
}

// ---------------------------------------------------------------------------------------
// Authentication API: token endpoint (§5.1 client credentials, §5.2 client authentication, §7.3 errors)

async function tokenEndpoint(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const limits = ctx.parts.limits;
  const tooLarge = bodyTooLarge(req, limits);
  const format = tooLarge ? undefined : bodyFormat(req);
  let params: Record<string, string> | undefined;
  let paramsError: string | undefined;
  if (format?.ok) {
    const decoded = decodeObject(req, format.value, {}, limits);
    if (!decoded.ok) paramsError = decoded.message;
    else {
      const bad = Object.entries(decoded.value).find(([, v]) => typeof v !== 'string');
      if (bad) paramsError = `Parameter ${bad[0]} must be a string`;
      else params = decoded.value as Record<string, string>;
    }
  }
  const limited = rateLimit(ctx, `oauth.token|${callerOf(params, req)}`);
  if (limited.response) return limited.response;
  const h = limited.headers;

  if (tooLarge) return oauthError(413, 'invalid_request', `Request body is larger than ${limits.maxBodyBytes} bytes`, h);
  if (format && !format.ok) return oauthError(415, 'invalid_request', format.message, h);
  if (params === undefined) return oauthError(400, 'invalid_request', paramsError ?? 'Malformed request body', h);

  if (params.grant_type === undefined) return oauthError(400, 'invalid_request', 'Missing required parameter: grant_type', h);
  if (params.grant_type !== 'client_credentials') {
    return oauthError(400, 'unsupported_grant_type', `Unsupported grant type: ${params.grant_type}`, h);
  }
  const auth = await authenticateClient(params, req.headers.authorization, {
    clients: ctx.clients,
    assertionAudiences: [`${ctx.publicUrl}/`, `${ctx.publicUrl}/oauth/token`, `${ctx.publicUrl}/oauth/token/`],
    limits,
    jti: ctx.parts.jtiCache,
    nowMs: ctx.parts.now(),
  });
  if (!auth.ok) {
    const extra: Record<string, string> =
      auth.status === 401 && /^Basic/i.test(req.headers.authorization ?? '') ? { 'www-authenticate': 'Basic realm="token"' } : {};
    return oauthError(auth.status, auth.error, auth.description, { ...h, ...extra });
  }
  if (params.audience === undefined || params.audience === '') {
    return oauthError(400, 'invalid_request', 'Missing required parameter: audience', h);
  }
  const granted = grantedScopes(params.audience, auth.client, ctx);
  if (granted === undefined) return oauthError(403, 'access_denied', `Service not found: ${params.audience}`, h);
  const requested = params.scope?.split(' ').filter((s) => s !== '');
  const scope = (requested ? granted.scopes.filter((s) => requested.includes(s)) : granted.scopes).join(' ');
  const accessToken = await issueAccessToken(ctx.signingKey, {
    issuer: `${ctx.publicUrl}/`,
    audience: granted.audience,
    clientId: auth.client.clientId,
    scope,
    lifetimeSeconds: limits.accessTokenLifetimeSeconds,
    nowMs: ctx.parts.now(),
  });
  return json(
    200,
    { access_token: accessToken, token_type: 'Bearer', expires_in: limits.accessTokenLifetimeSeconds, scope },
    { ...h, 'cache-control': 'no-store', pragma: 'no-cache' },
  );
}

/** The management API (audience `<public URL>/api/v2/`, or `/api/v2/` as §5.1 writes it) or a custom resource server. */
function grantedScopes(audience: string, client: ClientConfig, ctx: AppContext): { audience: string; scopes: string[] } | undefined {
  const management = `${ctx.publicUrl}/api/v2/`;
  if (audience === management || audience === '/api/v2/') return { audience: management, scopes: client.scopes };
  const rs = ctx.parts.store.getResourceServerByIdentifier(audience);
  if (rs === undefined || rs.is_system) return undefined;
  return { audience: rs.identifier, scopes: rs.scopes.map((s) => s.value) };
}

function callerOf(params: Record<string, string> | undefined, req: TenantRequest): string {
  const basic = /^Basic\s+(\S+)/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    return `client:${decoded.split(':')[0] ?? ''}`;
  }
  if (params?.client_id) return `client:${params.client_id}`;
  if (params?.client_assertion) {
    try {
      const payload = JSON.parse(Buffer.from(params.client_assertion.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iss?: unknown };
      if (typeof payload.iss === 'string') return `client:${payload.iss}`;
    } catch {
      // fall through to the peer address
    }
  }
  return `ip:${req.remoteAddress ?? '-'}`;
}

function openidConfiguration(publicUrl: string): Record<string, unknown> {
  return {
    issuer: `${publicUrl}/`,
    token_endpoint: `${publicUrl}/oauth/token`,
    jwks_uri: `${publicUrl}/.well-known/jwks.json`,
    grant_types_supported: ['client_credentials'],
    response_types_supported: ['token'],
    token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic', 'private_key_jwt'],
    token_endpoint_auth_signing_alg_values_supported: ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'],
    id_token_signing_alg_values_supported: ['RS256'],
    subject_types_supported: ['public'],
  };
}
