// The tenant's HTTP-level handler: routing to the operations. Plain data in and out
// (TenantRequest → TenantResponse) so it can be wrapped from outside.
import type { Handler, LoginProfile, TenantRequest, TenantResponse } from './types.ts';
import { HttpFailure, apiError } from './errors.ts';
import { rateLimit, withHeaders, type AppContext } from './context.ts';
import { management, type ManagementRoute } from './routes/management.ts';
import { tokenEndpoint } from './routes/token.ts';
import { authorizationServerMetadata, jwks, openidConfiguration } from './routes/well-known.ts';
import { userinfo } from './routes/userinfo.ts';
import { revoke } from './routes/revoke.ts';
import { authorize } from './routes/authorize.ts';
import { identifier, login, loginFirst, otpChallenge, password } from './routes/login.ts';
import { consent } from './routes/consent.ts';
import { outbox, passwordlessStart } from './routes/passwordless.ts';
import { confirmLogout, logout } from './routes/logout.ts';
import { samlCallback } from './routes/saml.ts';
import { disabledEndpoint } from './routes/disabled.ts';

export type { AppContext } from './context.ts';

type AuthRoute =
  | 'oauth.token'
  | 'userinfo'
  | 'revoke'
  | 'authorize'
  | 'login'
  | 'login.first'
  | 'login.identifier'
  | 'login.password'
  | 'login.otp'
  | 'consent'
  | 'passwordless'
  | 'outbox'
  | 'logout'
  | 'logout.confirm'
  | 'saml'
  | 'wsfed'
  | 'delegation';
type Route =
  | ManagementRoute
  | { id: AuthRoute }
  | { id: 'jwks' }
  | { id: 'openid-configuration' }
  | { id: 'oauth-authorization-server' };

export function createApp(ctx: AppContext): Handler {
  const authRoutes = authRoutesOf(ctx.login, ctx.revocation.path);
  const deletable = ctx.experiments.deletable;
  const handle: Handler = async (req) => {
    try {
      return await dispatch(req, ctx, authRoutes, deletable);
    } catch (e) {
      if (e instanceof HttpFailure) return e.response;
      // A bug, never client input: answer 500 and keep serving.
      console.error('reference tenant: internal error:', e instanceof Error ? e.message : String(e));
      return apiError(500, 'internal_error', 'Internal error');
    }
  };
  return async (req) =>
    req.method.toUpperCase() === 'HEAD' ? headOf(await handle({ ...req, method: 'GET' })) : handle(req);
}

/**
 * RFC 9110 §9.3.2: HEAD is answered as GET would be, without the content; Content-Length is the
 * one the GET answer would carry (§8.6), which the transport sends as given for HEAD.
 */
function headOf(get: TenantResponse): TenantResponse {
  return { ...get, headers: { ...get.headers, 'content-length': String(get.body.length) }, body: Buffer.alloc(0) };
}

async function dispatch(
  req: TenantRequest,
  ctx: AppContext,
  authRoutes: AuthRoutes,
  deletable: boolean,
): Promise<TenantResponse> {
  const path = (req.url.split('?')[0] ?? '').replace(/^https?:\/\/[^/]+/i, '');
  const matched = matchRoute(req.method.toUpperCase(), path, authRoutes, deletable);
  if ('status' in matched) {
    const limited = rateLimit(ctx, `unrouted|ip:${req.remoteAddress ?? '-'}`);
    if (limited.response) return limited.response;
    const res =
      matched.status === 404
        ? apiError(404, 'not_found', `No route for ${req.method} ${path}`)
        : (matched.auth ? ctx.parts.authError : apiError)(
            405,
            'method_not_allowed',
            `Method ${req.method} not allowed on ${path}`,
            { allow: matched.allow },
          );
    return withHeaders(res, limited.headers);
  }
  const route = matched.route;
  switch (route.id) {
    case 'rs.update':
    case 'exp.create':
    case 'exp.delete':
      return management(req, route, ctx);
    case 'oauth.token':
      return tokenEndpoint(req, ctx);
    case 'userinfo':
      return userinfo(req, ctx);
    case 'revoke':
      return revoke(req, ctx);
    case 'authorize':
      return authorize(req, ctx);
    case 'login':
      return login(req, ctx);
    case 'login.first':
      return loginFirst(req, ctx);
    case 'login.identifier':
      return identifier(req, ctx);
    case 'login.password':
      return password(req, ctx);
    case 'login.otp':
      return otpChallenge(req, ctx);
    case 'consent':
      return consent(req, ctx);
    case 'passwordless':
      return passwordlessStart(req, ctx);
    case 'outbox':
      return outbox(req, ctx);
    case 'logout':
      return logout(req, ctx);
    case 'logout.confirm':
      return confirmLogout(req, ctx);
    case 'saml':
      return samlCallback(req, ctx);
    case 'wsfed':
      return disabledEndpoint(req, ctx, 'WS-Federation');
    case 'delegation':
      return disabledEndpoint(req, ctx, 'Legacy delegation');
    case 'jwks':
    case 'openid-configuration':
    case 'oauth-authorization-server': {
      const limited = rateLimit(ctx, `${route.id}|ip:${req.remoteAddress ?? '-'}`);
      if (limited.response) return limited.response;
      if (route.id === 'jwks') return withHeaders(await jwks(ctx), limited.headers);
      const doc = route.id === 'openid-configuration' ? openidConfiguration : authorizationServerMetadata;
      return withHeaders(doc(ctx), limited.headers);
    }
  }
}

