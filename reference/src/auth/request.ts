// What every authentication-API route shares (§4.3, §7.3): POST parameters from a JSON or
// form body, GET parameters from the query string only, the per-endpoint rate limit, and
// answers built through the `authError` part.
import type { Limits, TenantRequest, TenantResponse } from '../types.ts';
import { json } from '../errors.ts';
import { rateLimit, type AppContext } from '../context.ts';
import { bodyFormat, bodyTooLarge, decodeObject } from '../body.ts';

export type Params = Record<string, string>;

export type Read =
  | { ok: true; params: Params; objects: Record<string, unknown> }
  | { ok: false; status: 400 | 413 | 415; description: string };

/**
 * POST body as JSON (§4.3) or form: every parameter a string, except `objectKeys`, which a
 * JSON body may give as objects (e.g. `authParams` of /passwordless/start).
 */
export function readBody(req: TenantRequest, limits: Limits, objectKeys: string[] = []): Read {
  if (bodyTooLarge(req, limits))
    return { ok: false, status: 413, description: `Request body is larger than ${limits.maxBodyBytes} bytes` };
  const format = bodyFormat(req);
  if (!format.ok) return { ok: false, status: 415, description: format.message };
  const decoded = decodeObject(req, format.value, {}, limits);
  if (!decoded.ok) return { ok: false, status: 400, description: decoded.message };
  const params: Params = {};
  const objects: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(decoded.value)) {
    if (typeof v === 'string') params[k] = v;
    else if (objectKeys.includes(k) && v !== null && typeof v === 'object' && !Array.isArray(v)) objects[k] = v;
    else return { ok: false, status: 400, description: `Parameter ${k} must be a string` };
  }
  return { ok: true, params, objects };
}

/** GET parameters: the query string only (RFC 6749 §3.1: a parameter at most once). */
export function readQuery(url: string): { ok: true; params: Params } | { ok: false; description: string } {
  const q = url.indexOf('?');
  const search = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  const params: Params = {};
  for (const [k, v] of search) {
    if (Object.hasOwn(params, k)) return { ok: false, description: `Parameter ${k} is repeated` };
    params[k] = v;
  }
  return { ok: true, params };
}

/** Rate-limit bucket owner: the client the request names, else the peer address. */
export function callerOf(params: Params | undefined, req: TenantRequest): string {
  const basic = /^Basic\s+(\S+)/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    return `client:${decoded.split(':')[0] ?? ''}`;
  }
  if (params?.client_id) return `client:${params.client_id}`;
  if (params?.client_assertion) {
    try {
      const payload = JSON.parse(
        Buffer.from(params.client_assertion.split('.')[1] ?? '', 'base64url').toString('utf8'),
      ) as { iss?: unknown };
      if (typeof payload.iss === 'string') return `client:${payload.iss}`;
    } catch {
      // fall through to the peer address
    }
  }
  return `ip:${req.remoteAddress ?? '-'}`;
}

export interface Reply {
  /** Error answer through the `authError` part, rate-limit headers added. */
  error(status: number, error: string, description: string, headers?: Record<string, string>): TenantResponse;
  /** JSON answer, never cached, rate-limit headers added. */
  json(status: number, body: unknown, headers?: Record<string, string>): TenantResponse;
  /** Any other answer (HTML, redirect, empty), rate-limit headers added. */
  raw(status: number, headers: Record<string, string>, body?: string): TenantResponse;
}

/**
 * Takes one request from the `route` bucket of the caller; the 429 when refused, else the
 * reply builders carrying the rate-limit headers.
 */
export function begin(ctx: AppContext, route: string, caller: string): { limited: TenantResponse } | { reply: Reply } {
  const limited = rateLimit(ctx, `${route}|${caller}`);
  if (limited.response) return { limited: limited.response };
  const h = limited.headers;
  return {
    reply: {
      error: (status, error, description, headers = {}) =>
        ctx.parts.authError(status, error, description, { ...h, ...headers }),
      json: (status, body, headers = {}) =>
        json(status, body, { ...h, 'cache-control': 'no-store', pragma: 'no-cache', ...headers }),
      raw: (status, headers, body = '') => ({
        status,
        headers: { ...h, 'cache-control': 'no-store', ...headers },
        body: Buffer.from(body),
      }),
    },
  };
}
