// The terminal summary printed at the end of a run: headline, counts by status and by
// section, the failing clauses with their reproduction, the gate's verdict.
import { attackCounts } from './attacks.ts';
import { byRootCause, rootCauseNote } from './root-causes.ts';
import { methodViews, methodWords, standardDerived } from './auth-methods.ts';
import { CLAUSE_STATUSES, compareSections, type ClauseStatus, type ConformanceReport } from './model.ts';
import { reasonsByCount } from './incomplete.ts';
import { failuresShown, testsWord } from './failing-exchanges.ts';

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

/** Colour and bold when the terminal takes them, plain text otherwise. */
interface Style {
  paint: (code: number, s: string) => string;
  bold: (s: string) => string;
}

export function renderSummary(r: ConformanceReport, opts: SummaryOptions): string {
  const style: Style = {
    paint: (code, s) => (opts.color ? `\x1b[${code}m${s}\x1b[0m` : s),
    bold: (s) => (opts.color ? `\x1b[1m${s}\x1b[0m` : s),
  };
  return [
    ...overview(r, style),
    '',
    ...countsTable(r, style),
    ...failingClauses(r, style),
    ...expectedFailures(r, style),
    ...notExercised(r, style),
    ...(opts.warnings ?? []).map((w) => style.paint(33, `warning: ${w}`)),
    '',
    ...verdict(r, opts.files, style),
    '',
  ].join('\n');
}

/** The target's origin; both, each named by its API, when the authentication API has its own. */
function targets(r: ConformanceReport): string {
  const management = r.target ?? '(target unknown)';
  return r.authTarget ? `${management} (management API) and ${r.authTarget} (authentication API)` : management;
}

/** The verdict and why, for a reader who reads no further; then the target, the score and the run. */
function overview(r: ConformanceReport, { bold }: Style): string[] {
  const c = r.totals.conformance;
  const out = [
    headline(r, bold),
    bold(`Conformance of ${targets(r)}`) +
      `  depth ${r.depth ?? '-'} · seed ${r.seed ?? '-'} · ${r.suite.name} ${r.suite.version}`,
    `Must clauses passed / exercised: ${bold(`${c.passed}/${c.exercised}`)}` +
      (c.percent === null ? '' : ` (${c.percent}%)`) +
      ` · ${r.totals.must.total} must clauses in the catalogue, ${r.totals.must.skipped} not exercised`,
  ];
  const std = standardDerived(r.clauses).filter((x) => x.kind === 'must');
  if (std.length > 0) {
    const ran = std.filter((x) => x.status === 'passed' || x.status === 'failed' || x.status === 'expected-failure');
    out.push(
      `  of which from standards the spec names (RFC/OIDC): ${ran.filter((x) => x.status === 'passed').length}/${ran.length} passed · ${std.length} in the catalogue`,
    );
  }
  const methods = methodViews(r.clauses);
  if (methods.some((m) => m.clauses.length > 0)) {
    // None judged for one cause (e.g. not run in this selection): said once.
    const causes = new Set(methods.map((m) => (m.state === 'judged' ? null : methodWords(m))));
    const one = causes.size === 1 ? [...causes][0] : undefined;
    out.push(
      `Authentication methods (§5.2): ${
        one
          ? `none ${one}`
          : methods
              .map(
                (m) =>
                  `${m.name} ${m.state === 'judged' ? (m.clauses.some((x) => x.status === 'failed') ? 'FAILED' : 'ok') : methodWords(m)}`,
              )
              .join(' · ')
      }`,
    );
  }
  // A report written before the attack catalogue has none.
  const attacks = r.attacks ?? [];
  if (attacks.length > 0) {
    const counts = Object.entries(attackCounts(attacks))
      .filter(([, n]) => n > 0)
      .map(([o, n]) => `${n} ${o}`);
    const letIn = attacks.filter((a) => a.outcome === 'accepted').map((a) => a.row);
    out.push(
      `Attacks sent (lib/auth/attacks/): ${attacks.length}: ${counts.join(' · ')}` +
        (letIn.length > 0 ? ` — ${bold(`let in: ${letIn.join(', ')}`)}` : ''),
    );
  }
  const secs = (r.durationMs / 1000).toFixed(1);
  out.push(`${r.run.tests.total} tests in ${secs} s` + (r.requests === null ? '' : ` · ${r.requests} requests`));
  const resent = resentLine(r);
  if (resent) out.push(resent);
  for (const note of r.run.notes ?? []) out.push(`Note: ${note}`);
  return out;
}

/** The target's stumbles the run waited out: requests answered 502, 503 or 504, how often they were sent again, how long the run waited. */
export function resentLine(r: ConformanceReport): string | null {
  const met = r.run.resent ?? [];
  if (met.length === 0) return null;
  const byStatus = new Map<number, number>();
  for (const x of met) byStatus.set(x.status, (byStatus.get(x.status) ?? 0) + 1);
  const counts = [...byStatus].map(([status, n]) => `${n}× ${status}`).join(', ');
  const sentAgain = met.filter((x) => x.resends > 0);
  const resends = sentAgain.reduce((n, x) => n + x.resends, 0);
  const waited = (met.reduce((n, x) => n + x.waitedMs, 0) / 1000).toFixed(1);
  const stayed = met.filter((x) => x.spent !== undefined);
  const spent = [...new Set(stayed.map((x) => x.spent))].join(', ');
  return (
    `Sent again: ${sentAgain.length} of ${met.length} request(s) the target answered ${counts}, ${resends} resend(s) in all; the run waited ${waited} s for the target (lib/http.ts, IDM_RESEND_WINDOW_S, IDM_RESEND_RUN_S)` +
    (stayed.length > 0
      ? `; ${stayed.length} still a 5xx when the bound was spent (${spent}): a fault`
      : '; none stayed a 5xx')
  );
}

