// lib/property.ts: the property engine. Passing runs fold into one record per clause; a
// failure is recorded once, for the shrunk counterexample, with the run seed and path that
// replay it; the same seed gives the same counterexample, and IDM_REPLAY_PATH goes straight
// to it. The "target" here is a pure predicate, so every outcome is known in advance.
import fc from 'fast-check';
import { expect, test } from '@playwright/test';
import { Checks } from '../lib/checks.ts';
import { forAll, propertySeed } from '../lib/property.ts';
import { createRedactor } from '../lib/redact.ts';
import { absorbSoftFailures, records } from './runtime-annotations.ts';

const MUST = 'rs.response.object';
const MUST_2 = 'rs.response.closed';
const OBSERVE = 'ratelimit.values';
const RUN_SEED = 20261122;

/** Fails `MUST` for values of `threshold` and above; `MUST_2` always holds. */
function thresholdRun(check: Checks, calls: number[], threshold = 100) {
  return async (v: number): Promise<void> => {
    calls.push(v);
    check.that(MUST_2, true, `value ${v} is a number`);
    check.that(MUST, v < threshold, `value ${v} should be under ${threshold}`);
  };
}

const VALUES = fc.integer({ min: 0, max: 1000 });

test('a passing property folds its runs into one passed record per clause, observations kept', async () => {
  const check = new Checks(test.info(), createRedactor());
  const out = await forAll(
    check,
    fc.nat({ max: 9 }),
    async (v) => {
      check.that(MUST, v >= 0, `value ${v}`);
      check.observe(OBSERVE, v % 2 === 0 ? 'even' : 'odd');
    },
    { name: 'all pass', runSeed: RUN_SEED, numRuns: 25 },
  );
  expect(out).toMatchObject({ failed: false, runs: 25, seed: propertySeed(RUN_SEED, 'all pass') });
  const recs = records();
  expect(recs.filter((r) => r.outcome === 'passed')).toEqual([
    { clause: MUST, outcome: 'passed', message: expect.stringMatching(/^25 generated case\(s\), e\.g\. value \d$/) },
  ]);
  const observed = recs
    .filter((r) => r.outcome === 'observed')
    .map((r) => r.message)
    .sort();
  expect(observed, 'each distinct observation once').toEqual(['even', 'odd']);
  expect(test.info().errors).toEqual([]);
});

test('a failing property records the shrunk counterexample once, with seed and path, and keeps the other clauses', async () => {
  const check = new Checks(test.info(), createRedactor());
  const calls: number[] = [];
  const out = await forAll(check, VALUES, thresholdRun(check, calls), {
    name: 'threshold',
    runSeed: RUN_SEED,
    numRuns: 50,
    maxShrinkCalls: 500,
  });
  const soft = absorbSoftFailures();
  expect(out.failed).toBe(true);
  expect(out.path).toMatch(/^\d+(:\d+)*$/);
  const recs = records();
  const failed = recs.filter((r) => r.outcome === 'failed');
  expect(failed).toHaveLength(1);
  expect(failed[0]).toMatchObject({
    clause: MUST,
    message: 'value 100 should be under 100',
    evidence: { seed: RUN_SEED, path: out.path, counterexample: 100 },
  });
  expect(
    recs.filter((r) => r.outcome === 'passed' && r.clause === MUST),
    'the failing clause has no pass record',
  ).toEqual([]);
  expect(soft).toHaveLength(1);
  expect(soft[0]).toContain(`replay: IDM_SEED=${RUN_SEED} IDM_REPLAY_PATH=${out.path}`);
  expect(soft[0]).toContain('counterexample: 100');
});

test('a clause that held in the runs before the failure keeps its passed record', async () => {
  const check = new Checks(test.info(), createRedactor());
  const calls: number[] = [];
  // Unbiased, so that early runs are not drawn from the extremes (fixed seed: deterministic).
  const out = await forAll(check, fc.noBias(VALUES), thresholdRun(check, calls, 900), {
    name: 'late failure',
    runSeed: RUN_SEED,
    numRuns: 100,
    maxShrinkCalls: 500,
  });
  absorbSoftFailures();
  expect(out.failed).toBe(true);
  expect(calls[0], 'precondition: the first generated run passes').toBeLessThan(900);
  const recs = records();
  expect(recs.filter((r) => r.outcome === 'passed').map((r) => r.clause)).toEqual([MUST_2]);
  expect(recs.filter((r) => r.outcome === 'failed')).toMatchObject([
    { clause: MUST, evidence: { counterexample: 900 } },
  ]);
});

