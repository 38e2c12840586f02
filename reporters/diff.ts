// Compares two conformance.json files (yesterday against today, staging against
// production): clauses that regressed, recovered, or changed what was observed.
import type { ClauseResult, ClauseStatus, ConformanceReport } from './model.ts';

export interface ClauseChange {
  id: string;
  section: string;
  text: string;
  from: ClauseStatus | 'absent';
  to: ClauseStatus | 'absent';
  /** For failures: the first failing message in the later run. */
  message?: string;
}

export interface ObservationChange {
  id: string;
  section: string;
  text: string;
  before: string[];
  after: string[];
}

export interface RunDiff {
  a: { target: string | null; startedAt: string; conformance: string };
  b: { target: string | null; startedAt: string; conformance: string };
  regressed: ClauseChange[];
  recovered: ClauseChange[];
  observations: ObservationChange[];
  /** Any other status change (e.g. passed → skipped, clauses added or removed). */
  other: ClauseChange[];
}

const FAILING = new Set<string>(['failed', 'expected-failure']);

export function diffReports(a: ConformanceReport, b: ConformanceReport): RunDiff {
  const before = new Map(a.clauses.map((c) => [c.id, c]));
  const after = new Map(b.clauses.map((c) => [c.id, c]));
  const ids = [...new Set([...before.keys(), ...after.keys()])];
  const out: RunDiff = { a: head(a), b: head(b), regressed: [], recovered: [], observations: [], other: [] };
  for (const id of ids) {
    const x = before.get(id);
    const y = after.get(id);
    const ref = (y ?? x)!;
    const change: ClauseChange = {
      id,
      section: ref.section,
      text: ref.text,
      from: x?.status ?? 'absent',
      to: y?.status ?? 'absent',
    };
    if (y && FAILING.has(y.status) && y.failures[0]) change.message = y.failures[0].message;

    const obsBefore = observationSet(x);
    const obsAfter = observationSet(y);
    if ((obsBefore.length > 0 || obsAfter.length > 0) && obsBefore.join('\n') !== obsAfter.join('\n')) {
      out.observations.push({ id, section: ref.section, text: ref.text, before: obsBefore, after: obsAfter });
    }
    if (change.from === change.to) continue;
    // A failure that becomes expected (baselined) or the reverse is not a change in the target.
    if (FAILING.has(change.from) && FAILING.has(change.to)) continue;
    if (change.to === 'failed' || (change.to === 'expected-failure' && change.from === 'passed'))
      out.regressed.push(change);
    else if (FAILING.has(change.from) && change.to === 'passed') out.recovered.push(change);
    else if (!(change.from === 'observed' && change.to === 'observed')) out.other.push(change);
  }
  return out;
}

export function renderDiff(d: RunDiff): string {
  const lines: string[] = [];
  lines.push(`A: ${d.a.target ?? '?'} at ${d.a.startedAt} — must passed/exercised ${d.a.conformance}`);
  lines.push(`B: ${d.b.target ?? '?'} at ${d.b.startedAt} — must passed/exercised ${d.b.conformance}`);
  const block = (title: string, list: ClauseChange[], mark: string) => {
    lines.push('', `${title} (${list.length})`);
    if (list.length === 0) lines.push('  none');
    for (const c of list) {
      lines.push(`  ${mark} ${c.id} (§${c.section}) ${c.from} → ${c.to}  ${c.text}`);
      if (c.message) lines.push(`      ${c.message}`);
    }
  };
  block('Regressed', d.regressed, '✗');
  block('Recovered', d.recovered, '✓');
  lines.push('', `Changed observations (${d.observations.length})`);
  if (d.observations.length === 0) lines.push('  none');
  for (const o of d.observations) {
    lines.push(`  ~ ${o.id} (§${o.section}) ${o.text}`);
    lines.push(`      A: ${o.before.length ? o.before.join('; ') : '(nothing observed)'}`);
    lines.push(`      B: ${o.after.length ? o.after.join('; ') : '(nothing observed)'}`);
  }
  if (d.other.length > 0) block('Other status changes', d.other, '·');
  lines.push('');
  return lines.join('\n');
}

// Helpers

function head(r: ConformanceReport): RunDiff['a'] {
  const c = r.totals.conformance;
  return { target: r.target, startedAt: r.startedAt, conformance: `${c.passed}/${c.exercised}` };
}

function observationSet(c: ClauseResult | undefined): string[] {
  return c ? [...new Set(c.observations.map((o) => o.observation))].sort() : [];
}
