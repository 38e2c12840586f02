// Per-clause verdicts from the conformance tests' check records (docs/ARCHITECTURE.md,
// "How a test reports clause verdicts"). Pure: no Playwright, no file system.
import { runSkip, type SkipRecord } from '../lib/skip-record.ts';
import { judgeAuthErrors } from './auth-errors.ts';
import type {
  CatalogueEntry,
  CheckRecord,
  ClauseFailure,
  ClauseObservation,
  ClauseResult,
  TestOutcome,
  TestRef,
} from './model.ts';

export const NOT_RUN_REASON = 'not run in this selection';
/** Between the skip texts of the tests that declare one clause (for people: the records decide). */
const REASON_SEPARATOR = ' | ';

export interface Aggregation {
  clauses: ClauseResult[];
  /** Problems of the run itself, one line each (unknown ids, failures no clause explains): they break the run. */
  problems: string[];
  /** Inconsistencies worth a line in the summary that decide nothing. */
  warnings: string[];
}

const ERRORED = new Set<TestOutcome['status']>(['failed', 'timedOut']);

/**
 * The spec's sections of the authentication API: its conventions and flows (§4.3), its ways to
 * authenticate (§5.2), its errors (§7.3) and the rate limits of both APIs (§8).
 */
const AUTHENTICATION_SECTIONS: ReadonlySet<string> = new Set(['4.3', '5.2', '7.3', '8']);

/** The half of the spec a run that judged one API alone left out (IDM_APIS), and its record. */
export interface NotUnderTest {
  half: 'management' | 'authentication';
  record: SkipRecord;
}

/**
 * `notUnderTest`: the half a run that judged one API alone left out (IDM_APIS); its record is
 * given to that half's clauses no test declared (those judged on its every answer, or over the
 * run), which otherwise would read "not run in this selection".
 */
export function aggregate(
  catalogue: readonly CatalogueEntry[],
  testsOfRun: readonly TestOutcome[],
  notUnderTest: NotUnderTest | null = null,
): Aggregation {
  const judged = judgeAuthErrors(testsOfRun, catalogue);
  const tests = judged ? [...testsOfRun, judged] : testsOfRun;
  const known = new Map(catalogue.map((c) => [c.id, c]));
  const problems: string[] = [];
  const warnings: string[] = [];

  // Index tests and checks by clause id, reporting ids the catalogue does not know.
  const byClause = new Map<string, { tests: TestOutcome[]; checks: { test: TestOutcome; check: CheckRecord }[] }>();
  const slot = (id: string) => {
    let s = byClause.get(id);
    if (!s) byClause.set(id, (s = { tests: [], checks: [] }));
    return s;
  };
  const unknown = new Map<string, string>();
  for (const test of tests) {
    const ids = new Set([...test.clauses, ...test.checks.map((c) => c.clause)]);
    for (const id of ids) {
      if (!known.has(id)) unknown.set(id, unknown.get(id) ?? testName(test));
      slot(id).tests.push(test);
    }
    for (const check of test.checks) slot(check.clause).checks.push({ test, check });
  }
  for (const [id, test] of unknown)
    problems.push(`unknown clause id "${id}" used by test "${test}" (not in the catalogue)`);

  const outside = (entry: CatalogueEntry): boolean =>
    notUnderTest !== null && AUTHENTICATION_SECTIONS.has(entry.section) === (notUnderTest.half === 'authentication');
  const untested = (entry: CatalogueEntry): SkipRecord =>
    outside(entry) && notUnderTest ? notUnderTest.record : runSkip({}, NOT_RUN_REASON);
  const clauses = catalogue.map((entry) =>
    deriveClause(entry, byClause.get(entry.id) ?? { tests: [], checks: [] }, warnings, untested(entry)),
  );

  // A failed test must be explained by a failing must clause; otherwise the run itself broke.
  for (const test of tests) {
    if (!ERRORED.has(test.status)) continue;
    if (!failureExplained(test, known)) {
      problems.push(
        `test "${testName(test)}" failed without a failing must-clause check: ${test.error ?? test.status}`,
      );
    }
  }
  return { clauses, problems, warnings };
}

