// The data the conformance reporter reads (check records, catalogue entries) and writes
// (conformance.json). Pure types and the one place the clause-status vocabulary is fixed.

/** Clause statuses, in the order a reader should meet them (worst first). */
export const CLAUSE_STATUSES = [
  'failed',
  'expected-failure',
  'passed',
  'observed',
  'skipped',
  'not-exercisable',
] as const;
export type ClauseStatus = (typeof CLAUSE_STATUSES)[number];

// Clause kinds are the catalogue grammar's (contract/grammar.ts); one definition for both sides.
import type { ClauseKind } from '../contract/grammar.ts';
export type { ClauseKind };

/** One entry of contract/clauses.json (see docs/ARCHITECTURE.md). */
export interface CatalogueEntry {
  id: string;
  section: string;
  text: string;
  kind: ClauseKind;
  severity?: string;
  reason?: string | null;
  /** Spec text of the clause's section, if the catalogue loader provides it. */
  specText?: string;
  /** Anchor (slug) of the clause's section in contract/spec.md. */
  specAnchor?: string;
  /** Heading of the clause's section, e.g. "7.1 Resource server update". */
  sectionTitle?: string;
  /** The standard a clause derives from ("RFC 6749 §2.3.1"); absent for the spec's own. */
  source?: string;
}

// The check record is the runtime's (lib/check-record.ts); one definition for both sides.
import type { AuthErrorSeen } from '../lib/auth/error-records.ts';
import type { AttackSeen } from '../lib/auth/attacks/record.ts';
import type { CheckRecord, Evidence as CheckEvidence } from '../lib/check-record.ts';
import type { SkipRecord } from '../lib/skip-record.ts';
import type { ErrorRecord } from '../lib/errors.ts';
import type { Resent } from '../lib/http.ts';
import type { CleanupReport } from '../lib/experiment-cleanup.ts';
export type { CheckRecord, CheckEvidence, SkipRecord };

/** What the reporter keeps of one conformance test (its final attempt). */
export interface TestOutcome {
  title: string;
  file: string;
  line?: number;
  status: 'passed' | 'failed' | 'timedOut' | 'skipped' | 'interrupted';
  /** Passed only after a retry. */
  flaky?: boolean;
  /** Clause ids the test declares (tags and `clause` annotations). */
  clauses: string[];
  checks: CheckRecord[];
  /** The record given to test.skip / test.fixme (or a `skip` annotation of a test that went on). */
  skip?: SkipRecord;
  /** Clauses the test marked skipped while it went on (`clause-skip` annotations), with their records. */
  clauseSkips?: Record<string, SkipRecord>;
  /** The first request of the test the target left unanswered (lib/http.ts): the cause it stopped for. */
  noAnswer?: SkipRecord;
  /** The error none of its checks raised that the test ended on (a throw, its time-out; lib/test-run.ts): absent when it ran to its end. */
  stopped?: SkipRecord;
  /** First error of a failed test, one line. */
  error?: string;
  /** Requests the test sent, when the runtime records them. */
  requests?: number;
  /** Authentication-API errors the test met (lib/auth-errors.ts), for the run-wide §7.3 judgement. */
  authErrors?: AuthErrorRecord[];
  /** Attacks of the catalogue the test sent (lib/auth/attacks/record.ts), for the report's attack section. */
  attacks?: AttackResult[];
  /** Requests of the test answered 502, 503 or 504 and sent again once (lib/http.ts). */
  resent?: Resent[];
}

/** One request sent again after a 502, 503 or 504, with the test that sent it (file › title). */
export type ResentRecord = Resent & { test: string };

/** One attack as sent and answered (lib/auth/attacks/record.ts), with the test that sent it (file › title). */
export type AttackResult = AttackSeen & { test?: string };

/** One authentication-API error answer as the runtime recorded it (`auth-error` annotation). */
export type AuthErrorRecord = AuthErrorSeen;

export interface TestRef {
  title: string;
  file: string;
  line?: number;
  status: TestOutcome['status'];
  flaky?: boolean;
}

export interface ClauseFailure {
  test: string;
  message: string;
  evidence?: CheckEvidence;
}

export interface ClauseObservation {
  test: string;
  observation: string;
  message: string;
}

export interface BaselineEntry {
  clause: string;
  reason: string;
  link?: string;
  target?: string;
}

