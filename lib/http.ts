// The HTTP client the specs use. Every request goes through the pacer, is counted, and comes back as
// an Exchange: request as sent (exact bytes) and response fully read, so checks are synchronous and
// evidence can be rendered (redacted) at any time. A staging tenant may be broken or hostile: how a
// request is bounded and when it is sent again, lib/README.md (*HTTP*). Sent with undici (streamed
// reads), not Playwright's request context, which buffers whole bodies of any size.
import type { Pacer } from './pacer.ts';
import { parseRateLimit } from './pacer.ts';
import { sleep } from './lock.ts';
import { received, type AnswerContext, type Reading } from './answer-class.ts';
import type { ResendBounds } from './resend-bounds.ts';

export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Exact body bytes, as text. */
  body?: string;
  /** The structured value the body was encoded from, when there was one. */
  data?: unknown;
}

/** A request and its answer as the wire gave them. */
export interface RawExchange {
  request: SentRequest;
  status: number;
  headers: Record<string, string>;
  text: string;
  /** Parsed JSON when the response was JSON, else the text (or undefined when empty). */
  body: unknown;
}

/** An exchange read once where it was received (lib/answer-class.ts `received`): what every judgement reads. */
export interface Exchange extends RawExchange {
  readonly answer: Reading;
}

export interface RequestCounter {
  sent: number;
  throttled: number;
  waitedMs: number;
}

export type Encoding = 'json' | 'form';

export interface SendOptions {
  headers?: Record<string, string>;
  /** A value encoded as JSON (default) or as application/x-www-form-urlencoded. */
  data?: unknown;
  encoding?: Encoding;
  /** Raw body bytes with their own Content-Type header (for malformed-input cases). */
  raw?: string;
  /** Whether a 429 is retried after Reset (default true; the burst test sends its own). */
  retryOn429?: boolean;
  /**
   * Whether a 429's X-RateLimit-* teach the pacer about the bucket (default true). The §8 test
   * provokes a per-account block whose headers describe the block, not the endpoint's limit.
   */
  learnFrom429?: boolean;
  /** What the sender knows around the answer (the endpoint it went to, the client's redirect URIs): it is classified in it. */
  context?: AnswerContext | ((raw: RawExchange) => AnswerContext);
}

export interface ClientOptions {
  /** Which credential this client carries; part of the pacing bucket key. */
  name: string;
  token: string | null;
  apiBase: string;
  timeoutMs: number;
  pacer: Pacer;
  counter: RequestCounter;
  /** Every exchange is reported here (the transcript of the test). */
  onExchange?: (ex: Exchange) => void;
  /** A request the target left unanswered, after the one retry an idempotent request gets. */
  onNoAnswer?: (n: NoAnswer) => void;
  /** How long a 502, 503 or 504 is waited out (`resendable`): per request and per run. */
  resend: ResendBounds;
  /** A request answered 502, 503 or 504 that could be sent again: what it met, how long it waited, what came. */
  onResent?: (r: Resent) => void;
}

/** The annotation a test carries for each request it sent again (its value: a Resent as JSON). */
export const RESENT_ANNOTATION = 'resent';

/** A request answered 502, 503 or 504 that sending again cannot change: the stumble a staging deploy makes. */
export interface Resent {
  method: string;
  /** Origin and path only. */
  target: string;
  /** The first 502, 503 or 504 it met. */
  status: number;
  /** How many times it was sent again (0: the run's bound was already spent). */
  resends: number;
  /** How long the suite waited for the tenant in all, before its resends (Retry-After or back-off). */
  waitedMs: number;
  /** The status of the answer the test saw. */
  final: number;
  /** The setting whose bound was spent, when the answer the test saw is still a 502, 503 or 504. */
  spent?: 'IDM_RESEND_WINDOW_S' | 'IDM_RESEND_RUN_S';
}

/** A request the target did not answer: what was sent (no query, no body) and what happened. */
export interface NoAnswer {
  method: string;
  /** Origin and path only: a query may carry a code or a state. */
  target: string;
  /** What the target did: a stall past the limit, a reset, a refused connection. */
  what: string;
  timeoutMs: number;
  /** Whether the request was sent a second time (idempotent methods only). */
  retried: boolean;
}

/**
 * undici, loaded by the first request: every process that loads the specs imports this module,
 * and Playwright's runner, which only lists the tests, never sends (about 0.1 s of CPU and a
 * hundred files to read, per process).
 */
