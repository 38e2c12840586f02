// The strict profile: the tenant behaves as an authorization server that follows RFC 6749
// and RFC 9700 to the letter and nothing of this tenant's own conventions (§4.3, §8). It is
// the reference for "verdicts hold on servers we did not write": the management API is left
// as it is; on the authentication API
//   - POST bodies are taken as forms only (RFC 6749 §3.2: application/x-www-form-urlencoded);
//   - neither the password grant nor response_type=token is offered (RFC 9700 §2.4, §2.1.2);
//   - passwordless, the SAML callback, WS-Federation and delegation do not exist (404), nor
//     the passwordless OTP grant (400 unsupported_grant_type);
//   - offline_access is granted only beside prompt=consent (OIDC Core §11);
//   - /authorize shows its errors as an HTML page, or redirects them with 303 (RFC 6749 §4.1.2.1);
//   - no rate limit, so no X-RateLimit-* headers;
//   - `audience` (not an RFC 6749 parameter) is ignored: client credentials are issued for its one API.
// Built as a wrap of the whole handler plus a limiter that never limits the authentication
// API, so no route of the tenant carries a branch for it.
import type { ClientConfig, Handler, RateLimiter, TenantRequest, TenantResponse } from '../types.ts';
import { PASSWORDLESS_OTP_GRANT } from '../auth/one-time-code.ts';

const ABSENT = [/^\/passwordless\//, /^\/login\/callback\/?$/, /^\/wsfed(\/|$)/, /^\/delegation\/?$/];
const IMPLICIT_TYPES = new Set(['token', 'id_token', 'id_token token', 'token id_token']);

const pathOf = (url: string): string => (url.split('?')[0] ?? '').replace(/^https?:\/\/[^/]+/i, '');
const isManagement = (path: string): boolean => path.startsWith('/api/v2/') || path.startsWith('/dev/');

function formError(status: number, error: string, description: string): TenantResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
    body: Buffer.from(JSON.stringify({ error, error_description: description })),
  };
}

function page(status: number, title: string, text: string): TenantResponse {
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: Buffer.from(`<!doctype html><title>${esc(title)}</title><h1>${esc(title)}</h1><p>${esc(text)}</p>`),
  };
}

/** The authentication API's rate-limit buckets pass unlimited; the management API's keep their limit. */
export function strictLimiter(inner: RateLimiter): RateLimiter {
  return {
    ...inner,
    take(key, nowMs) {
      const state = inner.take(key, nowMs);
      return key.startsWith('oauth.token|') || key.startsWith('auth.') ? { ...state, allowed: true } : state;
    },
  };
}

export function strictProfile(clients: readonly ClientConfig[]): (next: Handler) => Handler {
  return (next) => async (req) => {
    const path = pathOf(req.url);
    if (isManagement(path)) return next(req);
    const res = await answer(req, path, next, clients);
    const headers = Object.fromEntries(
      Object.entries(res.headers).filter(([k]) => !k.toLowerCase().startsWith('x-ratelimit-')),
    );
    delete headers['retry-after'];
    return { ...res, headers };
  };
}

async function answer(
  req: TenantRequest,
  path: string,
  next: Handler,
  clients: readonly ClientConfig[],
): Promise<TenantResponse> {
  if (ABSENT.some((re) => re.test(path))) return page(404, 'Not Found', `${path} does not exist`);
  const method = req.method.toUpperCase();
  if (method === 'POST' && path !== '/u/login') {
    const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/x-www-form-urlencoded')
      return formError(400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded');
    const form = new URLSearchParams(req.body.toString('utf8'));
    const token = /^\/oauth\/token\/?$/.test(path);
    if (token && form.get('grant_type') === 'password')
      return formError(400, 'unsupported_grant_type', 'The password grant is not offered');
    if (token && form.get('grant_type') === PASSWORDLESS_OTP_GRANT)
      return formError(400, 'unsupported_grant_type', 'The passwordless one-time-code grant is not offered');
    if (token && form.get('grant_type') === 'client_credentials') {
      form.set('audience', '/api/v2/');
      const body = Buffer.from(form.toString());
      return next({ ...req, body, headers: { ...req.headers, 'content-length': String(body.length) } });
    }
  }
  if (method === 'GET' && /^\/authorize\/?$/.test(path)) return authorize(req, next, clients);
  return next(req);
}

async function authorize(req: TenantRequest, next: Handler, clients: readonly ClientConfig[]): Promise<TenantResponse> {
  const q = req.url.indexOf('?');
  const params = new URLSearchParams(q < 0 ? '' : req.url.slice(q + 1));
  const type = (params.get('response_type') ?? '').split(' ').filter(Boolean).sort().join(' ');
  const client = clients.find((c) => c.clientId === params.get('client_id'));
  const redirectUri = params.get('redirect_uri');
  const registered = client !== undefined && redirectUri !== null && (client.redirectUris ?? []).includes(redirectUri);
  if (IMPLICIT_TYPES.has(type)) {
    if (!registered) return page(400, 'Invalid request', 'Unknown client or redirect URI');
    const to = new URL(redirectUri);
    to.searchParams.set('error', 'unsupported_response_type');
    to.searchParams.set('error_description', 'The implicit grant is not offered');
    const state = params.get('state');
    if (state !== null) to.searchParams.set('state', state);
    return { status: 303, headers: { location: to.toString() }, body: Buffer.alloc(0) };
  }
  const scope = (params.get('scope') ?? '').split(' ').filter(Boolean);
  if (scope.includes('offline_access') && params.get('prompt') !== 'consent') {
    params.set('scope', scope.filter((s) => s !== 'offline_access').join(' '));
    req = { ...req, url: `${req.url.slice(0, q)}?${params.toString()}` };
  }
  const res = await next(req);
  if (res.status < 400) return res;
  let text = 'The authorization request is invalid';
  try {
    const body = JSON.parse(res.body.toString('utf8')) as { error?: unknown; error_description?: unknown };
    text = `${String(body.error ?? 'error')}: ${String(body.error_description ?? '')}`;
  } catch {
    // not JSON: the generic text stands
  }
  return page(res.status, 'Invalid request', text);
}
