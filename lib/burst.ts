// A bounded request burst with undici (outside Playwright's request context, so nothing
// paces it): sequential requests until the first 429 or `max`, whichever comes first.
// Every request is counted; the caller records the checks.
import { Pool } from 'undici';
import type { Exchange } from './http.ts';

export interface BurstOptions {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Upper bound on requests; the burst stops by itself at the first 429. */
  max: number;
  /** Tighter bound from the first answer's X-RateLimit-Limit: three buckets' worth plus 50 for refills. */
  boundByLimit?: boolean;
  timeoutMs: number;
  onSent?: () => void;
}

export interface BurstResult {
  sent: number;
  statuses: number[];
  /** X-RateLimit-Remaining of each answer, in order (null when absent). */
  remaining: Array<number | null>;
  first: Exchange | null;
  lastBefore429: Exchange | null;
  first429: Exchange | null;
  elapsedMs: number;
}

export async function burst(o: BurstOptions): Promise<BurstResult> {
  const url = new URL(o.url);
  const pool = new Pool(url.origin, { connections: 1, pipelining: 1 });
  const started = Date.now();
  const result: BurstResult = { sent: 0, statuses: [], remaining: [], first: null, lastBefore429: null, first429: null, elapsedMs: 0 };
  let max = o.max;
  try {
    for (let i = 0; i < max; i++) {
      o.onSent?.();
      result.sent++;
      const res = await pool.request({
        path: url.pathname + url.search,
        method: o.method as 'PATCH',
        headers: o.headers,
        ...(o.body !== undefined ? { body: o.body } : {}),
        headersTimeout: o.timeoutMs,
        bodyTimeout: o.timeoutMs,
      });
      const text = await res.body.text();
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
      let body: unknown = text === '' ? undefined : text;
      try {
        body = text === '' ? undefined : JSON.parse(text);
      } catch {
        /* not JSON */
      }
      const ex: Exchange = { request: { method: o.method, url: o.url, headers: o.headers, ...(o.body !== undefined ? { body: o.body } : {}) }, status: res.statusCode, headers, text, body };
      result.statuses.push(ex.status);
      const rem = headers['x-ratelimit-remaining'];
      result.remaining.push(rem !== undefined && /^\d+$/.test(rem.trim()) ? Number(rem) : null);
      if (!result.first) {
        result.first = ex;
        const limit = Number(headers['x-ratelimit-limit']);
        if (o.boundByLimit && Number.isFinite(limit) && limit > 0) max = Math.min(max, 3 * limit + 50);
      }
      if (ex.status === 429) {
        result.first429 = ex;
        break;
      }
      result.lastBefore429 = ex;
    }
  } finally {
    result.elapsedMs = Date.now() - started;
    await pool.close();
  }
  return result;
}