function deriveClause(
  entry: CatalogueEntry,
  found: { tests: TestOutcome[]; checks: { test: TestOutcome; check: CheckRecord }[] },
  warnings: string[],
  untested: SkipRecord,
): ClauseResult {
  const result: ClauseResult = {
    id: entry.id,
    section: entry.section,
    text: entry.text,
    kind: entry.kind,
    status: 'skipped',
    checks: { passed: 0, failed: 0, observed: 0 },
    tests: found.tests.map(testRef),
    failures: [],
    observations: [],
  };
  if (entry.severity !== undefined) result.severity = entry.severity;
  if (entry.specAnchor !== undefined) result.specAnchor = entry.specAnchor;
  if (entry.source !== undefined) result.source = entry.source;

  const failures: ClauseFailure[] = [];
  const observations: ClauseObservation[] = [];
  for (const { test, check } of found.checks) {
    if (check.outcome === 'failed' && entry.kind === 'observe') {
      // The spec states no rule here, so nothing about it can fail: keep what was seen.
      warnings.push(
        `test "${testName(test)}" recorded a failed check on observe clause ${entry.id}; kept as an observation`,
      );
      result.checks.observed++;
      observations.push({
        test: testName(test),
        observation: check.observation ?? check.message,
        message: check.message,
      });
      continue;
    }
    result.checks[check.outcome]++;
    if (check.outcome === 'failed') {
      const failure: ClauseFailure = { test: testName(test), message: check.message };
      if (check.evidence) failure.evidence = check.evidence;
      failures.push(failure);
    } else if (check.outcome === 'observed') {
      observations.push({
        test: testName(test),
        observation: check.observation ?? check.message,
        message: check.message,
      });
    }
  }
  // A declaring test that errored before recording anything for this clause fails it, but
  // only when the test recorded no failed check at all (else that check is the cause), and
  // the target answered it (a request left unanswered is the run's cause, not a verdict).
  const erroredEarly = found.tests.filter(
    (t) =>
      ERRORED.has(t.status) &&
      t.noAnswer === undefined &&
      !t.checks.some((c) => c.clause === entry.id) &&
      !t.checks.some((c) => c.outcome === 'failed'),
  );
  result.failures = failures;
  result.observations = observations;

  if (entry.kind === 'not-exercisable') {
    result.status = 'not-exercisable';
    result.reason = entry.reason ?? 'not exercisable';
    if (found.checks.length > 0)
      warnings.push(`clause ${entry.id} is not-exercisable in the catalogue but tests record checks on it`);
    return result;
  }
  if (entry.kind === 'must') {
    for (const t of erroredEarly)
      failures.push({ test: testName(t), message: `test errored before checking this clause: ${t.error ?? t.status}` });
    if (failures.length > 0) return { ...result, status: 'failed' };
    if (result.checks.passed > 0) return { ...result, status: 'passed' };
    if (result.checks.observed > 0) {
      // A must clause is passed, failed or not judged: an observation alone judges nothing, and
      // the counts add up (passed + failed + skipped + expected failures = must).
      const skips = [runSkip({}, `observed only, not judged: ${observations[0]?.observation ?? ''}`)];
      return { ...result, skips, reason: skips[0]!.text };
    }
  } else if (observations.length > 0 || result.checks.passed > 0) {
    // observe clauses never pass or fail; a passed check still tells what the target did
    for (const { test, check } of found.checks) {
      if (check.outcome === 'passed')
        observations.push({
          test: testName(test),
          observation: check.observation ?? check.message,
          message: check.message,
        });
    }
    return {
      ...result,
      status: 'observed',
      checks: { passed: 0, failed: 0, observed: result.checks.observed + result.checks.passed },
    };
  }
  result.skips = skipRecords(entry, found.tests, erroredEarly, untested);
  result.reason = result.skips.map((r) => r.text).join(REASON_SEPARATOR);
  return result;
}

/** Why a clause was not judged: one record per distinct reason of its declaring tests. */
function skipRecords(
  entry: CatalogueEntry,
  tests: TestOutcome[],
  erroredEarly: TestOutcome[],
  untested: SkipRecord,
): SkipRecord[] {
  if (tests.length === 0) return [untested];
  const records: SkipRecord[] = [];
  const add = (r: SkipRecord) => {
    if (!records.some((x) => JSON.stringify(x) === JSON.stringify(r))) records.push(r);
  };
  for (const t of tests) {
    const unchecked = !t.checks.some((c) => c.clause === entry.id);
    const own = t.clauseSkips?.[entry.id];
    if (own !== undefined && unchecked) add(own);
    else if (t.status === 'skipped') add(t.skip ?? runSkip({}, 'test skipped'));
    else if (t.skip !== undefined && unchecked) add(t.skip);
    else if (t.status === 'interrupted') add(runSkip({}, 'run interrupted'));
    else if (ERRORED.has(t.status) && unchecked && t.noAnswer !== undefined) add(t.noAnswer);
    // A failed check stops nothing (lib/checks.ts): a test that failed one and went on left
    // this clause as a test that passed would (a clause that needs another names it in its own
    // record); only one that stopped on an error of its own — after a failed check, else it
    // errored early (above) — leaves it unexercised, for that error.
    else if (ERRORED.has(t.status) && unchecked && t.stopped !== undefined && t.checks.some(isFailure)) add(t.stopped);
  }
  for (const t of erroredEarly) add(runSkip({}, `test errored before observing: ${t.error ?? t.status}`));
  if (records.length === 0)
    add(runSkip({}, `declared by ${tests.length} test(s) but no check recorded for ${entry.id}`));
  return records;
}

/**
 * A test that passed without judging anything — every clause it declares skipped with a record
 * while it went on, no check recorded — is a skipped test: the record of its first clause, else null.
 */
export function judgedNothing(t: TestOutcome): SkipRecord | null {
  if (t.status !== 'passed' || t.checks.length > 0 || t.clauses.length === 0) return null;
  if (!t.clauses.every((c) => t.clauseSkips?.[c] !== undefined)) return null;
  return t.clauseSkips![t.clauses[0]!]!;
}

function failureExplained(test: TestOutcome, known: Map<string, CatalogueEntry>): boolean {
  const isMust = (id: string) => known.get(id)?.kind === 'must';
  if (test.checks.some((c) => c.outcome === 'failed' && isMust(c.clause))) return true;
  // stopped by a request the target never answered: its clauses are skipped for that cause
  if (test.noAnswer !== undefined) return true;
  const hasFailedCheck = test.checks.some((c) => c.outcome === 'failed');
  // errored before its checks: the unrecorded must clauses it declares are failed for it
  return !hasFailedCheck && test.clauses.some((id) => isMust(id) && !test.checks.some((c) => c.clause === id));
}

// Helpers

function isFailure(c: CheckRecord): boolean {
  return c.outcome === 'failed';
}

function testName(t: Pick<TestOutcome, 'title' | 'file'>): string {
  return `${t.file} › ${t.title}`;
}

function testRef(t: TestOutcome): TestRef {
  const ref: TestRef = { title: t.title, file: t.file, status: t.status };
  if (t.line !== undefined) ref.line = t.line;
  if (t.flaky) ref.flaky = true;
  return ref;
}
