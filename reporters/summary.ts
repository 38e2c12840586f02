// The terminal summary printed at the end of a run: headline, counts by status and by
// section, the failing clauses with their reproduction, the gate's verdict.
import { byRootCause, rootCauseNote } from './root-causes.ts';
import { methodViews, standardDerived } from './auth-methods.ts';
import { CLAUSE_STATUSES, compareSections, type ClauseStatus, type ConformanceReport } from './model.ts';
import { reasonsByCount } from './incomplete.ts';

const SHORT: Record<ClauseStatus, string> = {
  failed: 'fail',
  'expected-failure': 'xfail',
  passed: 'pass',
  observed: 'obs',
  skipped: 'skip',
  'not-exercisable': 'n/e',
};

const COLOUR: Record<ClauseStatus, number> = {
  failed: 31,
  'expected-failure': 35,
  passed: 32,
  observed: 36,
  skipped: 33,
  'not-exercisable': 90,
};

const CURL_MAX = 800;
/** Failing clauses shown in full; the rest are named on one line (a broken tenant fails most). */
const FAILING_SHOWN = 25;

export interface SummaryOptions {
  color: boolean;
  /** Where the files were written, shown at the end. */
  files?: string[];
  /** Warnings that decide nothing but deserve a line. */
  warnings?: string[];
}