// Routing (§4.1, §4.2, §5.1 token endpoint path `/oauth/token/`)

function matchRoute(
  method: string,
  path: string,
  authRoutes: AuthRoutes,
  deletable: boolean,
): { route: Route } | { status: 404 } | { status: 405; allow: string; auth?: boolean } {
  const rs = /^\/api\/v2\/resource-servers\/([^/]+)$/.exec(path);
  if (rs) {
    return method === 'PATCH'
      ? { route: { id: 'rs.update', scope: 'update:resource_servers', pathId: rs[1] ?? '' } }
      : { status: 405, allow: 'PATCH' };
  }
  if (path === '/api/v2/experimentation/experiments') {
    return method === 'POST'
      ? { route: { id: 'exp.create', scope: 'create:experimentation' } }
      : { status: 405, allow: 'POST' };
  }
  // Not in the spec: only the experiment profile's tenant deletes experiments (no route otherwise).
  const exp = deletable ? /^\/api\/v2\/experimentation\/experiments\/([^/]+)$/.exec(path) : null;
  if (exp) {
    return method === 'DELETE'
      ? { route: { id: 'exp.delete', scope: 'delete:experimentation', pathId: exp[1] ?? '' } }
      : { status: 405, allow: 'DELETE' };
  }
  if (path === '/oauth/token' || path === '/oauth/token/') {
    return method === 'POST' ? { route: { id: 'oauth.token' } } : { status: 405, allow: 'POST', auth: true };
  }
  // Authentication API (§4.3): one method per path; a trailing slash is tolerated.
  const auth =
    authRoutes[path.length > 1 ? path.replace(/\/$/, '') : path] ??
    (/^\/wsfed(\/[^/]+)?\/?$/.test(path) ? authRoutes['/wsfed'] : undefined);
  if (auth)
    return auth.methods.includes(method)
      ? { route: { id: auth.id } }
      : { status: 405, allow: allowed(auth.methods), auth: true };
  if (path === '/.well-known/jwks.json')
    return method === 'GET' ? { route: { id: 'jwks' } } : { status: 405, allow: allowed(['GET']) };
  if (path === '/.well-known/openid-configuration') {
    return method === 'GET' ? { route: { id: 'openid-configuration' } } : { status: 405, allow: allowed(['GET']) };
  }
  if (path === '/.well-known/oauth-authorization-server') {
    return method === 'GET'
      ? { route: { id: 'oauth-authorization-server' } }
      : { status: 405, allow: allowed(['GET']) };
  }
  return { status: 404 };
}

/** The Allow header: a route that serves GET serves HEAD too (RFC 9110 §9.3.2). */
function allowed(methods: string[]): string {
  return (methods.includes('GET') ? [...methods, 'HEAD'] : methods).join(', ');
}

type AuthRoutes = Record<string, { id: AuthRoute; methods: string[] }>;

const AUTH_ROUTES: AuthRoutes = {
  '/userinfo': { id: 'userinfo', methods: ['GET', 'POST'] }, // OIDC Core §5.3.1: GET and POST
  '/authorize': { id: 'authorize', methods: ['GET'] },
  '/u/login': { id: 'login', methods: ['POST'] },
  '/passwordless/start': { id: 'passwordless', methods: ['POST'] },
  '/dev/outbox': { id: 'outbox', methods: ['GET'] },
  '/v2/logout': { id: 'logout', methods: ['GET'] },
  '/login/callback': { id: 'saml', methods: ['POST'] },
  '/wsfed': { id: 'wsfed', methods: ['GET'] },
  '/delegation': { id: 'delegation', methods: ['POST'] },
};

/**
 * The routes of the login profile's pages; a page the profile does not show has no route
 * (404, as without profiles), and /u/login serves GET only when /authorize redirects to it.
 * The revocation endpoint is at `revocationPath` (TenantOptions.revocationAnnounced).
 */
function authRoutesOf(login: LoginProfile, revocationPath: string): AuthRoutes {
  const routes: AuthRoutes = { ...AUTH_ROUTES, [revocationPath]: { id: 'revoke', methods: ['POST'] } };
  if (login.loginFirst) routes['/u/login'] = { id: 'login.first', methods: ['GET', 'POST'] };
  else if (login.flow === 'identifier-first') {
    routes['/u/login/identifier'] = { id: 'login.identifier', methods: ['GET', 'POST'] };
    routes['/u/login/password'] = { id: 'login.password', methods: ['GET', 'POST'] };
  } else if (login.origin !== undefined) routes['/u/login'] = { id: 'login', methods: ['GET', 'POST'] };
  if (login.flow === 'challenge') routes['/u/mfa/otp'] = { id: 'login.otp', methods: ['GET', 'POST'] };
  if (login.consent !== 'never') routes['/u/consent'] = { id: 'consent', methods: ['GET', 'POST'] };
  if (login.logoutConfirm) routes['/v2/logout/confirm'] = { id: 'logout.confirm', methods: ['POST'] };
  return routes;
}
