// The CI gate: one exit code per run (docs/ARCHITECTURE.md, "Exit codes").
// 0 conformant (or incomplete, by default) · 1 a must clause failed outside the baseline, or
// the run broke · 2 configuration error (incl. an invalid or stale baseline) · 3 target
// unreachable or credentials rejected · 4 incomplete, when IDM_FAIL_ON_INCOMPLETE is on: must
// clauses not exercised for a reason of the run (reporters/incomplete.ts). Observations never move it.
import { exitCodeOf, type ErrorRecord } from '../lib/errors.ts';
import { BASELINE_STALE } from './baseline.ts';
import type { ClauseResult, Gate } from './model.ts';
import { byRootCause, rootCauseNote } from './root-causes.ts';
import { reasonsByCount, unexercisedByRun } from './incomplete.ts';

export interface GateInput {
  clauses: readonly ClauseResult[];
  /** Playwright's own status for the whole run. */
  playwrightStatus: string;
  /** Errors outside tests (global setup, web server, reporter), each with its stable code when it has one. */
  globalErrors: readonly ErrorRecord[];
  /** Problems found while aggregating (unknown clause ids, unexplained test failures). */
  problems: readonly string[];
  /** Baseline load error, if any. */
  baselineError?: ErrorRecord | null;
  staleBaseline: readonly string[];
  /** Failed tests outside the conformance project (e.g. a setup project), one line each. */
  otherFailures: readonly string[];
  /** IDM_FAIL_ON_INCOMPLETE: an incomplete run exits 4 instead of 0. */
  failOnIncomplete?: boolean;
}

export function decideGate(input: GateInput): Gate {
  const configReasons: string[] = [];
  const unreachableReasons: string[] = [];
  const brokenReasons: string[] = [];
  // The exit code comes from each error's code, never from its words.
  for (const e of input.globalErrors) {
    const code = exitCodeOf(e.code);
    (code === 3 ? unreachableReasons : code === 2 ? configReasons : brokenReasons).push(e.line);
  }
  if (input.baselineError) configReasons.push(input.baselineError.line);
  for (const s of input.staleBaseline)
    configReasons.push(`idm-conformance: ${BASELINE_STALE}: stale baseline entry: ${s}`);

  if (configReasons.length > 0) return { exitCode: 2, verdict: 'config-error', reasons: configReasons };
  if (unreachableReasons.length > 0) return { exitCode: 3, verdict: 'unreachable', reasons: unreachableReasons };

  const failedMust = byRootCause(
    input.clauses,
    input.clauses.filter((c) => c.kind === 'must' && c.status === 'failed'),
  );
  const reasons = failedMust.map((o) => {
    const note = rootCauseNote(o);
    return `must clause failed: ${o.clause.id} (§${o.clause.section})${note ? ` [${note}]` : ''} ${o.clause.failures[0]?.message ?? ''}`.trimEnd();
  });
  if (input.playwrightStatus === 'timedout') brokenReasons.push('the run hit its global timeout');
  if (input.playwrightStatus === 'interrupted') brokenReasons.push('the run was interrupted');
  brokenReasons.push(...input.problems, ...input.otherFailures);
  if (reasons.length > 0) return { exitCode: 1, verdict: 'non-conformant', reasons: [...reasons, ...brokenReasons] };
  if (brokenReasons.length > 0) return { exitCode: 1, verdict: 'run-broken', reasons: brokenReasons };
  const unexercised = unexercisedByRun(input.clauses);
  if (unexercised.length > 0)
    return {
      exitCode: input.failOnIncomplete ? 4 : 0,
      verdict: 'incomplete',
      reasons: reasonsByCount(unexercised).map(
        (r) =>
          `not exercised (${r.clauses.length} must clause${r.clauses.length === 1 ? '' : 's'}: ${r.clauses.join(', ')}): ${r.reason}`,
      ),
    };
  return { exitCode: 0, verdict: 'conformant', reasons: [] };
}
