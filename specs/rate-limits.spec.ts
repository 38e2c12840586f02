// Rate limiting of the management API (§7.1, §8). Every other spec paces itself from the
// X-RateLimit-* headers; this one drains a bucket on purpose, with a bounded burst that
// stops at the first 429 — against anything but the embedded tenant only when opted in.
import { test } from '../lib/fixtures.ts';
import { judgeByRule } from '../lib/answer-rules.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../lib/declare.ts';
import { optInSkip } from '../lib/config.ts';
import { bucketKey, resourceServerPath } from '../lib/http.ts';
import { burstOnBlockedBucket, burstUnbreached } from '../lib/burst.ts';
import {
  limitEnforced,
  limitStateReported,
  remainingFalls,
  tooManyCarriesState,
} from '../lib/management/rate-limits.ts';
import { clauseSkip, tenantSkip } from '../lib/skip-record.ts';

/** What is judged on the burst's 429: not judged without one. */
const OF_THE_429 = ['ratelimit.429.headers', 'ratelimit.429.remaining-spent', 'ratelimit.values'];

test.describe('rate limits', () => {
  test(
    'an update answer reports the limit state in X-RateLimit-Limit, -Remaining and -Reset',
    clauses(OPERATIONS.rateLimit, 'ratelimit.headers', 'ratelimit.per-endpoint'),
    async ({ run, mgmt, gate }) => {
      const ex = await mgmt.patch(resourceServerPath(run.cfg.resourceServerId), { data: {} });
      // A fault answers for no bucket: it is mgmt.error.server-fault's (judged on the answer), not the headers'.
      await gate.call(limitStateReported, ex, { ex, what: 'PATCH {}', endpoint: 'update' });
    },
  );
});

test.describe('rate limits', () => {
  test(
    'an experiment-creation answer reports the limit state (limit recorded)',
    clauses(OPERATIONS.rateLimit, 'ratelimit.headers', 'ratelimit.per-endpoint'),
    async ({ experiments, gate }) => {
      // A name of 2 characters must be refused (§8): nothing is created.
      const ex = await experiments.create({ ...experiments.realistic(), name: 'ab' });
      await gate.call(limitStateReported, ex, {
        ex,
        what: 'POST an experiment (refused payload)',
        endpoint: 'experiment creation',
      });
    },
  );
});

test.describe('rate limits', () => {
  test(
    'a bounded burst of updates reaches 429 carrying the three X-RateLimit-* headers, with Remaining falling before it',
    clauses(
      OPERATIONS.rateLimit,
      'ratelimit.enforced',
      'ratelimit.429.headers',
      'ratelimit.429.remaining-spent',
      'ratelimit.headers',
      'ratelimit.values',
    ),
    async ({ suite, counter, gate, check }, info) => {
      const { cfg, state } = suite;
      skipTest(optInSkip(cfg, 'burst'));
      const url = `${cfg.apiBase}${resourceServerPath(cfg.resourceServerId)}`;
      const key = bucketKey('full', 'PATCH', url, cfg.apiBase);
      const result = await burstOnBlockedBucket(suite.pacer, key, {
        url,
        method: 'PATCH',
        headers: {
          authorization: `Bearer ${state.tokens.full}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: '{}',
        max: 1000,
        boundByLimit: true,
        // The reference's update bucket refills 100 a second: 4 in flight fell below that on a
        // loaded machine (the burst ended on its bound in 5 runs of 5 at load 11-17);
        // 16 reached 429 there (one run under load 17).
        concurrency: 16,
        timeoutMs: cfg.timeoutMs,
        onSent: () => counter.sent++,
      });
      const enforced = await gate.call(limitEnforced, null, result);
      // A bound reached without a 429 and without the bucket saying it was empty: the same
      // verdict on any machine, the tenant's (a refill that keeps pace is no violation).
      if (enforced === null) skipClauses(info, burstUnbreached(result, 'updates'), 'ratelimit.enforced', ...OF_THE_429);
      // No 429 met though the bucket said it was empty: what a 429 carries is not judged, for that one cause.
      if (enforced === false)
        skipClauses(
          info,
          clauseSkip('ratelimit.enforced', 'not judged: no 429 was met (ratelimit.enforced)'),
          ...OF_THE_429,
        );
      if (result.first429) {
        await gate.call(tooManyCarriesState, null, result.first429);
        // The burst's own connections pass no client: the rule about every 429 is applied here; a
        // 429 without a numeric limit state has nothing it speaks of, ratelimit.429.headers' finding.
        if (!judgeByRule('ratelimit.429.remaining-spent', result.first429, cfg, { check, info }))
          skipClauses(
            info,
            clauseSkip(
              'ratelimit.429.headers',
              'not judged: the 429 reports no numeric X-RateLimit-Limit and -Remaining',
            ),
            'ratelimit.429.remaining-spent',
          );
      }
      const numeric = result.remaining.filter((r): r is number => r !== null);
      if (numeric.length < 2)
        skipClauses(
          info,
          tenantSkip({}, `not judged here: ${numeric.length} of the burst's answers reported X-RateLimit-Remaining`),
          'ratelimit.headers',
        );
      else await gate.call(remainingFalls, null, numeric);
    },
  );
});
