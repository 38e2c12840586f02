// No orphaned must clause: every `must` clause is exercised — declared by a conformance test
// (as Playwright lists them), named in lib/, specs/ or reporters/ (a check recorded outside a declaring
// test), carried by a generated case list a spec consumes, or mapped in a schema the specs
// validate against. The data is bin/clause-trace.ts's, the same `npm run clauses -- --trace`
// prints, so the trace and this check cannot disagree.
import { test, expect } from '@playwright/test';
import { allClauses } from '../contract/clauses.ts';
import { emptyTrace, exercisedBy, orphans, traceData, type TraceData } from '../bin/clause-trace.ts';
import * as g from '../generators/index.ts';

let data: TraceData;
test.beforeAll(() => {
  data = traceData();
});

test('every must clause is exercised by a test, the runtime, a consumed case list or a validated schema', () => {
  test.skip(data.tests.size === 0, 'specs/ declares no clause yet: nothing can exercise a clause');
  const found = orphans(data);
  test.info().annotations.push({ type: 'orphans', description: found.join(', ') || 'none' });
  expect(found, 'must clauses no test exercises').toEqual([]);
});

test('the orphan check can fail: with nothing in the suite every must clause is an orphan', () => {
  const musts = allClauses().filter((c) => c.kind === 'must');
  expect(orphans(emptyTrace())).toHaveLength(musts.length);
  // A consumed case list covers its clauses, and only those.
  const d = emptyTrace();
  d.cases = new Map(
    [...data.cases].map(([id, refs]) => [
      id,
      refs.filter((r) => r.list === 'updateViolationCases').map((r) => ({ ...r, consumed: true })),
    ]),
  );
  const covered = new Set(g.updateViolationCases().map((c) => c.clause));
  expect(orphans(d)).toHaveLength(musts.length - musts.filter((c) => covered.has(c.id)).length);
});

test('tests are read from the listing with their file, line and declared clauses', () => {
  const tests = data.tests.get('rs.update.name.max-length') ?? [];
  expect(tests.map((t) => t.file)).toContain('specs/resource-server/rejects-invalid-updates.ts');
  for (const t of tests) expect(t.line).toBeGreaterThan(0);
  // Every clause a listed test declares is one the catalogue holds, and the traced reasons name it.
  for (const id of data.tests.keys()) expect(exercisedBy(id, data)).toContain('declared by a test');
});
