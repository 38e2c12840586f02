// reports/conformance.html: one self-contained page for a QA lead. Headline figure, a
// matrix of spec sections × clauses coloured by status, failures expandable to their
// evidence, observations apart from verdicts, every clause linked to its spec text.
import { readFileSync } from 'node:fs';
import { byRootCause, rootCauseNote } from './root-causes.ts';
import { methodViews, methodWords, standardDerived, type MethodView } from './auth-methods.ts';
import { failuresShown, testsWord, type ShownFailure } from './failing-exchanges.ts';
import { attackCounts } from './attacks.ts';
import { resentLine } from './summary.ts';
import { reasonsByCount } from './incomplete.ts';
import {
  type AttackResult,
  CLAUSE_STATUSES,
  compareSections,
  type ClauseResult,
  type ClauseStatus,
  type ConformanceReport,
  type SectionInfo,
} from './model.ts';

const LABEL: Record<ClauseStatus, string> = {
  failed: 'failed',
  'expected-failure': 'expected failure',
  passed: 'passed',
  observed: 'observed',
  skipped: 'skipped',
  'not-exercisable': 'not exercisable',
};

export function renderHtml(r: ConformanceReport): string {
  const sections = groupBySection(r.clauses);
  // Root causes first (reporters/root-causes.ts).
  const causes = byRootCause(
    r.clauses,
    r.clauses.filter((c) => c.status === 'failed'),
  );
  const failed = causes.map((o) => o.clause);
  const notes = new Map(causes.map((o) => [o.clause.id, rootCauseNote(o)]));
  // Each failing exchange once: under the first clause that lists it (reporters/failing-exchanges.ts).
  const shown = failuresShown(failed);
  const xfail = r.clauses.filter((c) => c.status === 'expected-failure');
  const observed = r.clauses.filter((c) => c.observations.length > 0);
  const c = r.totals.conformance;
  const verdictClass = r.gate.verdict === 'incomplete' ? 'incomplete' : r.gate.exitCode === 0 ? 'ok' : 'bad';
  const verdictText = r.gate.verdict === 'conformant' ? 'Conformant' : r.gate.verdict.replace('-', ' ');

  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Conformance — ${esc(r.target ?? 'unknown target')}${r.authTarget ? ` · ${esc(r.authTarget)}` : ''}</title>
<style>${CSS}</style>
</head>
<body>
<header>
  <div class="title">
    <h1>Conformance report</h1>
    ${targets(r)}
    <dl class="meta">
      ${metaItem('Started', fmtTime(r.startedAt))}
      ${metaItem('Duration', `${(r.durationMs / 1000).toFixed(1)} s`)}
      ${metaItem('Depth', r.depth ?? '—')}
      ${metaItem('Seed', r.seed === null ? '—' : String(r.seed))}
      ${metaItem('Tests', `${r.run.tests.total} (${r.run.tests.failed} failed, ${r.run.tests.skipped} skipped)`)}
      ${r.requests === null ? '' : metaItem('Requests', String(r.requests))}
      ${metaItem('Suite', `${r.suite.name} ${r.suite.version}`)}
    </dl>
  </div>
  <div class="headline ${verdictClass}" id="headline">
    <div class="figure" data-testid="headline-figure">${c.passed}<span class="of">/</span>${c.exercised}</div>
    <div class="caption">must clauses passed / exercised${c.percent === null ? '' : ` · <b>${c.percent}%</b>`}</div>
    <div class="verdict" data-testid="verdict">${esc(verdictText)} · exit ${r.gate.exitCode}</div>
    <div class="caption small">${r.totals.must.total} must clauses in the catalogue · ${r.totals.must.skipped} not exercised in this run${r.incomplete.length > 0 ? `, ${r.incomplete.length} for a reason of the run` : ''}</div>
  </div>
</header>

<nav class="chips" aria-label="Filter by status">
  <button class="chip active" data-filter="all">all <b>${r.totals.clauses}</b></button>
  ${CLAUSE_STATUSES.map((s) => `<button class="chip s-${s}" data-filter="${s}">${LABEL[s]} <b>${r.totals.byStatus[s]}</b></button>`).join('\n  ')}
</nav>

${r.gate.reasons.length > 0 ? `<section class="card gate"><h2>Why the gate says exit ${r.gate.exitCode}</h2><ul>${r.gate.reasons.map((x) => `<li>${esc(x)}</li>`).join('')}</ul></section>` : ''}
${incompleteBlock(r)}

<section class="card">
  <h2>Matrix <span class="hint">one square per clause, by spec section; click a square for the clause</span></h2>
  <table class="matrix">
    ${sections
      .map(
        ([sec, list]) => `<tr>
      <th><a href="#sec-${slug(sec)}">§${esc(sec)}</a> <span class="sec-title">${esc(sectionTitle(r.sections[sec]))}</span></th>
      <td>${list.map((x) => `<a class="sq s-${x.status}" href="#clause-${esc(x.id)}" title="${esc(`${x.id} — ${LABEL[x.status]}\n${x.text}`)}" aria-label="${esc(`${x.id} ${LABEL[x.status]}`)}"></a>`).join('')}</td>
      <td class="counts">${countsLine(list)}</td>
    </tr>`,
      )
      .join('\n')}
  </table>
  <div class="legend">${CLAUSE_STATUSES.map((s) => `<span><i class="sq s-${s}"></i>${LABEL[s]}</span>`).join('')}</div>
</section>

<section class="card" id="failures">
  <h2>Failures <span class="count">${failed.length}</span></h2>
  ${failed.length === 0 ? '<p class="empty">No must clause failed outside the baseline.</p>' : failed.map((x) => failureBlock(x, notes.get(x.id) ?? '', shown.get(x.id))).join('\n')}
</section>

${xfail.length > 0 ? `<section class="card" id="expected-failures"><h2>Expected failures (baseline) <span class="count">${xfail.length}</span></h2>${xfail.map((x) => failureBlock(x)).join('\n')}</section>` : ''}

<section class="card" id="observations">
  <h2>Observations <span class="count">${observed.length}</span> <span class="hint">what the target did where the spec states no rule — never a pass or a failure</span></h2>
  ${
    observed.length === 0
      ? '<p class="empty">No observations recorded.</p>'
      : `<table class="list observations">
    <tr><th>Clause</th><th>§</th><th>Observed</th></tr>
    ${observed.map((x) => `<tr><td><a href="#clause-${esc(x.id)}"><code>${esc(x.id)}</code></a><div class="muted">${esc(x.text)}</div></td><td>${esc(x.section)}</td><td>${observationList(x)}</td></tr>`).join('\n')}
  </table>`
  }
</section>

${authMethodsSection(r.clauses)}
${attacksSection(r.attacks)}
${standardsSection(r.clauses)}
<section class="card" id="clauses">
  <h2>All clauses by section</h2>
  ${sections.map(([sec, list]) => sectionBlock(sec, list, r.sections[sec])).join('\n')}
</section>

${
  runFacts(r).length > 0
    ? `<section class="card"><h2>Run facts</h2><ul>${runFacts(r)
        .map((n) => `<li>${esc(n)}</li>`)
        .join('')}</ul></section>`
    : ''
}
${r.run.errors.length > 0 ? `<section class="card"><h2>Run problems</h2><ul>${r.run.errors.map((e) => `<li>${esc(e.line)}</li>`).join('')}</ul></section>` : ''}

<section class="card small muted">
  Baseline: ${esc(r.baseline.path ?? 'none')} · ${r.baseline.entries} entr${r.baseline.entries === 1 ? 'y' : 'ies'}, ${r.baseline.applied.length} applied${r.baseline.stale.length ? `, <b>${r.baseline.stale.length} stale</b>` : ''} ·
  Playwright status: ${esc(r.run.playwrightStatus)} · ended ${esc(fmtTime(r.endedAt))}
</section>
<script>${SCRIPT}</script>
</body>
</html>
`;
}

/**
 * The must clauses the run did not exercise for a reason of its own (reporters/incomplete.ts): one row
 * per reason with its clauses, commonest first, as the terminal summary groups them.
 */
function incompleteBlock(r: ConformanceReport): string {
  if (r.incomplete.length === 0) return '';
  const section = new Map(r.incomplete.map((u) => [u.clause, u.section]));
  return `<section class="card" id="incomplete"><h2>Not exercised for a reason of the run <span class="count">${r.incomplete.length}</span> <span class="hint">no Chromium, a login not driven, a setting unset: the verdict cannot speak for these</span></h2>
  <table class="list"><tr><th>Why</th><th>Clauses</th></tr>
  ${reasonsByCount(r.incomplete)
    .map(
      (g) =>
        `<tr data-testid="incomplete-cause"><td>${esc(g.reason)}</td><td>${g.clauses.map((c) => `<a href="#clause-${esc(c)}"><code>${esc(c)}</code></a> <span class="muted">§${esc(section.get(c) ?? '')}</span>`).join('<br>')}</td></tr>`,
    )
    .join('\n  ')}
  </table></section>`;
}

function failureBlock(x: ClauseResult, rootCause = '', entries = failuresShown([x]).get(x.id) ?? []): string {
  return `<details class="failure s-${x.status}" id="fail-${esc(x.id)}" data-clause="${esc(x.id)}">
  <summary><span class="pill s-${x.status}">${LABEL[x.status]}</span> <code>${esc(x.id)}</code> <span class="muted">§${esc(x.section)}</span> ${esc(x.text)}
    <span class="muted">· ${x.failures.length} failing check${x.failures.length === 1 ? '' : 's'}</span>${rootCause ? ` <strong class="root-cause">${esc(rootCause)}</strong>` : ''}</summary>
  <div class="evidence" data-testid="evidence">
    ${x.baseline ? `<p class="baseline">Baselined: ${esc(x.baseline.reason)}${x.baseline.link ? ` — <a href="${esc(x.baseline.link)}">${esc(x.baseline.link)}</a>` : ''}</p>` : ''}
    ${entries.map(failureEvidence).join('\n')}
    <div class="muted"><a href="#clause-${esc(x.id)}">clause and spec text ↓</a></div>
  </div>
</details>`;
}

/** One failing exchange: its evidence, or a pointer to the clause it is shown under. */
function failureEvidence(e: ShownFailure): string {
  const f = e.failure;
  if (e.shownUnder !== undefined)
    return `<div class="check">
      <div class="msg">${esc(f.message)}</div>
      <div class="muted">the same exchange as under <a href="#fail-${esc(e.shownUnder)}"><code>${esc(e.shownUnder)}</code></a></div>
    </div>`;
  return `<div class="check">
      <div class="msg">${esc(f.message)}</div>
      <div class="muted">test: ${esc(testsWord(e))}</div>
      ${e.alsoFailed.length > 0 ? `<div>this exchange also failed: ${e.alsoFailed.map((id) => `<a href="#fail-${esc(id)}"><code>${esc(id)}</code></a>`).join(', ')}</div>` : ''}
      ${f.evidence?.seed !== undefined ? `<div>replay: seed <code>${esc(String(f.evidence.seed))}</code>${f.evidence.path ? ` path <code>${esc(f.evidence.path)}</code>` : ''}</div>` : ''}
      ${f.evidence?.answer ? `<div>answer: <code>${esc(f.evidence.answer.class)}</code> by rule <code>${esc(f.evidence.answer.rule)}</code> <span class="muted">(${esc(f.evidence.answer.citation)})</span></div>` : ''}
      ${f.evidence?.counterexample !== undefined ? `<div class="label">counterexample</div><pre>${esc(pretty(f.evidence.counterexample))}</pre>` : ''}
      ${f.evidence?.curl ? `<div class="label">reproduce</div><pre class="curl">${esc(f.evidence.curl)}</pre>` : ''}
      ${f.evidence?.request ? `<div class="label">request</div><pre>${esc(`${f.evidence.request.method} ${f.evidence.request.url}\n${headers(f.evidence.request.headers)}${f.evidence.request.body !== undefined ? `\n\n${pretty(f.evidence.request.body)}` : ''}`)}</pre>` : ''}
      ${f.evidence?.response ? `<div class="label">response</div><pre>${esc(`HTTP ${f.evidence.response.status}\n${headers(f.evidence.response.headers)}${f.evidence.response.body !== undefined ? `\n\n${pretty(f.evidence.response.body)}` : ''}`)}</pre>` : ''}
    </div>`;
}

function sectionBlock(sec: string, list: ClauseResult[], info: SectionInfo | undefined): string {
  const specText = info?.text;
  return `<div class="section" id="sec-${slug(sec)}">
  <h3>§${esc(sec)} ${esc(sectionTitle(info))}</h3>
  ${specText ? `<details class="spec" id="spec-${slug(sec)}"><summary>Spec text of §${esc(sec)}</summary><div class="spec-text">${markdown(specText)}</div></details>` : ''}
  <table class="list clauses">
    <tr><th>Status</th><th>Clause</th><th>Detail</th><th>Tests</th></tr>
    ${list
      .map(
        (x) => `<tr id="clause-${esc(x.id)}" class="row" data-status="${x.status}">
      <td><span class="pill s-${x.status}">${LABEL[x.status]}</span></td>
      <td><code>${esc(x.id)}</code><div>${esc(x.text)}</div><div class="muted small">${x.kind}${x.severity ? ` · ${esc(x.severity)}` : ''} · ${specText ? `<a href="#spec-${slug(sec)}" class="speclink">spec §${esc(sec)}</a>` : `spec §${esc(sec)}`}</div></td>
      <td>${detail(x)}</td>
      <td class="tests">${testList(x)}</td>
    </tr>`,
      )
      .join('\n')}
  </table>
</div>`;
}

function detail(x: ClauseResult): string {
  if (x.status === 'failed' || x.status === 'expected-failure') {
    return `<a href="#fail-${esc(x.id)}" class="open-failure" data-clause="${esc(x.id)}">${esc(x.failures[0]?.message ?? 'see failure')}</a>${x.status === 'expected-failure' ? `<div class="muted">baseline: ${esc(x.reason ?? '')}</div>` : ''}`;
  }
  if (x.status === 'observed') return observationList(x);
  if (x.status === 'passed')
    return `<span class="muted">${x.checks.passed} check${x.checks.passed === 1 ? '' : 's'} passed</span>`;
  const note =
    x.baseline && x.status === 'skipped' ? `<div class="muted">baselined: ${esc(x.baseline.reason)}</div>` : '';
  return `<span class="muted">${esc(x.reason ?? '')}</span>${note}`;
}

// Helpers

function groupBySection(clauses: readonly ClauseResult[]): [string, ClauseResult[]][] {
  const map = new Map<string, ClauseResult[]>();
  for (const c of clauses) {
    const list = map.get(c.section) ?? [];
    list.push(c);
    map.set(c.section, list);
  }
  return [...map.entries()].sort(([a], [b]) => compareSections(a, b));
}

function sectionTitle(info: SectionInfo | undefined): string {
  return (info?.title ?? '').replace(/^[\d.]+\s*/, '');
}

function countsLine(list: ClauseResult[]): string {
  return CLAUSE_STATUSES.map((s) => [s, list.filter((x) => x.status === s).length] as const)
    .filter(([, n]) => n > 0)
    .map(([s, n]) => `<span class="t-${s}">${n} ${LABEL[s]}</span>`)
    .join(' · ');
}

/** §5.2: one row per way to authenticate: judged, or why not (a setting unset, declared not offered, another cause). */
function authMethodsSection(clauses: readonly ClauseResult[]): string {
  const views = methodViews(clauses);
  if (!views.some((v) => v.clauses.length > 0)) return '';
  const row = (v: MethodView) =>
    `<tr><td>${esc(v.name)}</td><td>${v.state === 'judged' ? 'judged' : `<span class="muted">${esc(methodWords(v))}${v.state !== 'not-judged' && v.reason ? `: ${esc(v.reason)}` : ''}</span>`}</td><td>${v.clauses.map((x) => `<a href="#clause-${esc(x.id)}"><code>${esc(x.id)}</code></a> ${esc(x.status)}`).join('<br>')}</td></tr>`;
  return `<section class="card" id="auth-methods">
  <h2>Authentication methods (§5.2) <span class="hint">each way to authenticate, exercised when its client is configured</span></h2>
  <table class="list"><tr><th>Method</th><th>This run</th><th>Clauses</th></tr>${views.map(row).join('\n')}</table>
</section>`;
}

/** Every attack sent: carrier, attack, clause and citation, the answer and what it came to. */
function attacksSection(attacks: readonly AttackResult[] | undefined): string {
  if (!attacks || attacks.length === 0) return '';
  const counts = attackCounts(attacks);
  const summary = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([o, n]) => `${n} ${o}`)
    .join(' · ');
  const cls = (o: AttackResult['outcome']) =>
    o === 'refused'
      ? 't-passed'
      : o === 'accepted' || o === 'wrong refusal' || o === 'fault'
        ? 't-failed'
        : 't-skipped';
  const row = (a: AttackResult) =>
    `<tr><td>${esc(a.carrier)}</td><td>${esc(a.what)}<div class="muted"><code>${esc(a.row)}</code></div></td><td><a href="#clause-${esc(a.clause)}"><code>${esc(a.clause)}</code></a><div class="muted">${esc(a.citation)}</div></td><td>${a.status ?? '—'}${a.error ? ` <code>${esc(a.error)}</code>` : ''}</td><td class="${cls(a.outcome)}">${esc(a.outcome)}${a.note ? `<div class="muted">${esc(a.note)}</div>` : ''}</td></tr>`;
  return `<section class="card" id="attacks">
  <h2>Attacks sent <span class="count">${attacks.length}</span> <span class="hint">${esc(summary)}: each forged or misused credential, where it was presented and what the tenant answered</span></h2>
  <table class="list"><tr><th>Carrier</th><th>Attack</th><th>Clause</th><th>Answer</th><th>Came to</th></tr>${attacks.map(row).join('\n')}</table>
</section>`;
}

/** Clauses taken from a standard the spec names, apart from the spec's own. */
function standardsSection(clauses: readonly ClauseResult[]): string {
  const std = standardDerived(clauses);
  if (std.length === 0) return '';
  return `<section class="card" id="standards">
  <h2>From standards the spec names <span class="count">${std.length}</span> <span class="hint">rules of OAuth 2.0, OpenID Connect, PKCE, revocation… checked where the spec relies on them</span></h2>
  <table class="list"><tr><th>Clause</th><th>Source</th><th>Kind</th><th>Status</th></tr>
  ${std.map((x) => `<tr><td><a href="#clause-${esc(x.id)}"><code>${esc(x.id)}</code></a><div class="muted">${esc(x.text)}</div></td><td>${esc(x.source ?? '')}</td><td>${esc(x.kind)}</td><td>${esc(x.status)}</td></tr>`).join('\n')}
  </table>
</section>`;
}

function uniqueObservations(x: ClauseResult): { observation: string; test: string; count: number }[] {
  const map = new Map<string, { observation: string; test: string; count: number }>();
  for (const o of x.observations) {
    const m = map.get(o.observation);
    if (m) m.count++;
    else map.set(o.observation, { observation: o.observation, test: o.test, count: 1 });
  }
  return [...map.values()];
}

/** The first few distinct observations, the rest folded away (a property may record dozens). */
function observationList(x: ClauseResult): string {
  const items = uniqueObservations(x).map(
    (o) =>
      `<li title="${esc(o.test)}">${esc(o.observation)}${o.count > 1 ? ` <span class="muted">×${o.count}</span>` : ''}</li>`,
  );
  const shown = items.slice(0, OBSERVATIONS_SHOWN).join('');
  const rest = items.slice(OBSERVATIONS_SHOWN);
  return `<ul class="obs">${shown}</ul>${rest.length > 0 ? `<details class="more"><summary>${rest.length} more</summary><ul class="obs">${rest.join('')}</ul></details>` : ''}`;
}

const OBSERVATIONS_SHOWN = 4;

/** The tests behind a clause; response-wide clauses are checked by most tests, so fold the tail. */
function testList(x: ClauseResult): string {
  if (x.tests.length === 0) return '<span class="muted">—</span>';
  // failing tests first: they are the ones a reader is after
  const order = (s: string) => (s === 'failed' || s === 'timedOut' ? 0 : s === 'passed' ? 1 : 2);
  const items = [...x.tests]
    .sort((a, b) => order(a.status) - order(b.status))
    .map(
      (t) =>
        `<div title="${esc(`${t.file}${t.line ? `:${t.line}` : ''}`)}">${statusDot(t.status)} ${esc(t.title)}${t.flaky ? ' <span class="muted">(flaky)</span>' : ''}</div>`,
    );
  const rest = items.slice(TESTS_SHOWN);
  return (
    items.slice(0, TESTS_SHOWN).join('') +
    (rest.length > 0
      ? `<details class="more"><summary>${rest.length} more tests</summary>${rest.join('')}</details>`
      : '')
  );
}

const TESTS_SHOWN = 3;

function statusDot(status: string): string {
  const cls =
    status === 'passed' ? 'passed' : status === 'skipped' ? 'skipped' : status === 'interrupted' ? 'skipped' : 'failed';
  return `<i class="dot s-${cls}" title="${esc(status)}"></i>`;
}

/** The target's origin; both, each named by its API, when the authentication API has its own. */
function targets(r: ConformanceReport): string {
  const management = esc(r.target ?? 'target unknown');
  if (!r.authTarget) return `<div class="target">${management}</div>`;
  return `<div class="target"><span class="api">management API</span> ${management}</div>
    <div class="target"><span class="api">authentication API</span> ${esc(r.authTarget)}</div>`;
}

function metaItem(k: string, v: string): string {
  return `<div><dt>${esc(k)}</dt><dd>${esc(v)}</dd></div>`;
}

function headers(h: Record<string, string>): string {
  return Object.entries(h)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');
}

function pretty(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
}

function fmtTime(iso: string): string {
  return iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
}

function slug(s: string): string {
  return s.replace(/[^a-zA-Z0-9]+/g, '-');
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);
}

/** Just enough Markdown for the spec's sections: headings, tables, lists, bold and code. */
function markdown(src: string): string {
  const inline = (s: string) =>
    esc(s)
      .replace(/`([^`]+)`/g, '<code>$1</code>')
      .replace(/\*\*([^*]+)\*\*/g, '<b>$1</b>');
  const out: string[] = [];
  const lines = src.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('|')) {
      const rows: string[][] = [];
      while (i < lines.length && lines[i]!.startsWith('|')) {
        const cells = lines[i]!.replace(/^\||\|$/g, '')
          .split('|')
          .map((x) => x.trim());
        if (!cells.every((x) => /^:?-+:?$/.test(x))) rows.push(cells);
        i++;
      }
      i--;
      const [head, ...body] = rows;
      out.push(
        `<table>${head ? `<tr>${head.map((h) => `<th>${inline(h)}</th>`).join('')}</tr>` : ''}${body.map((r) => `<tr>${r.map((d) => `<td>${inline(d)}</td>`).join('')}</tr>`).join('')}</table>`,
      );
    } else if (/^- /.test(line)) {
      const items: string[] = [];
      while (i < lines.length && /^- /.test(lines[i]!)) items.push(lines[i++]!.slice(2));
      i--;
      out.push(`<ul>${items.map((x) => `<li>${inline(x)}</li>`).join('')}</ul>`);
    } else if (/^#{1,6} /.test(line)) {
      out.push(`<h4>${inline(line.replace(/^#+ /, ''))}</h4>`);
    } else if (line.trim() !== '') {
      out.push(`<p>${inline(line)}</p>`);
    }
  }
  return out.join('\n');
}