let undici: Promise<typeof import('undici')> | null = null;
export const loadUndici = (): Promise<typeof import('undici')> => (undici ??= import('undici'));

/** RFC 9110 §9.2.2: a request of these methods may be sent again when its answer was lost. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

/** RFC 9110 §15.6.3–§15.6.5: a gateway or the service said it could not handle the request now. */
const PASSING = new Set([502, 503, 504]);
/** The longest Retry-After the suite waits out before sending once more (a deploy, not an outage). */
const MAX_RETRY_AFTER_MS = 10_000;
/** The first pause when the answer names none, doubled at each resend up to MAX_BACKOFF_MS. */
const DEFAULT_RETRY_PAUSE_MS = 1_000;
const MAX_BACKOFF_MS = 8_000;
/** The least pause between two resends (a Retry-After: 0 answered forever must not spin). */
const MIN_RESEND_PAUSE_MS = 100;

const MAX_429_RETRIES = 3;
/** Evidence kept of one response body; a tenant answering hundreds of MB is cut here. */
const MAX_STORED_BODY_BYTES = 1024 * 1024;

/** The target did not answer a request (timeout, reset, refused): not a finding about an answer. */
export class TargetTransportError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TargetTransportError';
  }
}

export class ApiClient {
  constructor(readonly opts: ClientOptions) {}

  /** The same client, carrying a different Authorization value (forged, malformed…). */
  withAuthorization(name: string, authorization: string | null): ApiClient {
    return new AuthorizationOverride({ ...this.opts, name, token: null }, authorization);
  }

  protected authorization(): string | null {
    return this.opts.token ? `Bearer ${this.opts.token}` : null;
  }

  /** The pacing bucket a request spends (a burst blocks it for the other workers). */
  bucket(method: string, path: string, o: SendOptions = {}): string {
    return bucketKey(this.callerName(o), method, this.url(path), this.opts.apiBase);
  }

