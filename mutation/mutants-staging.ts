// The reference tenant as a staging tenant stumbles (issues 39, 47): a deploy answers a few
// management requests, or all of them for a few seconds, 503 with Retry-After before handling
// them, which the suite's resends wait out, so the verdict stays the default's clause by clause
// (`asDefault`); a handler that crashes now and
// then answers 500, which stays, and must be one failure of mgmt.error.server-fault, every
// clause its exchange would have judged skipped naming it. Neither answer is processed: the
// tenant never sees the request, so the state stays what it was.
import { isManagement, jsonRes, type Req, type Res, type Wrap } from './exchange.ts';
import type { Probe } from './probes.ts';
import { viaWrap, type Variant } from './variant.ts';

/** One request in this many is answered by the fault. */
const EVERY = 7;
/** The management answers that go through first: the global setup's snapshot read among them. */
const SPARED = 5;

const unavailable = (): Res =>
  jsonRes(
    503,
    { statusCode: 503, error: 'Service Unavailable', message: 'the service is being deployed: try again shortly' },
    { 'retry-after': '1' },
  );

const crashed = (): Res =>
  jsonRes(500, { statusCode: 500, error: 'Internal Server Error', message: 'an unexpected error occurred' });

/**
 * Of the requests `counted` picks, the n-th (1-based) is answered by `fault()` where `hit(n)`,
 * without the tenant seeing it; every other request goes through. One count per tenant.
 */
const everyNth =
  (counted: (r: Req) => boolean, hit: (n: number) => boolean, fault: () => Res): Wrap =>
  (next) => {
    let n = 0;
    return async (req) => {
      if (!counted(req)) return next(req);
      n += 1;
      return hit(n) ? fault() : next(req);
    };
  };

/**
 * Management answers 6, 13, 20, …: one in seven from the sixth on, 503 with Retry-After: 1. A
 * request sent again is counted as any other: with two workers sharing the count, its resend may
 * land on the next one in seven and meet a 503 again, which the suite waits out as well.
 */
const flakyStaging = everyNth(isManagement, (n) => n > SPARED && (n - SPARED - 1) % EVERY === 0, unavailable);

/** How long the deploy window answers every management request 503. */
const DEPLOY_MS = 4_000;

/**
 * From the first management answer after the global setup's (the sixth), every management
 * request for DEPLOY_MS is answered 503 with Retry-After: 1; then all is well.
 */
const deployWindow: Wrap = (next) => {
  let n = 0;
  let opened: number | null = null;
  return async (req) => {
    if (!isManagement(req)) return next(req);
    n += 1;
    if (n <= SPARED) return next(req);
    opened ??= Date.now();
    return Date.now() - opened < DEPLOY_MS ? unavailable() : next(req);
  };
};

/** The management answers in a row from the sixth on, until one is not a 503 (at most `max`). */
const throughDeploy =
  (max: number): Probe =>
  async (c) => {
    for (let i = 0; i < SPARED; i++) await c.patch({});
    const seen: string[] = [];
    for (let i = 0; i < max; i++) {
      const s = await c.patch({});
      seen.push(`${s.status}${s.headers['retry-after'] ? ` retry-after ${s.headers['retry-after']}` : ''}`);
      if (s.status !== 503) break;
    }
    return seen;
  };

/** PATCHes 7, 14, 21, … counted from the global setup's snapshot read (the first PATCH), which gets through. */
const crashingPatch = everyNth(
  (r) => r.method === 'PATCH' && isManagement(r),
  (n) => n % EVERY === 0,
  crashed,
);

/** The first `n` empty updates in a row: status and Retry-After of each (a fresh tenant counts from the first). */
const emptyUpdates =
  (n: number): Probe =>
  async (c) => {
    const seen: string[] = [];
    for (let i = 0; i < n; i++) {
      const s = await c.patch({});
      seen.push(`${s.status}${s.headers['retry-after'] ? ` retry-after ${s.headers['retry-after']}` : ''}`);
    }
    return seen;
  };

export const STAGING_MUTANTS: Variant[] = [
  {
    id: 'staging-patch-500',
    kind: 'mutant',
    fast: true,
    clause: 'mgmt.error.server-fault',
    fault: 'wrong-status',
    // Judged on every management answer, declared by no test: the fast subset runs the invalid
    // bodies' batch, about a hundred PATCHes in one test.
    grep: ['rs.update.error.400.no-write'],
    description: `every ${EVERY}th management PATCH, counted from the global setup's snapshot read, is answered 500 without Retry-After and not handled: a handler that crashes now and then`,
    options: viaWrap(crashingPatch),
    probe: emptyUpdates(EVERY),
  },
];

export const STAGING_BENIGN: Variant[] = [
  {
    id: 'staging-flaky-503',
    kind: 'benign',
    // Out of the fast subset: about 40 pauses of a second each (the resend is npm test's through
    // selftest/runtime-hostile.spec.ts and runtime-resend.spec.ts); `--only` runs it in either form.
    clause: null,
    fault: 'spec-silent',
    description: `flaky staging: one management answer in ${EVERY}, from the ${SPARED + 1}th on, is 503 Service Unavailable with Retry-After: 1, before the tenant handles the request (a resend is counted too, so it may meet the next one); the suite's resends wait it out`,
    asDefault: { apis: 'management' },
    options: viaWrap(flakyStaging),
    probe: emptyUpdates(SPARED + 1),
  },
  {
    id: 'staging-deploy-window',
    kind: 'benign',
    // Out of the fast subset, as staging-flaky-503: a few seconds of waits in every run.
    clause: null,
    fault: 'spec-silent',
    description: `a deploy: from the ${SPARED + 1}th management answer on, every management request for ${DEPLOY_MS / 1000} s is answered 503 Service Unavailable with Retry-After: 1 and not handled, then all is well; the suite's resends wait it out (IDM_RESEND_WINDOW_S)`,
    asDefault: { apis: 'management' },
    options: viaWrap(deployWindow),
    probe: throughDeploy(20),
  },
];