/** Inlined, so the page stays one self-contained file. */
const CSS = readFileSync(new URL('report.css', import.meta.url), 'utf8');

// Filter chips, and following a link to a failure opens it.
const SCRIPT = `
(function () {
  var chips = document.querySelectorAll('.chip');
  chips.forEach(function (chip) {
    chip.addEventListener('click', function () {
      chips.forEach(function (c) { c.classList.remove('active'); });
      chip.classList.add('active');
      var f = chip.getAttribute('data-filter');
      document.querySelectorAll('tr.row').forEach(function (row) {
        row.classList.toggle('hidden', f !== 'all' && row.getAttribute('data-status') !== f);
      });
      document.querySelectorAll('.matrix a.sq').forEach(function (sq) {
        sq.style.opacity = f === 'all' || sq.classList.contains('s-' + f) ? '1' : '0.15';
      });
    });
  });
  function openTarget() {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (el && el.tagName === 'DETAILS') el.open = true;
    if (el && el.id.indexOf('spec-') === 0) el.open = true;
  }
  window.addEventListener('hashchange', openTarget);
  openTarget();
})();
`;

/** What the reader should know about the run besides the verdict: the stumbles absorbed, then the notes. */
function runFacts(r: ConformanceReport): string[] {
  const resent = resentLine(r);
  return [...(resent ? [resent] : []), ...(r.run.notes ?? [])];
}