/** Counts by status, then a compact per-section table with the same columns. */
function countsTable(r: ConformanceReport, { paint }: Style): string[] {
  const cell = (n: number, s: ClauseStatus): string => {
    const text = String(n).padStart(6);
    return n > 0 ? paint(COLOUR[s], text) : text;
  };
  const sections = Object.keys(r.bySection).sort(compareSections);
  const w = Math.max(9, ...sections.map((s) => s.length + 2));
  const out = [
    ['status'.padEnd(w), ...CLAUSE_STATUSES.map((s) => paint(COLOUR[s], SHORT[s].padStart(6))), '  total'].join(''),
    [
      'all'.padEnd(w),
      ...CLAUSE_STATUSES.map((s) => cell(r.totals.byStatus[s], s)),
      String(r.totals.clauses).padStart(7),
    ].join(''),
  ];
  for (const sec of sections) {
    const counts = r.bySection[sec]!;
    const total = CLAUSE_STATUSES.reduce((a, s) => a + counts[s], 0);
    out.push(
      [`§${sec}`.padEnd(w), ...CLAUSE_STATUSES.map((s) => cell(counts[s], s)), String(total).padStart(7)].join(''),
    );
  }
  return out;
}

/** The failing clauses, root causes first (reporters/root-causes.ts), each with its failures and reproduction. */
function failingClauses(r: ConformanceReport, { paint, bold }: Style): string[] {
  const ordered = byRootCause(
    r.clauses,
    r.clauses.filter((x) => x.status === 'failed'),
  );
  const failed = ordered.map((o) => o.clause);
  if (failed.length === 0) return [];
  const out = ['', paint(31, bold(`Failing clauses (${failed.length}):`))];
  // Each failing exchange once: under the first clause that lists it (reporters/failing-exchanges.ts).
  const shown = failuresShown(failed);
  for (const o of ordered.slice(0, FAILING_SHOWN)) {
    const f = o.clause;
    const note = rootCauseNote(o);
    out.push(`  ${paint(31, '✗')} ${bold(f.id)} (§${f.section}) ${f.text}`);
    if (note) out.push(`      ${bold(note)}`);
    const entries = shown.get(f.id) ?? [];
    for (const e of entries.slice(0, 3)) {
      const fail = e.failure;
      out.push(`      ${fail.message}`);
      if (e.shownUnder !== undefined) {
        out.push(`      the same exchange as under ${e.shownUnder}`);
        continue;
      }
      out.push(`      test: ${testsWord(e)}`);
      if (fail.evidence?.seed !== undefined)
        out.push(`      seed: ${fail.evidence.seed}${fail.evidence.path ? ` path: ${fail.evidence.path}` : ''}`);
      if (fail.evidence?.curl) out.push(`      ${clip(fail.evidence.curl).split('\n').join('\n      ')}`);
      if (e.alsoFailed.length > 0) out.push(`      this exchange also failed: ${e.alsoFailed.join(', ')}`);
    }
    if (entries.length > 3) out.push(`      … ${entries.length - 3} more failing exchange(s) in conformance.json`);
  }
  if (failed.length > FAILING_SHOWN)
    out.push(
      `  … ${failed.length - FAILING_SHOWN} more failing clauses: ${failed
        .slice(FAILING_SHOWN)
        .map((f) => f.id)
        .join(', ')}`,
    );
  return out;
}

/** A 4 KiB PEM in a curl would flood the terminal; the whole command is in the reports. */
function clip(curl: string): string {
  return curl.length <= CURL_MAX
    ? curl
    : `${curl.slice(0, CURL_MAX)}… (${curl.length} characters; the whole command is in conformance.json)`;
}

/** The baselined failures, each with its reason and link. */
function expectedFailures(r: ConformanceReport, { paint }: Style): string[] {
  const xfail = r.clauses.filter((x) => x.status === 'expected-failure');
  if (xfail.length === 0) return [];
  return [
    '',
    paint(35, `Expected failures (baseline, ${xfail.length}):`),
    ...xfail.map((x) => `  ~ ${x.id} — ${x.reason ?? ''}${x.baseline?.link ? ` (${x.baseline.link})` : ''}`),
  ];
}

/** The must clauses not exercised for a reason of the run, grouped by reason, commonest first. */
function notExercised(r: ConformanceReport, { paint, bold }: Style): string[] {
  if (r.incomplete.length === 0) return [];
  return [
    '',
    paint(
      33,
      bold(
        `Not exercised for a reason of the run (${r.incomplete.length} must clauses; the verdict cannot speak for them):`,
      ),
    ),
    ...reasonsByCount(r.incomplete).map((g) => `  ${paint(33, '○')} ${g.reason}\n      ${g.clauses.join(', ')}`),
  ];
}

/** The gate's verdict and reasons, the files written, and the plain closing line CI log readers understand. */
function verdict(r: ConformanceReport, files: string[] | undefined, { paint, bold }: Style): string[] {
  const g = r.gate;
  const word =
    g.verdict === 'conformant'
      ? paint(32, bold('CONFORMANT'))
      : paint(g.verdict === 'incomplete' ? 33 : 31, bold(g.verdict.toUpperCase()));
  const out = [`Verdict: ${word} (exit ${g.exitCode})`, ...g.reasons.slice(0, 20).map((reason) => `  - ${reason}`)];
  if (g.reasons.length > 20) out.push(`  … ${g.reasons.length - 20} more in conformance.json`);
  if (files?.length) out.push(`Reports: ${files.join(', ')}`);
  // Must clauses, failures outside the baseline.
  const m = r.totals.must;
  out.push(`Clauses: ${m.passed} passed, ${m.failed} failed, ${m.skipped} skipped`);
  return out;
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
