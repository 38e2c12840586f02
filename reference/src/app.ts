// The tenant's HTTP-level handler: routing to the operations. Plain data in and out
// (TenantRequest → TenantResponse) so it can be wrapped from outside.
import type { Handler, TenantRequest, TenantResponse } from './types.ts';
import { HttpFailure, apiError } from './errors.ts';
import { rateLimit, withHeaders, type AppContext } from './context.ts';
import { management, type ManagementRoute } from './routes/management.ts';
import { tokenEndpoint } from './routes/token.ts';
import { jwks, openidConfiguration } from './routes/well-known.ts';

export type { AppContext } from './context.ts';

type Route = ManagementRoute | { id: 'oauth.token' } | { id: 'jwks' } | { id: 'openid-configuration' };

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
      return withHeaders(route.id === 'jwks' ? jwks(ctx) : openidConfiguration(ctx), limited.headers);
    }
  }
}

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
