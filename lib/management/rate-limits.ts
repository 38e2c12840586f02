// The management API's rate limiting (§7.1, §8), as named conditions: every answer reports the
// limit state in X-RateLimit-*, a burst that drains a bucket meets a 429 carrying the three
// headers, and Remaining falls as the bucket drains. The burst itself is lib/burst.ts's.
import type { BurstResult } from '../burst.ts';
import { condition } from '../condition.ts';
import type { Exchange } from '../http.ts';
import { parseRateLimit } from '../pacer.ts';

/** §8: "the limit state is reported in X-RateLimit-Limit, -Remaining, -Reset"; the limit per endpoint recorded. */
export const limitStateReported = condition({
  clauses: ['ratelimit.headers', 'ratelimit.per-endpoint'],
  cite: '§8',
  judge: (v, { ex, what, endpoint }: { ex: Exchange; what: string; endpoint: string }) => {
    v.on('ratelimit.per-endpoint').observe(
      `${endpoint}: X-RateLimit-Limit ${ex.headers['x-ratelimit-limit'] ?? '(absent)'}`,
    );
    return v.rateLimitHeaders(ex, what);
  },
});

/**
 * §7.1 (429 "too many requests"): a burst that drains the bucket meets a 429; one that ran on
 * though answers kept saying Remaining 0 breaks the rule; null when it ended on a bound without
 * either (the tenant's limit is absent or above what the run may spend: the caller skips).
 */
export const limitEnforced = condition({
  clauses: ['ratelimit.enforced'],
  cite: '§7.1, §8',
  judge: (v, b: BurstResult) => {
    const limit = b.first ? parseRateLimit(b.first.headers).limit : null;
    const evidence = b.first429 ?? b.lastBefore429 ?? undefined;
    if (b.first429)
      return v.that(
        true,
        `429 after ${b.sent} requests in ${b.elapsedMs} ms (Limit ${limit ?? 'not reported'})`,
        evidence,
      );
    if (b.zeroRemainingAnswers < ZERO_ANSWERS) return null;
    // The bucket said it was empty, again and again, and still let every request through.
    return v.that(
      false,
      `no 429 after ${b.sent} requests, though ${b.zeroRemainingAnswers} answers reported X-RateLimit-Remaining 0`,
      evidence,
    );
  },
});

/** §7.1: the 429 carries X-RateLimit-Limit, -Remaining and -Reset; their values recorded. */
export const tooManyCarriesState = condition({
  clauses: ['ratelimit.429.headers', 'ratelimit.values'],
  cite: '§7.1',
  judge: (v, r: Exchange) => {
    const reset = Number(r.headers['x-ratelimit-reset']);
    const ahead = Math.round(reset - Date.now() / 1000);
    v.on('ratelimit.values').observe(
      `Limit ${r.headers['x-ratelimit-limit']}, Remaining on the 429 ${r.headers['x-ratelimit-remaining']}, Reset ${r.headers['x-ratelimit-reset']} (${reset > 1e9 ? `epoch seconds, ${ahead} s ahead` : `${reset}: not an epoch time`})`,
    );
    return v.rateLimitHeaders(r, 'the 429 answer');
  },
});

/** §8: Remaining reports the state: it falls while a burst drains the bucket (a refill that keeps pace is recorded). */
export const remainingFalls = condition({
  clauses: ['ratelimit.headers'],
  cite: '§8',
  judge: (v, seen: readonly number[]) => {
    const lowest = Math.min(...seen);
    if (lowest < seen[0]!)
      return v.that(true, `X-RateLimit-Remaining falls over the burst: first ${seen[0]}, lowest ${lowest}`);
    return v.observe(
      `X-RateLimit-Remaining did not fall over the burst (first ${seen[0]}, lowest ${lowest}): the refill kept pace`,
    );
  },
});

/** Answers reporting Remaining 0 without a 429 that make a bucket's "empty" a statement, not a rounding. */
const ZERO_ANSWERS = 5;
