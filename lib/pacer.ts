// Pacing from X-RateLimit-*, state shared by all workers so that together they never meet a 429.
// How a bucket's refill and kind are learned, and when one is given up: lib/README.md, *Pacing*.
// Buckets are keyed client + method + route, the finest the headers can describe (the spec does
// not say); pacingReserve absorbs a coarser keying.
import { existsSync, readFileSync, writeFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { withLock, sleep } from './lock.ts';
import { IdmError } from './errors.ts';

export interface Anchor {
  /** Epoch ms at or before which the answer's request was sent. */
  sentAt: number;
  remaining: number;
  /** `served` after this answer, and requests still in flight then (may have been served before it). */
  served: number;
  inflight: number;
}

export interface BucketState {
  /** Remaining as last reported; null when unknown (never seen, or past Reset). */
  remaining: number | null;
  /** Epoch ms at which the bucket refills, as reported; null when absent or unparseable. */
  resetAt: number | null;
  limit: number | null;
  /** Epoch ms at which the last report was received. */
  seenAt: number;
  /** Requests in flight per worker pid (a killed worker's count is dropped). */
  inflight: Record<string, number>;
  /** The tenant sent no rate-limit headers on this route: nothing to pace by. */
  unmetered: boolean;
  /** A burst test owns the bucket until then (epoch ms). */
  blockedUntil: number;
  /** Answers other than 429 recorded on this bucket. */
  served: number;
  /** Earlier answers the refill rate is measured from (a few, spread over the run). */
  anchors: Anchor[];
  /** Refill per ms the bucket is known to reach if it refills at all (a lower bound; 0: none seen). */
  rate: number;
  /** A first guess from Reset (Limit − Remaining over the time to Reset), for requests that spend a real token only. */
  guess: number;
  kind: 'unknown' | 'refill' | 'fixed';
  /** Answers where the guessed refill did not show (a second one marks the bucket fixed). */
  misses: number;
  /** The guess has once promised a refill that did not show: from then on it creeps (GUESS_UP), before it climbs (GUESS_UP_START). */
  guessSettled: boolean;
  /** Epoch ms since which the bucket has been empty without a usable Reset or progress; 0 when not. */
  stalledSince: number;
  /** Requests let through blind (empty, no Reset) since the last progress: the back-off grows with them. */
  blindProbes: number;
  /** Set once the bucket is given up on: every later request fails with it. */
  failed: string | null;
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

export function emptyBucket(): BucketState {
  return {
    remaining: null,
    resetAt: null,
    limit: null,
    seenAt: 0,
    inflight: {},
    unmetered: false,
    blockedUntil: 0,
    served: 0,
    anchors: [],
    rate: 0,
    guess: 0,
    kind: 'unknown',
    misses: 0,
    guessSettled: false,
    stalledSince: 0,
    blindProbes: 0,
    failed: null,
  };
}

/** Reset is reported in whole seconds; wait a little past it. */
const RESET_SLACK_MS = 150;
/** A bucket empty without progress (no usable Reset, or a Reset that refills nothing) for this long is given up on. */
const STALL_LIMIT_MS = 60_000;
/** Back-off of the blind probes on an empty bucket without a usable Reset: 1 s, 2 s, 4 s, then 8 s. */
const BLIND_BACKOFF_MS = [1000, 2000, 4000, 8000];
const MAX_ANCHORS = 12;
/** How the guess climbs, creeps and backs off (why these steps: lib/README.md, *Pacing*). */
const GUESS_UP_START = 1.1;
const GUESS_UP = 1.01;
const GUESS_DOWN = 0.9;
const ANCHOR_SPACING_MS = 500;

export type Decision = { go: true; blind?: boolean } | { go: false; waitMs: number; reason: string };

/**
 * Whether one more request may go now on this bucket (pure: the state as read, the time,
 * the reserve, requests in flight in every worker). Never mutates `st`.
 */
export function decide(st: BucketState, now: number, reserve: number, inflight: number): Decision {
  if (st.failed) throw new IdmError('IDM_E_TARGET_UNUSABLE', st.failed);
  if (st.blockedUntil > now)
    return { go: false, waitMs: st.blockedUntil - now, reason: 'a burst test holds the bucket' };
  if (st.unmetered) return { go: true };
  let remaining = st.remaining;
  let seenAt = st.seenAt;
  if (st.resetAt !== null && now >= st.resetAt + RESET_SLACK_MS) {
    // Past Reset: a refilling bucket is full, and otherwise a new window of unknown size.
    if (st.kind === 'refill' && st.limit !== null) {
      remaining = st.limit;
      seenAt = now;
    } else remaining = null;
  }
  if (remaining === null)
    return inflight === 0
      ? { go: true }
      : { go: false, waitMs: 20, reason: 'one probe at a time on an unknown bucket' };
  const left = remaining - inflight;
  if (left > reserve) return { go: true };
  // The refill since the last report, where the bucket is known (or, spending a real token, guessed) to refill.
  const spendsRealToken = left >= 1;
  const rate =
    st.kind === 'fixed'
      ? 0
      : st.kind === 'refill'
        ? Math.max(st.rate, spendsRealToken ? st.guess : 0)
        : spendsRealToken
          ? Math.max(st.rate, st.guess)
          : 0;
  let waitMs = Number.POSITIVE_INFINITY;
  if (rate > 0) {
    const accrued = Math.floor(rate * Math.max(0, now - seenAt));
    const cap = st.limit ?? Number.POSITIVE_INFINITY;
    if (Math.min(cap, remaining + accrued) - inflight > reserve) return { go: true };
    const need = reserve + inflight + 1 - remaining;
    if (remaining + need <= cap) waitMs = Math.max(5, Math.ceil(need / rate - (now - seenAt)));
  }
  if (st.resetAt !== null && st.resetAt + RESET_SLACK_MS > now) {
    return {
      go: false,
      waitMs: Math.min(waitMs, st.resetAt + RESET_SLACK_MS - now),
      reason: Number.isFinite(waitMs) ? 'waiting for the refill' : 'waiting for Reset',
    };
  }
  if (Number.isFinite(waitMs)) return { go: false, waitMs, reason: 'waiting for the refill' };
  // Empty, and no usable Reset: the target does not say when it refills. Probe one request
  // at a time with a growing back-off (a 429 then is the target's doing, and is waited out).
  if (inflight > 0) return { go: false, waitMs: 50, reason: 'empty without Reset: a probe is in flight' };
  const backoff = BLIND_BACKOFF_MS[Math.min(st.blindProbes, BLIND_BACKOFF_MS.length - 1)]!;
  const due = st.seenAt + backoff;
  return due <= now
    ? { go: true, blind: true }
    : { go: false, waitMs: due - now, reason: 'empty without a usable X-RateLimit-Reset: back-off before a probe' };
}

/** What one answer teaches about the bucket (pure apart from returning the new state). */
export interface Answer {
  headers: Record<string, string>;
  status: number;
  /** Epoch ms at or before which the request was sent, and at which its answer arrived. */
  sentAt: number;
  receivedAt: number;
  /** Requests on the bucket still in flight, in every worker, once this one is counted out. */
  inflightAfter: number;
  key: string;
  reserve: number;
  /** Default STALL_LIMIT_MS. */
  stallLimitMs?: number;
}

export function learn(prev: BucketState, o: Answer): BucketState {
  const st: BucketState = { ...prev, anchors: [...prev.anchors] };
  const rl = parseRateLimit(o.headers, o.receivedAt);
  const now = o.receivedAt;
  if (rl.remaining === null && rl.resetAt === null) {
    if (o.status !== 429) {
      st.unmetered = st.remaining === null;
      return st;
    }
    // A 429 without the headers: empty for an unknown while.
    return refused(st, null, o, prev.seenAt);
  }
  st.unmetered = false;
  st.limit = rl.limit ?? st.limit;
  if (o.status === 429) {
    // Refused: whatever the model said, the bucket is empty; a learned refill that let this
    // request go was wrong, so the bucket is paced by Reset from now on.
    if (
      st.remaining !== null &&
      st.remaining - (o.inflightAfter + 1) <= 0 &&
      st.kind !== 'fixed' &&
      (st.rate > 0 || st.guess > 0)
    )
      st.kind = 'fixed';
    return refused(st, rl.resetAt, o, prev.seenAt);
  }
  const remaining = rl.remaining;
  st.served += 1;
  if (remaining !== null) {
    if (
      prev.remaining !== null &&
      prev.seenAt > 0 &&
      o.inflightAfter === 0 &&
      o.sentAt >= prev.seenAt &&
      st.served - prev.served === 1
    )
      learnFromPrevious(st, prev, prev.remaining, o, remaining);
    learnRate(st, o, remaining, rl.resetAt);
  }
  st.remaining = remaining;
  st.resetAt = rl.resetAt;
  st.seenAt = now;
  return stallCheck(st, now, o, true, prev.seenAt); // served: progress
}

/** A 429: the bucket is empty until `resetAt` (null: an unknown while). */
function refused(st: BucketState, resetAt: number | null, o: Answer, prevSeenAt: number): BucketState {
  st.remaining = 0;
  st.resetAt = resetAt;
  st.seenAt = o.receivedAt;
  return stallCheck(st, o.receivedAt, o, false, prevSeenAt);
}

/**
 * This answer alone since the previous one (`before`: the Remaining it reported): did the bucket
 * refill in between? That tells a refilling bucket from a fixed window, and moves the guess.
 */
function learnFromPrevious(st: BucketState, prev: BucketState, before: number, o: Answer, remaining: number): void {
  const rose = remaining > before - 1;
  // Sent on the learned refill (the reported Remaining alone would have held it back)?
  const onRefill = before <= o.reserve && (prev.resetAt === null || o.sentAt < prev.resetAt + RESET_SLACK_MS);
  const promised =
    onRefill && (prev.kind === 'fixed' ? 0 : Math.max(prev.rate, prev.guess)) * (o.sentAt - prev.seenAt) >= 1;
  // Same window whatever the window: received before the previous answer's Reset minus its rounding.
  const sameWindow = prev.resetAt !== null && o.receivedAt < prev.resetAt - 1000;
  if (rose && sameWindow) {
    st.kind = 'refill';
    st.misses = 0;
  } else if (!rose && promised && sameWindow && st.kind !== 'refill') {
    // The learned refill promised at least one request and none came: a fixed window
    // (at once when the proven rate promised it, else at the second miss).
    st.misses += 1;
    if (prev.rate * (o.sentAt - prev.seenAt) >= 1 || st.misses >= 2) st.kind = 'fixed';
  }
  // The guess probes a little beyond what is proven, backing off when the refill did not show.
  if (rose && promised) st.guess = Math.max(st.guess, st.rate) * (st.guessSettled ? GUESS_UP : GUESS_UP_START);
  else if (!rose && promised) {
    st.guess = Math.max(st.rate, st.guess * GUESS_DOWN);
    st.guessSettled = true;
  }
}

/** The refill rate proven by the anchors, this answer kept as one, and the first guess from Reset. */
function learnRate(st: BucketState, o: Answer, remaining: number, resetAt: number | null): void {
  const now = o.receivedAt;
  // Refill rate: the best lower bound over the anchors.
  for (const a of st.anchors) {
    const span = now - a.sentAt;
    const rise = remaining - a.remaining + (st.served - a.served - a.inflight) - 1;
    if (span > 0 && rise > 0) st.rate = Math.max(st.rate, rise / span);
  }
  const last = st.anchors[st.anchors.length - 1];
  if (!last || o.sentAt - last.sentAt >= ANCHOR_SPACING_MS) {
    st.anchors.push({ sentAt: o.sentAt, remaining, served: st.served, inflight: o.inflightAfter });
    if (st.anchors.length > MAX_ANCHORS) st.anchors.splice(1, 1); // keep the oldest: the longest span
  }
  if (st.limit !== null && resetAt !== null && resetAt > now && remaining < st.limit && st.guess === 0) {
    st.guess = (st.limit - remaining) / (resetAt - now);
  }
  // A guess below the proven rate would never be tried (lib/README.md, *Pacing*): until settled,
  // it stays a step above what is proven.
  if (!st.guessSettled && st.rate > 0) st.guess = Math.max(st.guess, st.rate * GUESS_UP_START);
}

/**
 * A request served whose answer said nothing of this bucket (its headers were another limit's):
 * the bucket as it is estimated now — refilled as far as proven, full past its Reset — less
 * that request.
 */
function spentUnseen(prev: BucketState, now: number): BucketState {
  if (prev.remaining === null) return prev;
  const spent = { served: prev.served + 1 };
  // Past Reset the bucket is full again (a new window): that request took one of its `limit`;
  // with no limit known, it is taken as the last, and the next waits for a refill or a probe.
  if (prev.resetAt !== null && now >= prev.resetAt + RESET_SLACK_MS)
    return { ...prev, ...spent, remaining: prev.limit === null ? 0 : prev.limit - 1, seenAt: now, resetAt: null };
  const accrued = prev.kind !== 'fixed' && prev.rate > 0 ? Math.floor(prev.rate * (now - prev.seenAt)) : 0;
  if (accrued > 0) {
    const refilled = Math.min(prev.limit ?? Number.POSITIVE_INFINITY, prev.remaining + accrued);
    return { ...prev, ...spent, remaining: Math.max(0, refilled - 1), seenAt: now };
  }
  return { ...prev, ...spent, remaining: Math.max(0, prev.remaining - 1) };
}

/** Tracks how long the bucket has refused (or been empty) without serving, and gives it up past the limit. */
function stallCheck(st: BucketState, now: number, o: Answer, progress: boolean, prevSeenAt: number): BucketState {
  if (progress) {
    st.stalledSince = 0;
    st.blindProbes = 0;
    return st;
  }
  // Probes on an empty bucket come at most 8 s apart: a longer gap since the previous answer
  // was idleness, not a stall, and starts the count anew.
  if (st.stalledSince === 0 || now - prevSeenAt > 2 * BLIND_BACKOFF_MS[BLIND_BACKOFF_MS.length - 1]!)
    st.stalledSince = now;
  else if (now - st.stalledSince > (o.stallLimitMs ?? STALL_LIMIT_MS)) {
    const why =
      st.resetAt === null ? 'without a usable X-RateLimit-Reset' : 'and did not refill by its X-RateLimit-Reset';
    st.failed = `the rate-limit bucket "${o.key}" has reported no request left ${why} for ${Math.round((now - st.stalledSince) / 1000)} s; the suite stops sending on it`;
  }
  return st;
}

export class Pacer {
  private readonly file: string;
  private readonly lock: string;
  /** Acquire times of this process's requests in flight, per bucket (oldest first). */
  private readonly sent = new Map<string, number[]>();
  constructor(
    runDir: string,
    private readonly reserve: number,
    private readonly opts: { stallLimitMs?: number } = {},
  ) {
    this.file = join(runDir, 'pacer.json');
    this.lock = join(runDir, 'pacer.lock');
  }

  /** Waits until a request on `key` may be sent, and counts it as in flight. Returns ms waited. */
  async acquire(key: string): Promise<number> {
    const started = Date.now();
    for (;;) {
      const waitMs = await withLock(this.lock, () => {
        const all = this.read();
        const st = { ...emptyBucket(), ...all[key] };
        st.inflight = liveOnly(st.inflight);
        const now = Date.now();
        const d = decide(st, now, this.reserve, total(st.inflight));
        if (!d.go) return d.waitMs;
        if (d.blind) st.blindProbes += 1;
        st.inflight[PID] = (st.inflight[PID] ?? 0) + 1;
        all[key] = st;
        this.write(all);
        return 0;
      });
      if (waitMs === 0) {
        const q = this.sent.get(key) ?? [];
        q.push(Date.now());
        this.sent.set(key, q);
        return Date.now() - started;
      }
      await sleep(Math.min(waitMs, 1000));
    }
  }

  /**
   * Records what the response said about the bucket (null headers: the request failed).
   * `spent`: the request was served but its headers describe another limit (a per-account block):
   * nothing is learned from them, yet the bucket is one request emptier than last reported.
   */
  async release(
    key: string,
    headers: Record<string, string> | null,
    status: number | null,
    o: { spent?: boolean } = {},
  ): Promise<void> {
    // The oldest of this process's requests in flight: at or before this one was sent.
    const sentAt = this.sent.get(key)?.shift() ?? Date.now();
    await withLock(this.lock, () => {
      const all = this.read();
      let st: BucketState = { ...emptyBucket(), ...all[key] };
      st.inflight = { ...liveOnly(st.inflight), [PID]: Math.max(0, (st.inflight[PID] ?? 0) - 1) };
      if (o.spent && !headers) st = spentUnseen(st, Date.now());
      if (headers)
        st = learn(st, {
          headers,
          status: status ?? 0,
          sentAt,
          receivedAt: Date.now(),
          inflightAfter: total(st.inflight),
          key,
          reserve: this.reserve,
          ...this.opts,
        });
      all[key] = st;
      this.write(all);
    });
  }

  /**
   * Records an answer to a request the suite could not pace (a redirect the browser followed by
   * itself): served on the bucket now, never counted in flight.
   */
  async note(key: string, headers: Record<string, string>, status: number): Promise<void> {
    await withLock(this.lock, () => {
      const all = this.read();
      const st: BucketState = { ...emptyBucket(), ...all[key] };
      st.inflight = liveOnly(st.inflight);
      const now = Date.now();
      all[key] = learn(st, {
        headers,
        status,
        sentAt: now,
        receivedAt: now,
        inflightAfter: total(st.inflight),
        key,
        reserve: this.reserve,
        ...this.opts,
      });
      this.write(all);
    });
  }

  /** For the burst test: keep every other worker off the bucket until `until` (epoch ms). */
  async block(key: string, until: number): Promise<void> {
    await withLock(this.lock, () => {
      const all = this.read();
      all[key] = { ...emptyBucket(), ...all[key], blockedUntil: until };
      this.write(all);
    });
  }

  /** Ends a block and records the bucket state the burst left behind. */
  async unblock(key: string, headers: Record<string, string> | null, status: number | null): Promise<void> {
    await withLock(this.lock, () => {
      const all = this.read();
      let st: BucketState = { ...emptyBucket(), ...all[key], blockedUntil: 0 };
      if (headers) {
        // The burst's answers say nothing about refill between ours: learn only the state.
        const learned = learn(
          { ...st, anchors: [] },
          {
            headers,
            status: status ?? 0,
            sentAt: Date.now(),
            receivedAt: Date.now(),
            inflightAfter: total(liveOnly(st.inflight)),
            key,
            reserve: this.reserve,
            ...this.opts,
          },
        );
        // The burst's own 429 is no stall of the paced requests.
        st = {
          ...learned,
          anchors: [],
          served: st.served,
          kind: st.kind,
          rate: st.rate,
          guess: st.guess || learned.guess,
          misses: st.misses,
          stalledSince: 0,
          blindProbes: 0,
        };
      }
      all[key] = st;
      this.write(all);
    });
  }

  /** The state of one bucket as last written (for self-tests and diagnostics). */
  peek(key: string): BucketState | null {
    const st = this.read()[key];
    return st ? { ...emptyBucket(), ...st } : null;
  }

  private read(): Record<string, BucketState> {
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
