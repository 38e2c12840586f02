// §8 / §7.1: rate limiting with X-RateLimit-* headers. Token bucket per client and endpoint.
import type { RateLimitConfig, RateLimiter } from './types.ts';

export function tokenBucketLimiter(config: RateLimitConfig): RateLimiter {
  const buckets = new Map<string, { tokens: number; at: number }>();
  const { capacity, refillPerSecond } = config;
  return {
    take(key, nowMs) {
      const b = buckets.get(key) ?? { tokens: capacity, at: nowMs };
      // A clock that steps back refills nothing (and takes nothing away).
      const elapsedMs = Math.max(0, nowMs - b.at);
      b.tokens = Math.min(capacity, b.tokens + (elapsedMs / 1000) * refillPerSecond);
      b.at = Math.max(b.at, nowMs);
      const allowed = b.tokens >= 1;
      if (allowed) b.tokens -= 1;
      buckets.set(key, b);
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
  };
}

export function rateLimitHeaders(s: { limit: number; remaining: number; reset: number }): Record<string, string> {
  return {
    'x-ratelimit-limit': String(s.limit),
    'x-ratelimit-remaining': String(s.remaining),
    'x-ratelimit-reset': String(s.reset),
  };
}