  /**
   * Whose requests these are, for pacing: a request that authenticates a client by its id (in the
   * body, or a Basic header) spends that client's limit, as tenants of this kind key their
   * authentication-API limits, whatever other name this client carries; else the client's name.
   */
  private callerName(o: SendOptions): string {
    if (this.opts.token !== null) return this.opts.name;
    const id =
      typeof o.data === 'object' && o.data !== null ? (o.data as Record<string, unknown>).client_id : undefined;
    if (typeof id === 'string' && id !== '') return `client ${id}`;
    const basic = /^Basic\s+(\S+)/i.exec(lowerKeys(o.headers ?? {}).authorization ?? this.authorization() ?? '')?.[1];
    if (basic) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      const user = decoded.slice(0, Math.max(0, decoded.indexOf(':')));
      if (user !== '') return `client ${safeDecode(user)}`;
    }
    return this.opts.name;
  }

  url(path: string): string {
    return path.startsWith('http') ? path : `${this.opts.apiBase}${path}`;
  }

  async send(method: string, path: string, o: SendOptions = {}): Promise<Exchange> {
    const url = this.url(path);
    const headers: Record<string, string> = { accept: 'application/json', ...lowerKeys(o.headers ?? {}) };
    const auth = this.authorization();
    if (auth !== null && headers.authorization === undefined) headers.authorization = auth;
    let body: string | undefined;
    if (o.raw !== undefined) body = o.raw;
    else if (o.data !== undefined) {
      if ((o.encoding ?? 'json') === 'form') {
        body = formEncode(o.data);
        headers['content-type'] ??= 'application/x-www-form-urlencoded';
      } else {
        body = JSON.stringify(o.data);
        headers['content-type'] ??= 'application/json';
      }
    }
    const request: SentRequest = {
      method,
      url,
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(o.data !== undefined ? { data: o.data } : {}),
    };
    const key = this.bucket(method, url, o);
    const again = resendable(method, url, this.opts.apiBase, o.data);
    let retriedUnanswered = false;
    let resent: Resent | null = null;
    for (let attempt = 0; ; attempt++) {
      this.opts.counter.waitedMs += await this.opts.pacer.acquire(key);
      this.opts.counter.sent += 1;
      let ex: Exchange;
      try {
        const { cut, ...res } = await fetchCapped(method, url, headers, body, this.opts.timeoutMs);
        // A cut body is not parsed: its text starts with the note, and half a JSON is no answer.
        const raw = { request, ...res, body: cut ? res.text : parseBody(res.text, res.headers['content-type']) };
        ex = received(raw, typeof o.context === 'function' ? o.context(raw) : o.context);
      } catch (e) {
        await this.opts.pacer.release(key, null, null);
        if (again.unanswered && !retriedUnanswered) {
          // One lost answer is the network's; the same one twice is the target's.
          retriedUnanswered = true;
          continue;
        }
        const what = describeTransportError(e, this.opts.timeoutMs);
        this.opts.onNoAnswer?.({
          method,
          target: originAndPath(url),
          what,
          timeoutMs: this.opts.timeoutMs,
          retried: retriedUnanswered,
        });
        throw new TargetTransportError(`${method} ${url}: ${what}`);
      }
      const learn = ex.status !== 429 || (o.learnFrom429 ?? true);
      await this.opts.pacer.release(key, learn ? ex.headers : null, learn ? ex.status : null, { spent: !learn });
      if (ex.status === 429 && (o.retryOn429 ?? true) && attempt < MAX_429_RETRIES) {
        // Paced requests should never meet a 429; when one does (another client on the
        // tenant, a coarser bucket), wait for Reset and count it.
        this.opts.counter.throttled += 1;
        const rl = parseRateLimit(ex.headers);
        await sleep(Math.min(10_000, Math.max(200, (rl.resetAt ?? Date.now() + 1000) - Date.now() + 150)));
        continue;
      }
      if (again.passing(ex.status)) {
        // A deploy or a failover answers every request so for a while: waited out, within the bounds.
        resent ??= { method, target: originAndPath(url), status: ex.status, resends: 0, waitedMs: 0, final: ex.status };
        const pause = this.pause(ex, resent);
        if (typeof pause === 'number') {
          resent.resends += 1;
          resent.waitedMs += pause;
          await sleep(pause);
          continue;
        }
        resent.spent = pause.spent;
      }
      if (resent !== null) this.opts.onResent?.({ ...resent, final: ex.status });
      this.opts.onExchange?.(ex);
      return ex;
    }
  }

  /** The pause before the next resend, or the bound it would pass: the request's own, else the run's. */
  private pause(ex: Exchange, r: Resent): number | { spent: NonNullable<Resent['spent']> } {
    const { requestMs, run } = this.opts.resend;
    const asked = Math.max(MIN_RESEND_PAUSE_MS, retryPause(ex.headers['retry-after'], r.resends));
    const left = requestMs - r.waitedMs;
    if (left <= 0) return { spent: 'IDM_RESEND_WINDOW_S' };
    const granted = run.take(Math.min(asked, left));
    return granted > 0 ? granted : { spent: 'IDM_RESEND_RUN_S' };
  }

  patch(path: string, o: SendOptions = {}): Promise<Exchange> {
    return this.send('PATCH', path, o);
  }

  post(path: string, o: SendOptions = {}): Promise<Exchange> {
    return this.send('POST', path, o);
  }
}

class AuthorizationOverride extends ApiClient {
  constructor(
    opts: ClientOptions,
    private readonly value: string | null,
  ) {
    super(opts);
  }
  protected override authorization(): string | null {
    return this.value;
  }
}

/** Path of the resource-server update for an id or an identifier (percent-encoded). */
export function resourceServerPath(idOrIdentifier: string): string {
  return `/resource-servers/${encodeURIComponent(idOrIdentifier)}`;
}

export const EXPERIMENTS_PATH = '/experimentation/experiments';

