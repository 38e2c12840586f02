// §8 "repeat login attempts are limited per user account and IP address" (database
// connections). Tenant choice: after `loginAttemptsMax` failed logins for one user from
// one IP the pair is blocked for `loginBlockSeconds`, whatever the password; a success
// clears the count; failures older than `loginFailureWindowSeconds` are forgotten. Kept
// apart from the per-endpoint token bucket (ratelimit.ts), which limits requests, not logins.
import type { Limits, LoginLimiter, RateLimitState } from '../types.ts';

export function loginKey(connection: string, username: string, ip: string | undefined): string {
  return `${connection}|${username.toLowerCase()}|${ip ?? '-'}`;
}

export function memoryLoginLimiter(limits: () => Limits): LoginLimiter {
  const entries = new Map<string, { failures: number; lastFailureMs: number; blockedUntilMs: number }>();
  const state = (key: string, nowMs: number): RateLimitState => {
    const { loginAttemptsMax, loginFailureWindowSeconds } = limits();
    const e = entries.get(key);
    if (
      e &&
      e.blockedUntilMs <= nowMs &&
      (e.blockedUntilMs > 0 || nowMs - e.lastFailureMs > loginFailureWindowSeconds * 1000)
    ) {
      entries.delete(key); // the block or the window is over: start afresh
    }
    const live = entries.get(key);
    const blocked = live !== undefined && live.blockedUntilMs > nowMs;
    const resetMs = blocked
      ? live.blockedUntilMs
      : live
        ? live.lastFailureMs + loginFailureWindowSeconds * 1000
        : nowMs;
    return {
      allowed: !blocked,
      limit: loginAttemptsMax,
      remaining: blocked ? 0 : loginAttemptsMax - (live?.failures ?? 0),
      reset: Math.ceil(resetMs / 1000),
      retryAfter: blocked ? Math.max(1, Math.ceil((live.blockedUntilMs - nowMs) / 1000)) : 0,
    };
  };
  return {
    check: state,
    failed(key, nowMs) {
      const { loginAttemptsMax, loginBlockSeconds } = limits();
      state(key, nowMs); // expire an old entry first
      const e = entries.get(key) ?? { failures: 0, lastFailureMs: nowMs, blockedUntilMs: 0 };
      e.failures += 1;
      e.lastFailureMs = nowMs;
      if (e.failures >= loginAttemptsMax) e.blockedUntilMs = nowMs + loginBlockSeconds * 1000;
      entries.set(key, e);
      // Bounded memory: forget the oldest pair beyond 10 000.
      if (entries.size > 10000) entries.delete(entries.keys().next().value as string);
    },
    succeeded(key) {
      entries.delete(key);
    },
  };
}