export function renderSummary(r: ConformanceReport, opts: SummaryOptions): string {
  const paint = (code: number, s: string) => (opts.color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const bold = (s: string) => (opts.color ? `\x1b[1m${s}\x1b[0m` : s);
  const out: string[] = [];
  const c = r.totals.conformance;
  // The first line is the verdict and why, for a reader who reads no further.
  out.push(headline(r, bold));
  out.push(
    bold(`Conformance of ${r.target ?? '(target unknown)'}`) +
      `  depth ${r.depth ?? '-'} · seed ${r.seed ?? '-'} · ${r.suite.name} ${r.suite.version}`,
  );
  out.push(
    `Must clauses passed / exercised: ${bold(`${c.passed}/${c.exercised}`)}` +
      (c.percent === null ? '' : ` (${c.percent}%)`) +
      ` · ${r.totals.must.total} must clauses in the catalogue, ${r.totals.must.skipped} not exercised`,
  );
  const std = standardDerived(r.clauses).filter((x) => x.kind === 'must');
  if (std.length > 0) {
    const ran = std.filter((x) => x.status === 'passed' || x.status === 'failed' || x.status === 'expected-failure');
    out.push(
      `  of which from standards the spec names (RFC/OIDC): ${ran.filter((x) => x.status === 'passed').length}/${ran.length} passed · ${std.length} in the catalogue`,
    );
  }
  const methods = methodViews(r.clauses);
  if (methods.some((m) => m.clauses.length > 0)) {
    out.push(
      `Authentication methods (§5.2): ${methods.map((m) => `${m.name} ${m.configured ? (m.clauses.some((x) => x.status === 'failed') ? 'FAILED' : 'ok') : 'not configured'}`).join(' · ')}`,
    );
  }
  const secs = (r.durationMs / 1000).toFixed(1);
  out.push(`${r.run.tests.total} tests in ${secs} s` + (r.requests === null ? '' : ` · ${r.requests} requests`));
  for (const note of r.run.notes ?? []) out.push(`Note: ${note}`);
  out.push('');

  // Counts by status, then a compact per-section table with the same columns.
  const sections = Object.keys(r.bySection).sort(compareSections);
  const w = Math.max(9, ...sections.map((s) => s.length + 2));
  out.push(
    ['status'.padEnd(w), ...CLAUSE_STATUSES.map((s) => paint(COLOUR[s], SHORT[s].padStart(6))), '  total'].join(''),
  );
  out.push(
    [
      'all'.padEnd(w),
      ...CLAUSE_STATUSES.map((s) => cell(r.totals.byStatus[s], s)),
      String(r.totals.clauses).padStart(7),
    ].join(''),
  );
  for (const sec of sections) {
    const counts = r.bySection[sec]!;
    const total = CLAUSE_STATUSES.reduce((a, s) => a + counts[s], 0);
    out.push(
      [`§${sec}`.padEnd(w), ...CLAUSE_STATUSES.map((s) => cell(counts[s], s)), String(total).padStart(7)].join(''),
    );
  }

  // Root causes first: the clauses other clauses' reasons and evidence name (reporters/root-causes.ts).
  const ordered = byRootCause(
    r.clauses,
    r.clauses.filter((x) => x.status === 'failed'),
  );
  const failed = ordered.map((o) => o.clause);
  if (failed.length > 0) {
    out.push('');
    out.push(paint(31, bold(`Failing clauses (${failed.length}):`)));
    for (const o of ordered.slice(0, FAILING_SHOWN)) {
      const f = o.clause;
      const note = rootCauseNote(o);
      out.push(`  ${paint(31, '✗')} ${bold(f.id)} (§${f.section}) ${f.text}`);
      if (note) out.push(`      ${bold(note)}`);
      for (const fail of f.failures.slice(0, 3)) {
        out.push(`      ${fail.message}`);
        out.push(`      test: ${fail.test}`);
        if (fail.evidence?.seed !== undefined)
          out.push(`      seed: ${fail.evidence.seed}${fail.evidence.path ? ` path: ${fail.evidence.path}` : ''}`);
        if (fail.evidence?.curl) out.push(`      ${clip(fail.evidence.curl).split('\n').join('\n      ')}`);
      }
      if (f.failures.length > 3) out.push(`      … ${f.failures.length - 3} more failure(s) in conformance.json`);
    }
    if (failed.length > FAILING_SHOWN)
      out.push(
        `  … ${failed.length - FAILING_SHOWN} more failing clauses: ${failed
          .slice(FAILING_SHOWN)
          .map((f) => f.id)
          .join(', ')}`,
      );
  }
  const xfail = r.clauses.filter((x) => x.status === 'expected-failure');
  if (xfail.length > 0) {
    out.push('');
    out.push(paint(35, `Expected failures (baseline, ${xfail.length}):`));
    for (const x of xfail)
      out.push(`  ~ ${x.id} — ${x.reason ?? ''}${x.baseline?.link ? ` (${x.baseline.link})` : ''}`);
  }
  if (r.incomplete.length > 0) {
    out.push('');
    out.push(
      paint(
        33,
        bold(
          `Not exercised for a reason of the run (${r.incomplete.length} must clauses; the verdict cannot speak for them):`,
        ),
      ),
    );
    for (const g of reasonsByCount(r.incomplete))
      out.push(`  ${paint(33, '○')} ${g.reason}\n      ${g.clauses.join(', ')}`);
  }
  for (const wline of opts.warnings ?? []) out.push(paint(33, `warning: ${wline}`));

  out.push('');
  const g = r.gate;
  const verdict =
    g.verdict === 'conformant'
      ? paint(32, bold('CONFORMANT'))
      : paint(g.verdict === 'incomplete' ? 33 : 31, bold(g.verdict.toUpperCase()));
  out.push(`Verdict: ${verdict} (exit ${g.exitCode})`);
  for (const reason of g.reasons.slice(0, 20)) out.push(`  - ${reason}`);
  if (g.reasons.length > 20) out.push(`  … ${g.reasons.length - 20} more in conformance.json`);
  if (opts.files?.length) out.push(`Reports: ${opts.files.join(', ')}`);
  // The plain closing line CI log readers understand: must clauses, failures outside the baseline.
  const m = r.totals.must;
  out.push(`Clauses: ${m.passed} passed, ${m.failed} failed, ${m.skipped} skipped`);
  out.push('');
  return out.join('\n');

  // A 4 KiB PEM in a curl would flood the terminal; the whole command is in the reports.
  function clip(curl: string): string {
    return curl.length <= CURL_MAX
      ? curl
      : `${curl.slice(0, CURL_MAX)}… (${curl.length} characters; the whole command is in conformance.json)`;
  }

  function cell(n: number, s: ClauseStatus): string {
    const text = String(n).padStart(6);
    return n > 0 ? paint(COLOUR[s], text) : text;
  }
}

/** "CONFORMANT: …", "INCOMPLETE: 18 must clauses not exercised …": the verdict and its main reason in one line. */
function headline(r: ConformanceReport, bold: (s: string) => string): string {
  const g = r.gate;
  const c = r.totals.conformance;
  const m = r.totals.must;
  const unexercised = reasonsByCount(r.incomplete);
  const also =
    r.incomplete.length > 0 ? `; ${r.incomplete.length} must clauses not exercised for a reason of the run` : '';
  switch (g.verdict) {
    case 'conformant':
      return `${bold('CONFORMANT')}: every must clause exercised passed (${c.passed}/${c.exercised})`;
    case 'incomplete':
      return `${bold('INCOMPLETE')}: ${r.incomplete.length} must clause${r.incomplete.length === 1 ? '' : 's'} not exercised for a reason of the run, chiefly: ${unexercised[0]?.reason ?? ''} (${c.passed}/${c.exercised} exercised passed; exit ${g.exitCode}${g.exitCode === 0 ? ', IDM_FAIL_ON_INCOMPLETE=true fails the gate' : ''})`;
    case 'non-conformant':
      return `${bold('NON-CONFORMANT')}: ${m.failed} must clause${m.failed === 1 ? '' : 's'} failed outside the baseline${also}`;
    default:
      return `${bold(g.verdict.toUpperCase())}: ${g.reasons[0] ?? ''}`;
  }
}
