// A bounded request burst with undici (outside Playwright's request context, so nothing
// paces it): a few requests in flight at once, so that even a slow link outruns a refilling
// bucket, until the first 429, `max` requests or `budgetMs`, whichever comes first; the result
// says which ended it. A bound reached without a 429 is read the same on any machine (the
// tenant's limit is absent or above what the run may spend: burstUnbreached). Every request is
// counted; the caller records the checks.
import { loadUndici, type Exchange } from './http.ts';
import type { Pacer } from './pacer.ts';
import { tenantSkip, type SkipRecord } from './skip-record.ts';

export interface BurstOptions {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Upper bound on requests; the burst stops by itself at the first 429. */
  max: number;
  /** Tighter bound from the first answer's X-RateLimit-Limit: three buckets' worth plus 50 for refills. */
  boundByLimit?: boolean;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** Time bound: no request starts after this many ms (default BURST_BUDGET_MS). */
  budgetMs?: number;
  timeoutMs: number;
  onSent?: () => void;
}

export interface BurstResult {
  sent: number;
  /** Statuses in the order the answers arrived. */
  statuses: number[];
  /** X-RateLimit-Remaining of each answer, in arrival order (null when absent). */
  remaining: Array<number | null>;
  /** Answers other than 429 that reported Remaining 0. */
  zeroRemainingAnswers: number;
  first: Exchange | null;
  lastBefore429: Exchange | null;
  first429: Exchange | null;
  elapsedMs: number;
  /** What ended the burst: its first 429, the request bound, or the time bound. */
  endedBy: '429' | 'requests' | 'time';
  /** The request bound in force (after boundByLimit). */
  max: number;
}

/** What a burst may spend in time: a slow machine ends on it rather than on the test's timeout. */
const BURST_BUDGET_MS = 60_000;

export async function burst(o: BurstOptions): Promise<BurstResult> {
  const url = new URL(o.url);
  const concurrency = Math.max(1, o.concurrency ?? 4);
  const { Pool } = await loadUndici();
  const pool = new Pool(url.origin, { connections: concurrency, pipelining: 1 });
  const started = Date.now();
  const result: BurstResult = {
    sent: 0,
    statuses: [],
    remaining: [],
    zeroRemainingAnswers: 0,
    first: null,
    lastBefore429: null,
    first429: null,
    elapsedMs: 0,
    endedBy: 'requests',
    max: o.max,
  };
  const budgetMs = o.budgetMs ?? BURST_BUDGET_MS;
  const inTime = () => Date.now() - started < budgetMs;
  const one = async (): Promise<void> => {
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
    for (const [k, v] of Object.entries(res.headers))
      if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
    let body: unknown = text === '' ? undefined : text;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      /* not JSON */
    }
    const ex: Exchange = {
      request: { method: o.method, url: o.url, headers: o.headers, ...(o.body !== undefined ? { body: o.body } : {}) },
      status: res.statusCode,
      headers,
      text,
      body,
    };
    result.statuses.push(ex.status);
    const rem = headers['x-ratelimit-remaining'];
    const remaining = rem !== undefined && /^\d+$/.test(rem.trim()) ? Number(rem) : null;
    result.remaining.push(remaining);
    if (!result.first) {
      result.first = ex;
      const limit = Number(headers['x-ratelimit-limit']);
      if (o.boundByLimit && Number.isFinite(limit) && limit > 0) result.max = Math.min(result.max, 3 * limit + 50);
    }
    if (ex.status === 429) result.first429 ??= ex;
    else {
      result.lastBefore429 = result.first429 ? result.lastBefore429 : ex;
      if (remaining === 0) result.zeroRemainingAnswers++;
    }
  };
  try {
    // The first answer comes alone: its Limit bounds the rest.
    await one();
    const lane = async (): Promise<void> => {
      while (!result.first429 && result.sent < result.max && inTime()) await one();
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
    result.endedBy = result.first429 ? '429' : result.sent >= result.max ? 'requests' : 'time';
  } finally {
    result.elapsedMs = Date.now() - started;
    await pool.close();
  }
  return result;
}

/**
 * A burst that ended on a bound without a 429: the tenant's own behaviour, whatever the machine's
 * speed (its limit is absent, or above what the run may spend), said with the bound that ended it.
 */
export function burstUnbreached(r: BurstResult, what: string): SkipRecord {
  const bound =
    r.endedBy === 'time'
      ? `the time bound (${Math.round(r.elapsedMs / 1000)} s) ended it`
      : `the request bound (${r.max}) ended it in ${r.elapsedMs} ms`;
  return tenantSkip(
    { answer: 'accepted' },
    `no 429 after ${r.sent} ${what} (${bound}): the tenant's limit is absent or above what the run may spend`,
  );
}

/**
 * A burst on a bucket the other workers keep off while it is drained (the pacer blocks it),
 * unblocked afterwards with the state the burst left it in, so the paced tests resume
 * from the truth rather than from a stale Remaining.
 */
export async function burstOnBlockedBucket(pacer: Pacer, key: string, o: BurstOptions): Promise<BurstResult> {
  await pacer.block(key, Date.now() + 120_000);
  let result: BurstResult | undefined;
  try {
    result = await burst(o);
    return result;
  } finally {
    const last = result?.first429 ?? result?.lastBefore429 ?? null;
    await pacer.unblock(key, last?.headers ?? null, last?.status ?? null);
  }
}
