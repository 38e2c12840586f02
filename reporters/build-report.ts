// Assembles conformance.json from the run's test outcomes, the catalogue and the baseline.
// Pure: the Playwright reporter gathers the inputs, this decides everything.
import { aggregate, type NotUnderTest } from './aggregate.ts';
import { applyBaseline } from './baseline.ts';
import { decideGate } from './gate.ts';
import { causesThatHeld, unexercisedByRun } from './incomplete.ts';
import { attacksOf } from './attacks.ts';
import type { ErrorRecord } from '../lib/errors.ts';
import {
  compareSections,
  emptyCounts,
  type BaselineEntry,
  type CatalogueEntry,
  type ConformanceReport,
  type ExperimentCleanup,
  type SectionInfo,
  type StatusCounts,
  type ResentRecord,
  type TestOutcome,
} from './model.ts';

export interface RunMeta {
  suite: { name: string; version: string };
  target: string | null;
  /** The authentication API's origin; kept in the report only when it is not `target`. */
  authTarget?: string | null;
  seed: number | string | null;
  depth: string | null;
  startedAt: Date;
  endedAt: Date;
}

export interface BuildInput {
  catalogue: readonly CatalogueEntry[];
  tests: readonly TestOutcome[];
  baseline: { path: string | null; entries: readonly BaselineEntry[]; error?: ErrorRecord | null };
  playwrightStatus: string;
  globalErrors: readonly ErrorRecord[];
  /** The run stopped before every selected test ran (--max-failures reached). */
  stoppedEarly?: boolean;
  /** Requests answered 502, 503 or 504 and sent again once (lib/http.ts). */
  resent?: readonly ResentRecord[];
  otherFailures: readonly string[];
  meta: RunMeta;
  /** Run facts for the reader (report.run.notes). */
  notes?: readonly string[];
  /** The experiments the run created and what became of them (report.run.experiments). */
  experiments?: ExperimentCleanup;
  /** IDM_FAIL_ON_INCOMPLETE. */
  failOnIncomplete?: boolean;
  /** The half a run that judged one API alone left out (IDM_APIS), with its record; else absent. */
  notUnderTest?: NotUnderTest | null;
}

export interface BuiltReport {
  report: ConformanceReport;
  warnings: string[];
}

export function buildReport(input: BuildInput): BuiltReport {
  const { clauses: derived, problems, warnings } = aggregate(input.catalogue, input.tests, input.notUnderTest ?? null);
  // An unreadable baseline applies nothing; the gate reports it as a configuration error.
  const entries = input.baseline.error ? [] : input.baseline.entries;
  const { clauses, applied, stale } = applyBaseline(derived, input.catalogue, entries, input.meta.target);
  const gate = decideGate({
    clauses,
    playwrightStatus: input.playwrightStatus,
    globalErrors: input.globalErrors,
    problems,
    baselineError: input.baseline.error ?? null,
    staleBaseline: stale,
    otherFailures: input.otherFailures,
    failOnIncomplete: input.failOnIncomplete ?? false,
  });

  const sorted = [...clauses].sort((a, b) => compareSections(a.section, b.section) || a.id.localeCompare(b.id));
  // A skip that blames a clause which held is the suite's bug: said, and counted as the run's (INCOMPLETE).
  for (const w of causesThatHeld(sorted)) warnings.push(`suite bug: ${w}`);
  const byStatus = emptyCounts();
  const bySection: Record<string, StatusCounts> = {};
  for (const c of sorted) {
    byStatus[c.status]++;
    (bySection[c.section] ??= emptyCounts())[c.status]++;
  }
  const sections: Record<string, SectionInfo> = {};
  for (const e of input.catalogue) {
    const info = (sections[e.section] ??= {});
    info.title ??= e.sectionTitle;
    info.anchor ??= e.specAnchor;
    info.text ??= e.specText;
  }
  const must = sorted.filter((c) => c.kind === 'must');
  const count = (s: string) => must.filter((c) => c.status === s).length;
  const mustPassed = count('passed');
  const mustExercised = mustPassed + count('failed') + count('expected-failure');

  const tests = input.tests;
  const authTarget = separateOrigin(input.meta);
  const requestCounts = tests.map((t) => t.requests).filter((n): n is number => typeof n === 'number');
  const report: ConformanceReport = {
    schemaVersion: 1,
    suite: input.meta.suite,
    target: input.meta.target,
    ...(authTarget ? { authTarget } : {}),
    startedAt: input.meta.startedAt.toISOString(),
    endedAt: input.meta.endedAt.toISOString(),
    durationMs: input.meta.endedAt.getTime() - input.meta.startedAt.getTime(),
    seed: input.meta.seed,
    depth: input.meta.depth,
    requests: requestCounts.length > 0 ? requestCounts.reduce((a, b) => a + b, 0) : null,
    run: {
      playwrightStatus: input.playwrightStatus,
      tests: {
        total: tests.length,
        passed: tests.filter((t) => t.status === 'passed').length,
        failed: tests.filter((t) => t.status === 'failed' || t.status === 'timedOut').length,
        skipped: tests.filter((t) => t.status === 'skipped' || t.status === 'interrupted').length,
        flaky: tests.filter((t) => t.flaky).length,
      },
      errors: [...input.globalErrors, ...[...problems, ...input.otherFailures].map((line) => ({ code: null, line }))],
      stoppedEarly: input.stoppedEarly ?? false,
      ...(input.resent && input.resent.length > 0 ? { resent: [...input.resent] } : {}),
      ...(input.notes && input.notes.length > 0 ? { notes: [...input.notes] } : {}),
      ...(input.experiments ? { experiments: input.experiments } : {}),
    },
    totals: {
      clauses: sorted.length,
      byStatus,
      must: {
        total: must.length,
        exercised: mustExercised,
        passed: mustPassed,
        failed: count('failed'),
        expectedFailures: count('expected-failure'),
        skipped: count('skipped'),
      },
      conformance: {
        passed: mustPassed,
        exercised: mustExercised,
        percent: mustExercised > 0 ? Math.round((mustPassed / mustExercised) * 1000) / 10 : null,
      },
    },
    bySection,
    sections: Object.fromEntries(
      Object.entries(sections).map(([k, v]) => [k, JSON.parse(JSON.stringify(v)) as SectionInfo]),
    ),
    baseline: { path: input.baseline.path, entries: input.baseline.entries.length, applied, stale },
    incomplete: unexercisedByRun(sorted),
    attacks: attacksOf(input.tests),
    gate,
    clauses: sorted,
  };
  return { report, warnings };
}

// Helpers

/** The authentication API's origin when it is known and not the target (trailing slashes aside). */
function separateOrigin({ target, authTarget }: RunMeta): string | null {
  const bare = (u: string) => u.replace(/\/+$/, '');
  return authTarget && (!target || bare(authTarget) !== bare(target)) ? bare(authTarget) : null;
}