/** Flat form encoding: scalars as text; nested values as JSON text (the spec defines no nesting rule). */
function formEncode(data: unknown): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries((data ?? {}) as Record<string, unknown>)) {
    p.append(k, v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  return p.toString();
}

// Helpers

/**
 * Whether a request may be sent again because sending it again cannot change the outcome: an
 * idempotent method (RFC 9110 §9.2.2), the management API's partial update, which sets the same
 * values again, or a client-credentials token request (RFC 6749 §4.4: a new token, nothing spent).
 * Such a request is resent when unanswered or answered 502, 503 or 504; a management creation, and
 * a client-credentials request carrying a client assertion (its `jti` may be spent, RFC 7523 §3),
 * only after a 503, which says the request was not handled (RFC 9110 §15.6.4).
 */
export function resendable(
  method: string,
  url: string,
  apiBase: string,
  data?: unknown,
): { unanswered: boolean; passing: (status: number) => boolean } {
  const m = method.toUpperCase();
  const management = url.startsWith(apiBase);
  const form =
    m === 'POST' && !management && typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const credentials = form.grant_type === 'client_credentials';
  const same =
    IDEMPOTENT.has(m) || (m === 'PATCH' && management) || (credentials && form.client_assertion === undefined);
  const unhandled = (management && m === 'POST') || credentials;
  return {
    unanswered: same,
    passing: (status) => PASSING.has(status) && (same || (unhandled && status === 503)),
  };
}

/**
 * RFC 9110 §10.2.3: Retry-After in seconds or as a date, bounded; when absent, a back-off of our
 * own doubling from 1 s at each of the `resends` already made, up to 8 s.
 */
export function retryPause(header: string | undefined, resends = 0, now = Date.now()): number {
  const backoff = Math.min(MAX_BACKOFF_MS, DEFAULT_RETRY_PAUSE_MS * 2 ** resends);
  if (header === undefined || header.trim() === '') return backoff;
  const seconds = /^\s*\d+\s*$/.test(header) ? Number(header) * 1000 : Date.parse(header) - now;
  return Number.isFinite(seconds) ? Math.min(MAX_RETRY_AFTER_MS, Math.max(0, seconds)) : backoff;
}

function originAndPath(url: string): string {
  const u = new URL(url);
  return `${u.origin}${u.pathname}`;
}

/** The pacing bucket of a request: client, method and route (resource-server ids folded). */
export function bucketKey(client: string, method: string, url: string, apiBase: string): string {
  let route = url.startsWith(apiBase) ? url.slice(apiBase.length) : new URL(url).pathname;
  route = route.split('?')[0]!.replace(/^(\/resource-servers\/)[^/]+/, '$1*');
  return `${client} ${method.toUpperCase()} ${route}`;
}

/**
 * One request, bounded: timeoutMs for headers and body together, the body read up to
 * MAX_STORED_BODY_BYTES and the connection dropped beyond (a note heads the kept text).
 * Bytes are sent as given (a malformed-JSON case stays malformed); redirects are not followed.
 */
async function fetchCapped(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
): Promise<{ status: number; headers: Record<string, string>; text: string; cut: boolean }> {
  const { request } = await loadUndici();
  const signal = AbortSignal.timeout(timeoutMs);
  const res = await request(url, {
    method: method as 'GET',
    // Some gateways refuse a request without a User-Agent; a test's own header wins.
    headers: { 'user-agent': 'idm-conformance', ...headers },
    ...(body !== undefined ? { body: Buffer.from(body, 'utf8') } : {}),
    signal,
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const chunks: Buffer[] = [];
  let kept = 0;
  let cut = false;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    const room = MAX_STORED_BODY_BYTES - kept;
    chunks.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    kept += Math.min(chunk.length, room);
    if (chunk.length > room) {
      cut = true;
      res.body.destroy();
      break;
    }
  }
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) flat[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  let text = new TextDecoder('utf-8').decode(Buffer.concat(chunks));
  if (cut) {
    const declared = flat['content-length'] ? ` of ${flat['content-length']} bytes (Content-Length)` : '';
    // First, so that evidence clipped for display still carries it.
    text = `[idm-conformance: the response body${declared} was cut after ${MAX_STORED_BODY_BYTES} bytes; the rest was not read and the evidence is capped]\n${text}`;
  }
  return { status: res.statusCode, headers: flat, text, cut };
}

/** What the target did, in words a user can act on (also a burst's unanswered request). */
export function describeTransportError(e: unknown, timeoutMs: number): string {
  const err = e as { name?: string; code?: string; message?: string; cause?: { code?: string } };
  const code = err.code ?? err.cause?.code;
  if (
    err.name === 'TimeoutError' ||
    err.name === 'AbortError' ||
    code === 'UND_ERR_HEADERS_TIMEOUT' ||
    code === 'UND_ERR_BODY_TIMEOUT'
  ) {
    return `the target did not answer in full within ${timeoutMs} ms (IDM_TIMEOUT_MS): a stalled response`;
  }
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return `the target reset the connection (${code})`;
  if (code === 'ECONNREFUSED') return 'the connection was refused (ECONNREFUSED)';
  return (err.message ?? String(e)).split('\n')[0]!;
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return undefined;
  if (contentType && /json/i.test(contentType)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

function lowerKeys(h: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k.toLowerCase()] = v;
  return out;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}
