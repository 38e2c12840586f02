// A bounded request burst with undici (outside Playwright's request context, so nothing paces it): a
// few requests in flight at once, more while the answers' Remaining stops falling (a slow machine or
// a distant tenant must still outrun a bucket that refills), until the first 429, `max` requests or
// `budgetMs`; the result says which ended it, and a bound reached without a 429 is read the same on
// any machine (burstUnbreached). Every request is counted; the caller records the checks.
import { describeTransportError, loadUndici, type Exchange } from './http.ts';
import { received } from './answer-class.ts';
import type { Pacer } from './pacer.ts';
import { noAnswerSkip, tenantSkip, type SkipRecord } from './skip-record.ts';

export interface BurstOptions {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
  /** Upper bound on requests; the burst stops by itself at the first 429. */
  max: number;
  /** Tighter bound from the first answer's X-RateLimit-Limit: three buckets' worth plus 50 for refills. */
  boundByLimit?: boolean;
  /** Requests in flight at first (default 4); doubled, up to MAX_IN_FLIGHT, while the bucket does not drain. */
  concurrency?: number;
  /** Time bound: no request starts after this many ms (default BURST_BUDGET_MS). */
  budgetMs?: number;
  timeoutMs: number;
  onSent?: () => void;
}

export interface BurstResult {
  /** The burst's own request, named in a skip even when not one was answered. */
  method: string;
  url: string;
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
  endedBy: '429' | 'requests' | 'time' | 'no-answer';
  /** Why a request got no answer (timeout, reset) when sent twice, when one did: the burst stops there. */
  unanswered: string | null;
  /** The request bound in force (after boundByLimit, and a bucket's worth more for each doubling). */
  max: number;
  /** Requests in flight at the end. */
  inFlight: number;
}

/** What a burst may spend in time: a slow machine ends on it rather than on the test's timeout. */
const BURST_BUDGET_MS = 60_000;
/** In flight at most: what a refill of a few hundred a second at a 150 ms round trip needs. */
const MAX_IN_FLIGHT = 64;
/**
 * How long a burst's request may take: the burst loads the tenant on purpose, so an answer slowed
 * by the run's own load is still an answer (Hydra on SQLite took over 8 s once in a few hundred on
 * a busy machine, and the two runs of its leg then disagreed): four times IDM_TIMEOUT_MS, at most
 * 30 s (never less than IDM_TIMEOUT_MS).
 */
const BURST_PATIENCE_MS = 30_000;

export async function burst(o: BurstOptions): Promise<BurstResult> {
  const url = new URL(o.url);
  const concurrency = Math.max(1, Math.min(MAX_IN_FLIGHT, o.concurrency ?? 4));
  const { Pool } = await loadUndici();
  const pool = new Pool(url.origin, { connections: MAX_IN_FLIGHT, pipelining: 1 });
  const started = Date.now();
  const result: BurstResult = {
    method: o.method,
    url: o.url,
    sent: 0,
    statuses: [],
    remaining: [],
    zeroRemainingAnswers: 0,
    first: null,
    lastBefore429: null,
    first429: null,
    elapsedMs: 0,
    endedBy: 'requests',
    unanswered: null,
    max: o.max,
    inFlight: concurrency,
  };
  const drain: Drain = { low: Number.POSITIVE_INFINITY, lowAt: 0, bucket: 0, first: null, rampAt: 0 };
  const one = async (): Promise<void> => {
    o.onSent?.();
    result.sent++;
    let answer = await send(pool, url, o);
    // One lost answer in a stream of the same request is the network's (a connection reset under
    // the load the burst makes on purpose): it is sent again once, which cannot change what the
    // burst measures. The same one lost twice is the run's one cause (burstUnbreached), never an
    // error of the test.
    if ('unanswered' in answer && !result.unanswered) {
      o.onSent?.();
      result.sent++;
      answer = await send(pool, url, o);
    }
    if ('unanswered' in answer) result.unanswered ??= answer.unanswered;
    else recordAnswer(result, answer, drain, o);
  };
  try {
    // The first answer comes alone: its Limit bounds the rest.
    await one();
    await inLanes(result, drain, o, one, () => Date.now() - started < (o.budgetMs ?? BURST_BUDGET_MS));
    result.endedBy = result.first429
      ? '429'
      : result.unanswered
        ? 'no-answer'
        : result.sent >= result.max
          ? 'requests'
          : 'time';
  } finally {
    result.elapsedMs = Date.now() - started;
    await pool.close();
  }
  return result;
}

/**
 * Whether the bucket drains: it does while Remaining keeps reaching new lows; when it has not for a
 * window of answers, the refill keeps pace with the rate in flight.
 */
interface Drain {
  low: number;
  /** Answers counted when the last new low came. */
  lowAt: number;
  /** The first answer's X-RateLimit-Limit (0: none). */
  bucket: number;
  /** The first Remaining reported, and the answers counted at the last doubling. */
  first: number | null;
  rampAt: number;
}

