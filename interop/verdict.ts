// How one leg of the interop matrix is judged from its runs' conformance.json (pure: no process,
// no file system). Only the authentication half counts: a clause skipped because the Management
// API is not under test (a skip record naming IDM_APIS) is outside it. Every must clause of the
// half is passed, a failure written in the leg's expected.json, or skipped for the server's own
// reason (a flow it does not offer); anything else fails the leg, and so do an expected deviation
// that did not occur and two runs that disagree.

/** A clause of conformance.json, as much of it as the matrix reads. */
export interface ReportClause {
  id: string;
  kind: string;
  status: string;
  skips?: readonly { by: 'tenant' | 'run'; cause: { setting?: string; clause?: string }; text: string }[];
  failures?: readonly { message?: string }[];
}

/** A deviation of the server written down once: what shows it, which standard it breaks, and why it is the server's. */
export interface ExpectedDeviation {
  evidence: string;
  standard: string;
  why: string;
}

/** What one clause came to in one run, as the matrix counts it. */
export type Outcome = 'passed' | 'failed' | 'expected' | 'skipped' | 'not judged';

export interface GroupCounts {
  passed: number;
  failed: number;
  expected: number;
  skipped: number;
}

export interface LegVerdict {
  clean: boolean;
  /** One line per reason the leg failed. */
  problems: string[];
  /** Clause group (auth.flow, auth.sec, ratelimit, …) → counts of the first run's outcomes. */
  groups: Record<string, GroupCounts>;
  /** Clause id → its outcome in each run. */
  clauses: Record<string, Outcome[]>;
}

/** The setting whose skips mark the Management API's clauses (lib/config.ts managementSkip). */
const OUTSIDE_THE_HALF = 'IDM_APIS';

/** The group a clause is counted under: `auth.<family>` for the authentication API, else its first segment. */
function groupOf(id: string): string {
  const [first, second] = id.split('.');
  return first === 'auth' && second ? `auth.${second}` : (first ?? id);
}

/** Whether a clause belongs to the authentication half: judged, or skipped for a reason other than IDM_APIS. */
function inHalf(c: ReportClause): boolean {
  const skips = c.skips ?? [];
  return !(c.status === 'skipped' && skips.length > 0 && skips.every((s) => s.cause.setting === OUTSIDE_THE_HALF));
}

function outcomeOf(c: ReportClause, expected: Readonly<Record<string, ExpectedDeviation>>): Outcome {
  switch (c.status) {
    case 'passed':
      return 'passed';
    case 'failed':
    case 'expected-failure':
      return c.id in expected ? 'expected' : 'failed';
    default:
      // The Management API's own tests skip some clauses the authentication half judges too.
      return (c.skips ?? []).some((s) => s.by === 'run' && s.cause.setting !== OUTSIDE_THE_HALF)
        ? 'not judged'
        : 'skipped';
  }
}

export function judgeLeg(
  runs: readonly (readonly ReportClause[])[],
  expected: Readonly<Record<string, ExpectedDeviation>>,
): LegVerdict {
  const problems: string[] = [];
  const clauses: Record<string, Outcome[]> = {};
  const firstRun = new Map<string, ReportClause>();
  runs.forEach((run, i) => {
    const n = i + 1;
    const byId = new Map(run.map((c) => [c.id, c]));
    for (const c of run) {
      if (c.kind !== 'must' || !inHalf(c)) continue;
      const outcome = outcomeOf(c, expected);
      (clauses[c.id] ??= []).push(outcome);
      if (i === 0) firstRun.set(c.id, c);
      if (outcome === 'failed')
        problems.push(`run ${n}: ${c.id} failed, not in expected.json: ${firstLine(c.failures?.[0]?.message)}`);
      if (outcome === 'not judged')
        problems.push(
          `run ${n}: ${c.id} not judged for a reason of the run (an offered flow must pass): ${firstLine(c.skips?.find((s) => s.by === 'run' && s.cause.setting !== OUTSIDE_THE_HALF)?.text)}`,
        );
    }
    for (const id of Object.keys(expected)) {
      const c = byId.get(id);
      if (!c) problems.push(`run ${n}: expected.json lists ${id}, which the catalogue does not have`);
      else if (c.status !== 'failed' && c.status !== 'expected-failure')
        problems.push(
          `run ${n}: expected deviation ${id} did not occur (${c.status}): stale, remove it or find out why`,
        );
    }
  });
  for (const [id, outcomes] of Object.entries(clauses)) {
    if (outcomes.length !== runs.length) problems.push(`${id} is in the authentication half of some runs only`);
    else if (new Set(outcomes).size > 1) problems.push(`the runs disagree on ${id}: ${outcomes.join(' / ')}`);
  }
  const groups: Record<string, GroupCounts> = {};
  for (const [id, outcomes] of Object.entries(clauses)) {
    const g = (groups[groupOf(id)] ??= { passed: 0, failed: 0, expected: 0, skipped: 0 });
    const o = outcomes[0];
    if (o === 'passed' || o === 'failed' || o === 'expected') g[o]++;
    else g.skipped++;
  }
  if (runs.length === 0) problems.push('no run produced a report');
  return { clean: problems.length === 0, problems, groups, clauses };
}

function firstLine(text: string | undefined): string {
  const line = (text ?? '(no message)').split('\n')[0] ?? '';
  return line.length > 240 ? `${line.slice(0, 237)}...` : line;
}