test('a clause that held on the counterexample is recorded even when the very first run failed', async () => {
  const check = new Checks(test.info(), createRedactor());
  await forAll(check, VALUES, thresholdRun(check, [], 0), { name: 'first run fails', runSeed: RUN_SEED, numRuns: 10 });
  absorbSoftFailures();
  expect(
    records()
      .filter((r) => r.clause === MUST_2)
      .map((r) => r.outcome),
  ).toEqual(['passed']);
});

test('the same run seed finds the same counterexample and path; IDM_REPLAY_PATH goes straight to it', async () => {
  const first = new Checks(test.info(), createRedactor());
  const a = await forAll(first, VALUES, thresholdRun(first, []), {
    name: 'threshold',
    runSeed: RUN_SEED,
    numRuns: 50,
    maxShrinkCalls: 500,
  });
  const second = new Checks(test.info(), createRedactor());
  const b = await forAll(second, VALUES, thresholdRun(second, []), {
    name: 'threshold',
    runSeed: RUN_SEED,
    numRuns: 50,
    maxShrinkCalls: 500,
  });
  expect(b.path).toBe(a.path);

  const replayCalls: number[] = [];
  const third = new Checks(test.info(), createRedactor());
  // env: forAll reads the replay path of this process (runSettings), as a user's IDM_REPLAY_PATH; set around the call only.
  const before = process.env.IDM_REPLAY_PATH;
  process.env.IDM_REPLAY_PATH = a.path!;
  try {
    const c = await forAll(third, VALUES, thresholdRun(third, replayCalls), {
      name: 'threshold',
      runSeed: RUN_SEED,
      numRuns: 50,
      maxShrinkCalls: 500,
    });
    expect(c.failed).toBe(true);
  } finally {
    if (before === undefined) delete process.env.IDM_REPLAY_PATH;
    else process.env.IDM_REPLAY_PATH = before;
  }
  absorbSoftFailures();
  expect(replayCalls[0], 'the replay starts at the counterexample').toBe(100);
  const counterexamples = records()
    .filter((r) => r.outcome === 'failed')
    .map((r) => r.evidence?.counterexample);
  expect(counterexamples).toEqual([100, 100, 100]);
});

test('shrinking is bounded: predicate calls after the first failure stop at maxShrinkCalls', async () => {
  const check = new Checks(test.info(), createRedactor());
  const calls: number[] = [];
  await forAll(check, VALUES, thresholdRun(check, calls), {
    name: 'bounded',
    runSeed: RUN_SEED,
    numRuns: 50,
    maxShrinkCalls: 3,
  });
  absorbSoftFailures();
  const firstFailure = calls.findIndex((v) => v >= 100);
  expect(firstFailure).toBeGreaterThanOrEqual(0);
  expect(calls.length - firstFailure - 1, 'requests sent while shrinking').toBeLessThanOrEqual(3);
  const failed = records().filter((r) => r.outcome === 'failed');
  expect(failed).toHaveLength(1);
  // Whatever the budget left, the record and the counterexample are the same case.
  expect(failed[0]!.message).toBe(`value ${failed[0]!.evidence?.counterexample} should be under 100`);
});

test('an exception in a run is rethrown with the replay line added', async () => {
  const check = new Checks(test.info(), createRedactor());
  const run = async (v: number): Promise<void> => {
    if (v >= 100) throw new Error(`network broke at ${v}`);
    check.that(MUST, true, 'fine');
  };
  const err = await forAll(check, VALUES, run, {
    name: 'throws',
    runSeed: RUN_SEED,
    numRuns: 50,
    maxShrinkCalls: 500,
  }).then(
    () => null,
    (e: Error) => e,
  );
  expect(err?.message).toMatch(
    /^network broke at 100\n {2}replay: IDM_SEED=20261122 IDM_REPLAY_PATH=[\d:]+ \(property "throws", seed -?\d+\)$/,
  );
});

test.describe('propertySeed', () => {
  test('deterministic, per name, a 32-bit integer', () => {
    expect(propertySeed(1, 'a')).toBe(propertySeed(1, 'a'));
    expect(propertySeed(1, 'a')).not.toBe(propertySeed(1, 'b'));
    expect(propertySeed(1, 'a')).not.toBe(propertySeed(2, 'a'));
    fc.assert(
      fc.property(fc.integer({ min: -0x7fffffff, max: 0x7fffffff }), fc.string(), (seed, name) => {
        const s = propertySeed(seed, name);
        return Number.isInteger(s) && s === (s | 0);
      }),
      { seed: RUN_SEED },
    );
  });
});