/** The lanes of requests in flight, twice as many each time the bucket does not drain at the rate they send. */
async function inLanes(
  result: BurstResult,
  drain: Drain,
  o: BurstOptions,
  one: () => Promise<void>,
  inTime: () => boolean,
): Promise<void> {
  const lanes: Array<Promise<void>> = [];
  const lane = async (): Promise<void> => {
    while (!result.first429 && !result.unanswered && result.sent < result.max && inTime()) {
      await one();
      // Only a bucket that reports its Remaining shows it refills: without one, no more in flight.
      const window = Math.max(8, 2 * result.inFlight);
      const refilling = Number.isFinite(drain.low) && result.statuses.length - drain.lowAt >= window;
      const slow = result.statuses.length - drain.rampAt >= window && tooSlowToEmpty(result, drain);
      if ((refilling || slow) && result.inFlight < MAX_IN_FLIGHT && !result.first429) {
        // Not draining at this rate, or too slowly to empty the bucket within the bound (a refill
        // nearly as fast as the requests: a distant tenant's): twice as many in flight, and a
        // bucket's worth more to spend. Either way the same on any machine.
        drain.lowAt = result.statuses.length;
        drain.rampAt = result.statuses.length;
        const more = Math.min(result.inFlight, MAX_IN_FLIGHT - result.inFlight);
        result.inFlight += more;
        if (o.boundByLimit && drain.bucket > 0) result.max = Math.min(o.max, result.max + drain.bucket);
        for (let i = 0; i < more; i++) lanes.push(lane());
      }
    }
  };
  for (let i = 0; i < result.inFlight; i++) lanes.push(lane());
  // Lanes added while waiting are awaited too.
  for (let i = 0; i < lanes.length; i++) await lanes[i];
}

function patience(o: BurstOptions): number {
  return Math.max(o.timeoutMs, Math.min(4 * o.timeoutMs, BURST_PATIENCE_MS));
}

/** One request of the burst on its own connection: the exchange, or why it got no answer. */
async function send(
  pool: InstanceType<Awaited<ReturnType<typeof loadUndici>>['Pool']>,
  url: URL,
  o: BurstOptions,
): Promise<Exchange | { unanswered: string }> {
  let res: Awaited<ReturnType<typeof pool.request>>;
  let text: string;
  try {
    res = await pool.request({
      path: url.pathname + url.search,
      method: o.method as 'PATCH',
      headers: o.headers,
      ...(o.body !== undefined ? { body: o.body } : {}),
      headersTimeout: patience(o),
      bodyTimeout: patience(o),
    });
    text = await res.body.text();
  } catch (e) {
    return { unanswered: describeTransportError(e, patience(o)) };
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers))
    if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  let body: unknown = text === '' ? undefined : text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return received({
    request: { method: o.method, url: o.url, headers: o.headers, ...(o.body !== undefined ? { body: o.body } : {}) },
    status: res.statusCode,
    headers,
    text,
    body,
  });
}

/** An answer counted: its status and Remaining, the bound its Limit sets, the first 429 and the last answer before it. */
function recordAnswer(result: BurstResult, ex: Exchange, drain: Drain, o: BurstOptions): void {
  result.statuses.push(ex.status);
  const rem = ex.headers['x-ratelimit-remaining'];
  const remaining = rem !== undefined && /^\d+$/.test(rem.trim()) ? Number(rem) : null;
  result.remaining.push(remaining);
  if (!result.first) {
    result.first = ex;
    const limit = Number(ex.headers['x-ratelimit-limit']);
    if (Number.isFinite(limit) && limit > 0) drain.bucket = limit;
    if (o.boundByLimit && drain.bucket > 0) result.max = Math.min(result.max, 3 * drain.bucket + 50);
  }
  if (remaining !== null) drain.first ??= remaining;
  if (remaining !== null && remaining < drain.low) {
    drain.low = remaining;
    drain.lowAt = result.statuses.length;
  }
  if (ex.status === 429) result.first429 ??= ex;
  else {
    result.lastBefore429 = result.first429 ? result.lastBefore429 : ex;
    if (remaining === 0) result.zeroRemainingAnswers++;
  }
}

/** Whether the bucket, draining at the rate seen so far, would not be empty before the request bound. */
function tooSlowToEmpty(result: BurstResult, drain: Drain): boolean {
  if (drain.first === null || !Number.isFinite(drain.low) || drain.low <= 0) return false;
  const perAnswer = (drain.first - drain.low) / result.statuses.length;
  return perAnswer <= 0 || drain.low / perAnswer > result.max - result.sent;
}

/**
 * A burst that ended on a bound without a 429: the tenant's own behaviour, whatever the machine's
 * speed (its limit is absent, or above what the run may spend), said with the bound that ended it.
 */
export function burstUnbreached(r: BurstResult, what: string): SkipRecord {
  if (r.unanswered !== null) {
    const u = new URL(r.url);
    return noAnswerSkip({
      method: r.method,
      target: `${u.origin}${u.pathname}`,
      what: `a burst's request after ${r.sent - 2} others: ${r.unanswered}`,
      retried: true,
    });
  }
  const bound =
    r.endedBy === 'time'
      ? `the time bound (${Math.round(r.elapsedMs / 1000)} s) ended it`
      : `the request bound (${r.max}) ended it in ${r.elapsedMs} ms`;
  const reported = r.remaining.filter((n): n is number => n !== null);
  const remaining =
    reported.length > 0
      ? `X-RateLimit-Remaining down to ${Math.min(...reported)}`
      : 'no answer reported X-RateLimit-Remaining';
  return tenantSkip(
    { answer: 'accepted' },
    `no 429 after ${r.sent} ${what}, ${remaining} (${bound}): the tenant's limit is absent or above what the run may spend`,
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
