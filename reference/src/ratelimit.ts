// §8 / §7.1: rate limiting with X-RateLimit-* headers. Token bucket per client and endpoint.
// Keys come from the request (client ids, peer addresses), so the bucket map is bounded:
// a bucket that has refilled completely is the same as no bucket and is dropped, and past
// MAX_BUCKETS the least recently used go first.
import type { RateLimitConfig, RateLimiter } from './types.ts';

/** Far above any honest tenant's client count; a flood of invented client ids stops here. */
export const MAX_BUCKETS = 10_000;

export interface BoundedRateLimiter extends RateLimiter {
  /** Buckets held now (for the fuzz test's memory bound). */
  size(): number;
}

export function tokenBucketLimiter(config: RateLimitConfig, maxBuckets = MAX_BUCKETS): BoundedRateLimiter {
  // Map order is insertion order: a bucket is re-inserted on use, so the first is the least recently used.
  const buckets = new Map<string, { tokens: number; at: number }>();
  /** The limit of a key's endpoint: keys start with the route id (`rs.update|<caller>`). */
  const limitOf = (key: string) => config.perEndpoint?.[key.split('|', 1)[0] ?? ''] ?? config;
  const refilled = (key: string, b: { tokens: number; at: number }, nowMs: number) => {
    const { capacity, refillPerSecond } = limitOf(key);
    return b.tokens + (Math.max(0, nowMs - b.at) / 1000) * refillPerSecond >= capacity;
  };
  const prune = (nowMs: number) => {
    for (const [k, b] of buckets) if (refilled(k, b, nowMs)) buckets.delete(k);
    // Still too many (all busy): evict the least recently used down to three quarters, so
    // the sweep runs once per quarter of the bound, not on every request.
    const target = Math.floor(maxBuckets * 0.75);
    for (const k of buckets.keys()) {
      if (buckets.size <= target) break;
      buckets.delete(k);
    }
  };
  return {
    take(key, nowMs) {
      const { capacity, refillPerSecond } = limitOf(key);
      const b = buckets.get(key) ?? { tokens: capacity, at: nowMs };
      buckets.delete(key);
      // A clock that steps back refills nothing (and takes nothing away).
      const elapsedMs = Math.max(0, nowMs - b.at);
      b.tokens = Math.min(capacity, b.tokens + (elapsedMs / 1000) * refillPerSecond);
      b.at = Math.max(b.at, nowMs);
      const allowed = b.tokens >= 1;
      if (allowed) b.tokens -= 1;
      buckets.set(key, b);
      if (buckets.size > maxBuckets) prune(nowMs);
      const fullInSeconds = refillPerSecond > 0 ? (capacity - b.tokens) / refillPerSecond : 0;
      const oneInSeconds = allowed || refillPerSecond <= 0 ? 0 : (1 - b.tokens) / refillPerSecond;
      return {
        allowed,
        limit: capacity,
        remaining: Math.max(0, Math.floor(b.tokens)),
        reset: Math.ceil(nowMs / 1000 + fullInSeconds),
        retryAfter: Math.max(1, Math.ceil(oneInSeconds)),
      };
    },
    size: () => buckets.size,
  };
}

export function rateLimitHeaders(s: { limit: number; remaining: number; reset: number }): Record<string, string> {
  return {
    'x-ratelimit-limit': String(s.limit),
    'x-ratelimit-remaining': String(s.remaining),
    'x-ratelimit-reset': String(s.reset),
  };
}
