// The HTTP exchange as parsed data, as the fault wrappers see it, adapted onto the reference
// tenant's exported `wrap(next)` injection point (raw bodies as Buffers). A wrapper that
// leaves a body untouched leaves its bytes untouched.
import type { Handler as TenantHandler, TenantRequest, TenantResponse } from '../reference/src/index.ts';

export interface Req {
  method: string;
  /** path without query, percent-encoding kept as sent */
  path: string;
  query: string;
  headers: Record<string, string>; // lower-case names
  /** JSON value, form fields as strings, or undefined (empty or unparseable body) */
  body: unknown;
  form: boolean;
  raw: TenantRequest;
}

export interface Res {
  status: number;
  headers: Record<string, string>; // lower-case names
  /** parsed JSON body, or undefined */
  body: unknown;
  raw?: TenantResponse;
}

export type Handler = (req: Req) => Promise<Res>;
export type Wrap = (next: Handler) => Handler;

const RS_PATH = /^\/api\/v2\/resource-servers\/([^/]+)\/?$/;
const EXP_PATH = /^\/api\/v2\/experimentation\/experiments\/?$/;

export const isRsPatch = (r: Req): boolean => r.method === 'PATCH' && RS_PATH.test(r.path);
export const isExpCreate = (r: Req): boolean => r.method === 'POST' && EXP_PATH.test(r.path);
export const isManagement = (r: Req): boolean => r.path.startsWith('/api/v2/');

export const isTokenRequest = (r: Req): boolean => r.method === 'POST' && /^\/oauth\/token\/?$/.test(r.path);

/** Adapts a parsed-exchange Wrap onto the tenant's raw `wrap(next)`. */
export function toTenantWrap(w: Wrap): (next: TenantHandler) => TenantHandler {
  return (nextRaw) => {
    const next: Handler = async (req) => parseRes(await nextRaw(serializeReq(req)));
    const wrapped = w(next);
    return async (raw) => serializeRes(await wrapped(parseReq(raw)));
  };
}

function parseReq(raw: TenantRequest): Req {
  const q = raw.url.indexOf('?');
  const path = q < 0 ? raw.url : raw.url.slice(0, q);
  const query = q < 0 ? '' : raw.url.slice(q + 1);
  const ct = (raw.headers['content-type'] ?? '').toLowerCase();
  const form = ct.startsWith('application/x-www-form-urlencoded');
  let body: unknown;
  const text = raw.body.toString('utf8');
  if (text.length > 0) {
    if (form) body = Object.fromEntries(new URLSearchParams(text));
    else {
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
    }
  }
  return { method: raw.method.toUpperCase(), path, query, headers: raw.headers, body, form, raw: { ...raw } };
}

const ORIGINAL = Symbol('original-body');

function serializeReq(req: Req): TenantRequest {
  const parsedAgain = parseReq(req.raw);
  const unchanged = JSON.stringify(parsedAgain.body) === JSON.stringify(req.body);
  let body = req.raw.body;
  if (!unchanged) {
    body = req.form
      ? Buffer.from(
          new URLSearchParams(
            Object.entries(req.body as Record<string, unknown>).map(([k, v]): [string, string] => [
              k,
              typeof v === 'string' ? v : JSON.stringify(v),
            ]),
          ).toString(),
        )
      : Buffer.from(JSON.stringify(req.body));
  }
  const url = req.path + (req.query ? `?${req.query}` : '');
  const headers = { ...req.headers };
  if (!unchanged) headers['content-length'] = String(body.length);
  return { ...req.raw, method: req.method, url, headers, body };
}

function parseRes(raw: TenantResponse): Res {
  let body: unknown;
  if ((raw.headers['content-type'] ?? '').includes('json') && raw.body.length > 0) {
    try {
      body = JSON.parse(raw.body.toString('utf8'));
    } catch {
      body = undefined;
    }
  }
  const res: Res = { status: raw.status, headers: { ...raw.headers }, body, raw };
  (res as unknown as Record<symbol, string>)[ORIGINAL] = JSON.stringify(body);
  return res;
}

function serializeRes(res: Res): TenantResponse {
  const original = (res as unknown as Record<symbol, string | undefined>)[ORIGINAL];
  const headers = { ...res.headers };
  let body: Buffer;
  if (res.raw && original !== undefined && original === JSON.stringify(res.body)) body = res.raw.body;
  else if (res.body === undefined) body = res.raw?.body ?? Buffer.alloc(0);
  else {
    body = Buffer.from(JSON.stringify(res.body));
    headers['content-type'] ??= 'application/json; charset=utf-8';
  }
  delete headers['content-length']; // the transport recomputes it from the body
  return { status: res.status, headers, body };
}

/**
 * A copy of a parsed answer that a wrapper may change: the body cloned, and the raw answer
 * and its parse marker kept, so that a body left as it was (an HTML login page, which has
 * no parsed body) keeps its bytes.
 */
export function copyRes(res: Res): Res {
  const copy: Res = {
    status: res.status,
    headers: { ...res.headers },
    body: clone(res.body),
    ...(res.raw ? { raw: res.raw } : {}),
  };
  const marker = (res as unknown as Record<symbol, string | undefined>)[ORIGINAL];
  if (marker !== undefined) (copy as unknown as Record<symbol, string>)[ORIGINAL] = marker;
  return copy;
}

export function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

export function jsonRes(status: number, body: unknown, headers: Record<string, string> = {}): Res {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body };
}

/** A plain-text page: its bytes kept as written (no parsed body). */
export function textRes(status: number, text: string): Res {
  const headers = { 'content-type': 'text/plain; charset=utf-8' };
  return { status, headers, body: undefined, raw: { status, headers, body: Buffer.from(text) } };
}

/** An HTML page: its bytes kept as written (no parsed body). */
export function htmlRes(status: number, html: string): Res {
  const headers = { 'content-type': 'text/html; charset=utf-8' };
  return { status, headers, body: undefined, raw: { status, headers, body: Buffer.from(html) } };
}

/** Code-point length, as JSON Schema counts string length. */
export const cpLength = (s: string): number => [...s].length;