export interface ClauseResult {
  id: string;
  section: string;
  text: string;
  kind: ClauseKind;
  severity?: string;
  status: ClauseStatus;
  /** Why skipped / not exercisable / expected to fail, for people (the texts of `skips` joined). */
  reason?: string;
  /** For a skipped clause: why, as data, one record per reason of its declaring tests (lib/skip-record.ts). */
  skips?: SkipRecord[];
  checks: { passed: number; failed: number; observed: number };
  tests: TestRef[];
  failures: ClauseFailure[];
  observations: ClauseObservation[];
  baseline?: BaselineEntry;
  /** Link into contract/spec.md, e.g. `spec.md#22-request-body-of-the-update-operation`. */
  specAnchor?: string;
  /** Set when the clause derives from a standard the spec names (shown apart). */
  source?: string;
}

/** Spec text per section, kept once in the report rather than on every clause. */
export interface SectionInfo {
  title?: string;
  anchor?: string;
  text?: string;
}

export type StatusCounts = Record<ClauseStatus, number>;

export type GateVerdict =
  | 'conformant'
  | 'incomplete'
  | 'non-conformant'
  | 'run-broken'
  | 'config-error'
  | 'unreachable';

export interface Gate {
  /** 0 conformant (or incomplete) · 1 must clause failed or run broke · 2 configuration error · 3 unreachable · 4 incomplete with IDM_FAIL_ON_INCOMPLETE. */
  exitCode: 0 | 1 | 2 | 3 | 4;
  verdict: GateVerdict;
  /** One line each; empty when conformant. */
  reasons: string[];
}

/** What became of the experiments a run created: counted, deleted, and each one left with why. */
export type ExperimentCleanup = CleanupReport;

export interface ConformanceReport {
  schemaVersion: 1;
  suite: { name: string; version: string };
  /** The management API's origin (IDM_BASE_URL). */
  target: string | null;
  /** The authentication API's origin (IDM_AUTH_URL), only when it is not `target`. */
  authTarget?: string;
  startedAt: string;
  endedAt: string;
  durationMs: number;
  seed: number | string | null;
  depth: string | null;
  requests: number | null;
  run: {
    playwrightStatus: string;
    tests: { total: number; passed: number; failed: number; skipped: number; flaky: number };
    /** Errors outside tests and problems of the run, each with its stable code when it has one (lib/errors.ts). */
    errors: ErrorRecord[];
    /** The run stopped before every selected test ran (--max-failures reached): what was not reached was never judged. */
    stoppedEarly: boolean;
    /** Requests the target answered 502, 503 or 504 and the suite sent again once (lib/http.ts), with what the test was. */
    resent?: ResentRecord[];
    /** Facts about the run a reader should know that are not errors (e.g. an interrupted run's changes restored first). */
    notes?: string[];
    /** The experiments this run created, deleted after it where the tenant lets them be (lib/experiment-cleanup.ts). */
    experiments?: ExperimentCleanup;
  };
  totals: {
    clauses: number;
    byStatus: StatusCounts;
    must: {
      total: number;
      exercised: number;
      passed: number;
      failed: number;
      expectedFailures: number;
      skipped: number;
    };
    /** Headline: must clauses passed / must clauses exercised. */
    conformance: { passed: number; exercised: number; percent: number | null };
  };
  bySection: Record<string, StatusCounts>;
  sections: Record<string, SectionInfo>;
  baseline: { path: string | null; entries: number; applied: string[]; stale: string[] };
  /** Must clauses not exercised for a reason of the run (reporters/incomplete.ts), whatever the verdict. */
  incomplete: Array<{ clause: string; section: string; reason: string; skips: SkipRecord[] }>;
  /** Every attack of the catalogue the run sent, with its answer (reporters/attacks.ts). */
  attacks: AttackResult[];
  gate: Gate;
  clauses: ClauseResult[];
}

export function emptyCounts(): StatusCounts {
  return Object.fromEntries(CLAUSE_STATUSES.map((s) => [s, 0])) as StatusCounts;
}

/** Orders spec section numbers numerically: "2.2" < "2.10" < "7.1" < "8". */
export function compareSections(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d !== 0 && !Number.isNaN(d)) return d;
  }
  return a.localeCompare(b);
}
