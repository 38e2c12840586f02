// No orphaned must clause: every `must` clause is exercised by a test a run runs — declared by a
// conformance test as Playwright lists them (so a test module the resource-server chain forgets to
// import declares nothing), judged by a rule on every answer those tests receive, or labelled in
// a schema a check they declare validates against. A clause named in a source file counts for
// nothing: a module no spec imports still names its clauses. The data is bin/clause-trace.ts's,
// the same `npm run clauses -- --trace` prints, so the trace and this check cannot disagree.
import { test, expect } from '@playwright/test';
import { allClauses } from '../contract/clauses.ts';
import { emptyTrace, exercisedBy, orphans, traceData, type TestRef, type TraceData } from '../bin/clause-trace.ts';

let data: TraceData;
test.beforeAll(() => {
  data = traceData();
});

test('every must clause is exercised by a test that runs, a rule on its answers or a schema its checks validate', () => {
  test.skip(data.tests.size === 0, 'specs/ declares no clause yet: nothing can exercise a clause');
  const found = orphans(data);
  test.info().annotations.push({ type: 'orphans', description: found.join(', ') || 'none' });
  expect(found, 'must clauses no test that runs exercises').toEqual([]);
});

test('the orphan check can fail: with nothing in the suite every must clause is an orphan', () => {
  const musts = allClauses().filter((c) => c.kind === 'must');
  expect(orphans(emptyTrace())).toHaveLength(musts.length);
  // Named in the sources, carried by case lists, labelled in schemas: still orphans without a test.
  expect(orphans({ ...data, tests: new Map() })).toHaveLength(musts.length);
});

test('a test module the run does not import leaves the must clauses only it declares orphans, each named', () => {
  const musts = new Set(
    allClauses()
      .filter((c) => c.kind === 'must')
      .map((c) => c.id),
  );
  const files = new Set([...data.tests.values()].flat().map((t) => t.file));
  let named = 0;
  // Each file's tests taken out of the listing, as a forgotten import takes them out of the run.
  for (const file of files) {
    const tests = without(data.tests, file);
    const stillValidated = (id: string) => data.validated.get(id)?.some((v) => tests.has(v.under)) ?? false;
    const own = [...data.tests.keys()].filter(
      (id) => musts.has(id) && !tests.has(id) && !data.runWide.has(id) && !stillValidated(id),
    );
    const found = orphans({ ...data, tests }).map((o) => o.split(' ')[0]);
    expect(found, `without ${file}`).toEqual(expect.arrayContaining(own));
    named += own.length;
  }
  expect(named).toBeGreaterThan(0);
});

test('tests are read from the listing with their file, line and declared clauses', () => {
  const tests = data.tests.get('rs.update.name.max-length') ?? [];
  expect(tests.map((t) => t.file)).toContain('specs/resource-server/rejects-invalid-updates.ts');
  for (const t of tests) expect(t.line).toBeGreaterThan(0);
  // Every clause a listed test declares is one the catalogue holds, and the traced reasons name it.
  for (const id of data.tests.keys()) expect(exercisedBy(id, data)).toContain('declared by a test that runs');
});

// Helpers

function without(tests: Map<string, TestRef[]>, file: string): Map<string, TestRef[]> {
  const out = new Map<string, TestRef[]>();
  for (const [id, refs] of tests) {
    const kept = refs.filter((t) => t.file !== file);
    if (kept.length > 0) out.set(id, kept);
  }
  return out;
}
