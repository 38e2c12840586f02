// The property-based engine: fast-check drives generated cases inside a test. Each run's
// checks are buffered; passes are committed as one record per clause, a failure as the
// records of the shrunk counterexample with its seed, path and curl. Shrinking sends
// requests, so it is bounded.
import { TargetTransportError } from './http.ts';
import fc from 'fast-check';
import type { CheckRecord, Checks } from './checks.ts';
import { runSettings } from './config/run.ts';
import { FAULT_CLAUSES } from './twin-gate.ts';

export interface PropertyOptions {
  /** Property name: mixed into the run seed, so each property has its own stream. */
  name: string;
  runSeed: number;
  numRuns: number;
  /** Predicate calls allowed after the first failure (each may send requests). */
  maxShrinkCalls?: number;
}

export interface PropertyOutcome {
  failed: boolean;
  runs: number;
  seed: number;
  path?: string;
}

export async function forAll<T>(
  check: Checks,
  arb: fc.Arbitrary<T>,
  run: (value: T) => Promise<void>,
  opts: PropertyOptions,
): Promise<PropertyOutcome> {
  const seed = propertySeed(opts.runSeed, opts.name);
  const replayPath = runSettings().replayPath ?? undefined;
  const cases = new CaseLog(check, opts.maxShrinkCalls ?? 40);
  const result = await fc.check(
    fc.asyncProperty(arb, (value: T) => cases.judge(run, value)),
    { seed, numRuns: opts.numRuns, ...(replayPath ? { path: replayPath } : {}) },
  );
  check.commit([...cases.observations.values()]);
  check.commit(cases.faults.slice(0, 1));
  if (!result.failed) {
    check.commit(cases.passRecords());
    return { failed: false, runs: result.numRuns, seed };
  }
  return commitFailure(check, cases, result, { ...opts, seed });
}

interface Failure {
  records: CheckRecord[];
  error: unknown;
}

/** What the generated cases said while fast-check ran them, shrinking included. */
class CaseLog {
  readonly passes = new Map<string, { n: number; message: string }>();
  readonly observations = new Map<string, CheckRecord>();
  /** Faults of the service, said as they come (never a counterexample). */
  readonly faults: CheckRecord[] = [];
  /** The last failing case: after shrinking, the counterexample's records. */
  failure: Failure | null = null;
  private callsAfterFailure = 0;

  constructor(
    private readonly check: Checks,
    /** Predicate calls allowed after the first failure (each may send requests). */
    private readonly maxShrink: number,
  ) {}

  /** fast-check's predicate: one case with its checks buffered; false when it failed. */
  async judge<T>(run: (value: T) => Promise<void>, value: T): Promise<boolean> {
    if (this.failure && ++this.callsAfterFailure > this.maxShrink) return true; // stop shrinking: budget spent
    this.check.beginBuffer();
    let error: unknown = null;
    try {
      await run(value);
    } catch (e) {
      error = e;
      // The target did not answer (timeout, reset): no counterexample to shrink, and each
      // shrink step would wait out the timeout again.
      if (e instanceof TargetTransportError) this.callsAfterFailure = this.maxShrink;
    }
    const records = this.check.endBuffer();
    // A fault of the service is said as it comes and is no counterexample: shrinking it would
    // only meet more faults (the case's clauses were skipped naming the fault clause).
    this.faults.push(...records.filter((r) => r.outcome === 'failed' && FAULT_CLAUSES.has(r.clause)));
    if (error !== null || records.some((r) => r.outcome === 'failed' && !FAULT_CLAUSES.has(r.clause))) {
      this.failure = { records, error };
      return false;
    }
    if (!this.failure) this.keep(records);
    return true;
  }

  /** One record per clause that passed: how many cases, and one of them. */
  passRecords(): CheckRecord[] {
    return [...this.passes].map(([clause, p]) => ({
      clause,
      outcome: 'passed',
      message: `${p.n} generated case(s), e.g. ${p.message}`,
    }));
  }

  /** A passing case before any failure: its passes counted, its observations kept (50 at most). */
  private keep(records: CheckRecord[]): void {
    for (const r of records) {
      if (r.outcome === 'passed') {
        const p = this.passes.get(r.clause);
        this.passes.set(r.clause, { n: (p?.n ?? 0) + 1, message: p?.message ?? r.message });
      } else if (r.outcome === 'observed' && this.observations.size < 50) {
        this.observations.set(`${r.clause}\u0000${r.message}`, r);
      }
    }
  }
}

/** A failed property: the counterexample's records with how to replay it, the other clauses' passes. */
function commitFailure<T>(
  check: Checks,
  cases: CaseLog,
  result: fc.RunDetails<[T]>,
  opts: PropertyOptions & { seed: number },
): PropertyOutcome {
  const failure = cases.failure;
  if (failure?.error instanceof TargetTransportError) {
    // The target left a case unanswered: the property did not run its course, so it judges
    // nothing; the test's `no-answer` record (lib/http.ts) is why its clauses were not judged.
    throw failure.error;
  }
  const counterexample = result.counterexample?.[0];
  const path = result.counterexamplePath ?? undefined;
  const records = failure?.records ?? [];
  // Clauses that failed on the counterexample are failed; the others keep their passes.
  const failedClauses = new Set(records.filter((r) => r.outcome === 'failed').map((r) => r.clause));
  check.commit(cases.passRecords().filter((r) => !failedClauses.has(r.clause)));
  // A clause that held on the counterexample but had no earlier pass (the first run failed)
  // still held: without this it would read as never reached.
  const held = new Map<string, CheckRecord>();
  for (const r of records) {
    if (r.outcome === 'passed' && !failedClauses.has(r.clause) && !cases.passes.has(r.clause)) held.set(r.clause, r);
  }
  check.commit([...held.values()]);
  check.commit(
    records.filter((r) => r.outcome !== 'passed'),
    // The run seed replays it: the property's own seed is derived from it and its name.
    { seed: opts.runSeed, ...(path ? { path } : {}), counterexample },
  );
  if (failure?.error) {
    const err = failure.error as Error;
    err.message = `${err.message}\n  replay: IDM_SEED=${opts.runSeed}${path ? ` IDM_REPLAY_PATH=${path}` : ''} (property "${opts.name}", seed ${opts.seed})`;
    throw err;
  }
  return { failed: true, runs: result.numRuns, seed: opts.seed, ...(path ? { path } : {}) };
}

/** A per-property seed from the run seed (FNV-1a of the name), so IDM_SEED replays every property. */
export function propertySeed(runSeed: number, name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h ^ runSeed) | 0;
}
