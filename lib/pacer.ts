// Pacing from X-RateLimit-*: before each request the pacer reserves one request from the
// bucket's last reported Remaining, minus requests in flight from every worker; when
// nothing is left it waits until Reset. State lives in one file shared by all workers, so
// two workers against a tenant allowing 2 requests per second still never meet a 429.
// The spec does not say how buckets are keyed; the key is client + method + route, which
// is the finest the headers can describe, and pacingReserve absorbs a coarser keying.
import { existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { withLock, sleep } from './lock.ts';

export interface BucketState {
  /** Remaining as last reported; null when unknown (never seen, or past Reset). */
  remaining: number | null;
  /** Epoch ms at which the bucket refills, as reported. */
  resetAt: number | null;
  limit: number | null;
  /** Requests in flight per worker pid (a killed worker's count is dropped). */
  inflight: Record<string, number>;
  /** The tenant sent no rate-limit headers on this route: nothing to pace by. */
  unmetered: boolean;
  /** A burst test owns the bucket until then (epoch ms). */
  blockedUntil: number;
}

export interface RateLimitHeaders {
  limit: number | null;
  remaining: number | null;
  resetAt: number | null;
}

/** Parses the three headers; Reset as epoch seconds, or as delta seconds when small. */
export function parseRateLimit(headers: Record<string, string>, now = Date.now()): RateLimitHeaders {
  const num = (name: string): number | null => {
    const v = headers[name] ?? headers[name.toLowerCase()];
    if (v === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(v)) return null;
    return Number(v);
  };
  const reset = num('x-ratelimit-reset');
  let resetAt: number | null = null;
  if (reset !== null) resetAt = reset > 1e9 ? reset * 1000 : now + reset * 1000;
  const retryAfter = num('retry-after');
  if (resetAt === null && retryAfter !== null) resetAt = now + retryAfter * 1000;
  return { limit: num('x-ratelimit-limit'), remaining: num('x-ratelimit-remaining'), resetAt };
}

const EMPTY: BucketState = { remaining: null, resetAt: null, limit: null, inflight: {}, unmetered: false, blockedUntil: 0 };
/** Reset is reported in whole seconds; wait a little past it. */
const RESET_SLACK_MS = 150;

export class Pacer {
  private readonly file: string;
  private readonly lock: string;
  constructor(runDir: string, private readonly reserve: number) {
    this.file = join(runDir, 'pacer.json');
    this.lock = join(runDir, 'pacer.lock');
  }

  /** Waits until a request on `key` may be sent, and counts it as in flight. Returns ms waited. */
  async acquire(key: string): Promise<number> {
    const started = Date.now();
    for (;;) {
      const waitMs = await withLock(this.lock, () => {
        const all = this.read();
        const st = { ...EMPTY, ...all[key] };
        st.inflight = liveOnly(st.inflight);
        const inflight = total(st.inflight);
        const now = Date.now();
        let wait = 0;
        if (st.blockedUntil > now) wait = st.blockedUntil - now;
        else if (st.unmetered) wait = 0;
        else {
          if (st.resetAt !== null && now >= st.resetAt + RESET_SLACK_MS) {
            st.remaining = null; // a new window: its size is unknown until a response says
            st.resetAt = null;
          }
          if (st.remaining === null) wait = inflight === 0 ? 0 : 20; // probe one at a time
          else if (st.remaining - inflight > this.reserve) wait = 0;
          else wait = st.resetAt !== null ? Math.max(20, st.resetAt + RESET_SLACK_MS - now) : 250;
        }
        if (wait === 0) {
          st.inflight[PID] = (st.inflight[PID] ?? 0) + 1;
          all[key] = st;
          this.write(all);
        }
        return wait;
      });
      if (waitMs === 0) return Date.now() - started;
      await sleep(Math.min(waitMs, 1000));
    }
  }

  /** Records what the response said about the bucket (null headers: the request failed). */
  async release(key: string, headers: Record<string, string> | null, status: number | null): Promise<void> {
    await withLock(this.lock, () => {
      const all = this.read();
      const st = { ...EMPTY, ...all[key] };
      st.inflight = { ...st.inflight, [PID]: Math.max(0, (st.inflight[PID] ?? 0) - 1) };
      if (headers) this.apply(st, headers, status);
      all[key] = st;
      this.write(all);
    });
  }

  /** For the burst test: keep every other worker off the bucket until `until` (epoch ms). */
  async block(key: string, until: number): Promise<void> {
    await withLock(this.lock, () => {
      const all = this.read();
      all[key] = { ...EMPTY, ...all[key], blockedUntil: until };
      this.write(all);
    });
  }

  /** Ends a block and records the bucket state the burst left behind. */
  async unblock(key: string, headers: Record<string, string> | null, status: number | null): Promise<void> {
    await withLock(this.lock, () => {
      const all = this.read();
      const st = { ...EMPTY, ...all[key], blockedUntil: 0 };
      if (headers) this.apply(st, headers, status);
      all[key] = st;
      this.write(all);
    });
  }

  private apply(st: BucketState, headers: Record<string, string>, status: number | null): void {
    const rl = parseRateLimit(headers);
    if (rl.remaining === null && rl.resetAt === null) {
      if (status !== 429) st.unmetered = st.remaining === null;
      else {
        st.remaining = 0;
        st.resetAt = Date.now() + 1000;
      }
      return;
    }
    st.unmetered = false;
    st.remaining = status === 429 ? 0 : rl.remaining;
    st.resetAt = rl.resetAt;
    st.limit = rl.limit;
  }

  private read(): Record<string, BucketState> {
    // Buckets written by an older layout (a number) read as empty in-flight maps.
    if (!existsSync(this.file)) return {};
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as Record<string, BucketState>;
    } catch {
      return {};
    }
  }

  private write(all: Record<string, BucketState>): void {
    const tmp = `${this.file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(all));
    renameSync(tmp, this.file);
  }
}

// Helpers

const PID = String(process.pid);

function total(m: Record<string, number>): number {
  return Object.values(m).reduce((a, b) => a + b, 0);
}

/** Drops the in-flight counts of workers that no longer exist. */
function liveOnly(m: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [pid, n] of Object.entries(typeof m === 'object' && m ? m : {})) {
    if (n <= 0) continue;
    if (pid === PID) out[pid] = n;
    else {
      try {
        process.kill(Number(pid), 0);
        out[pid] = n;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ESRCH') out[pid] = n;
      }
    }
  }
  return out;
}
