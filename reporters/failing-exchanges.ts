// Each failing exchange shown once. One answer may fail several clauses (a created experiment
// with a bad id and no timestamps), and one request may come back the same in many tests (a read
// of the shared resource server a bad value was written to): the terminal summary and the HTML
// report show its evidence under the first clause that lists it, with the tests that met it and
// the clauses it failed, and elsewhere only point there. The verdict is the clauses' and counts
// nothing here; conformance.json keeps every failure under its clause for machines.
import type { ClauseFailure, ClauseResult } from './model.ts';

export interface ShownFailure {
  failure: ClauseFailure;
  /** Every test that met this exchange with this failure of the clause, first the one shown. */
  tests: string[];
  /** The other clauses this exchange failed, when it is shown here. */
  alsoFailed: string[];
  /** The clause it is shown under, when that is another one: only a pointer is shown here. */
  shownUnder?: string;
}

/** The failures of each clause as shown, in the order given (root causes first), one entry per exchange. */
export function failuresShown(clauses: readonly ClauseResult[]): Map<string, ShownFailure[]> {
  const failedBy = new Map<string, string[]>();
  for (const c of clauses)
    for (const f of c.failures) {
      const key = exchangeKey(f);
      if (key !== null && !failedBy.get(key)?.includes(c.id)) failedBy.set(key, [...(failedBy.get(key) ?? []), c.id]);
    }
  const firstUnder = new Map<string, string>();
  const out = new Map<string, ShownFailure[]>();
  for (const c of clauses) {
    const entries: ShownFailure[] = [];
    const byKey = new Map<string, ShownFailure>();
    for (const f of c.failures) {
      const key = exchangeKey(f);
      const same = key === null ? undefined : byKey.get(`${key}\u0000${f.message}`);
      if (same) {
        if (!same.tests.includes(f.test)) same.tests.push(f.test);
        continue;
      }
      const under = key === null ? undefined : firstUnder.get(key);
      const entry: ShownFailure = {
        failure: f,
        tests: [f.test],
        alsoFailed: under === undefined && key !== null ? (failedBy.get(key) ?? []).filter((id) => id !== c.id) : [],
        ...(under !== undefined && under !== c.id ? { shownUnder: under } : {}),
      };
      if (key !== null) {
        byKey.set(`${key}\u0000${f.message}`, entry);
        if (under === undefined) firstUnder.set(key, c.id);
      }
      entries.push(entry);
    }
    out.set(c.id, entries);
  }
  return out;
}

/** The tests that met a failure, in a few words: the first, and how many more. */
export function testsWord(e: ShownFailure): string {
  return e.tests.length > 1 ? `${e.tests[0]} (and ${e.tests.length - 1} more tests)` : (e.tests[0] ?? '');
}

// Helpers

/** What makes an exchange the same one: the request sent and the answer given; null without both. */
function exchangeKey(f: ClauseFailure): string | null {
  const e = f.evidence;
  if (!e?.request || !e.response) return null;
  return JSON.stringify([
    e.request.method,
    e.request.url,
    e.request.body ?? null,
    e.response.status,
    e.response.body ?? null,
    e.counterexample ?? null,
  ]);
}
