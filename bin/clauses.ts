// `npm run clauses`: the clause catalogue at a glance — counts by spec section
// and kind. `-- --list` also prints every clause; `-- --json` prints the counts
// as JSON; `-- --section 2.2` limits the listing to a section; `-- --trace <id>`
// prints where one clause lives in the suite (bin/clause-trace.ts).
import { allClauses, clause, specHeading, specText } from '../contract/clauses.ts';
import { exercisedBy, traceData } from './clause-trace.ts';
import type { Clause, ClauseKind } from '../contract/clauses.ts';
import { CLAUSE_KINDS as KINDS } from '../contract/grammar.ts';

const args = process.argv.slice(2);
const sectionFilter = flagValue('--section');
const clauses = allClauses().filter(
  (c) => !sectionFilter || c.section === sectionFilter || c.section.startsWith(`${sectionFilter}.`),
);
const sections = [...new Set(clauses.map((c) => c.section))].sort(compareSections);

const counts = sections.map((s) => {
  const here = clauses.filter((c) => c.section === s);
  return {
    section: s,
    title: specHeading(s),
    total: here.length,
    ...Object.fromEntries(KINDS.map((k) => [k, here.filter((c) => c.kind === k).length])),
  } as Row;
});
const totals = {
  total: clauses.length,
  ...Object.fromEntries(KINDS.map((k) => [k, clauses.filter((c) => c.kind === k).length])),
} as Omit<Row, 'section' | 'title'>;

const traceId = flagValue('--trace');
if (args.includes('--trace')) {
  if (!traceId) {
    console.error(
      'idm-conformance: IDM_E_CONFIG_USAGE: --trace needs a clause id, e.g. --trace rs.update.name.max-length',
    );
    process.exit(2);
  }
  printTrace(traceId);
} else if (args.includes('--json')) {
  console.log(JSON.stringify({ sections: counts, totals }, null, 2));
} else {
  printTable();
  if (args.includes('--list')) printList();
}

// Helpers

type Row = { section: string; title: string; total: number } & Record<ClauseKind, number>;

function printTable(): void {
  const titleWidth = Math.min(48, Math.max(...counts.map((r) => r.title.length)));
  const head = `${'section'.padEnd(titleWidth)}  ${'must'.padStart(5)} ${'observe'.padStart(8)} ${'not-ex.'.padStart(8)} ${'total'.padStart(6)}`;
  console.log(head);
  console.log('-'.repeat(head.length));
  for (const r of counts) {
    const title = r.title.length > titleWidth ? r.title.slice(0, titleWidth - 1) + '…' : r.title;
    console.log(
      `${title.padEnd(titleWidth)}  ${pad(r.must, 5)} ${pad(r.observe, 8)} ${pad(r['not-exercisable'], 8)} ${pad(r.total, 6)}`,
    );
  }
  // Rules taken from a standard the spec names (catalogue `source`), counted apart; the totals
  // stay the last line (tools read it).
  const std = clauses.filter((c) => c.source !== undefined);
  if (std.length > 0) {
    const m = std.filter((c) => c.kind === 'must').length;
    console.log(
      `(in the sections above, from standards the spec names, source RFC/OIDC: ${std.length}, ${m} must, ${std.length - m} observe)`,
    );
  }
  console.log('-'.repeat(head.length));
  console.log(
    `${'all'.padEnd(titleWidth)}  ${pad(totals.must, 5)} ${pad(totals.observe, 8)} ${pad(totals['not-exercisable'], 8)} ${pad(totals.total, 6)}`,
  );
}

function printList(): void {
  for (const s of sections) {
    console.log(`\n§${specHeading(s)}`);
    for (const c of clauses.filter((x: Clause) => x.section === s)) {
      console.log(
        `  ${c.kind.padEnd(15)} ${c.severity.padEnd(8)} ${c.id}${c.source ? `  [${c.source}]` : ''}\n${' '.repeat(27)}${c.text}${c.reason && c.kind !== 'must' ? `\n${' '.repeat(27)}(${c.reason})` : ''}`,
      );
    }
  }
}

function printTrace(id: string): void {
  let c: Clause;
  try {
    c = clause(id);
  } catch (e) {
    console.error(`idm-conformance: IDM_E_CONFIG_CLAUSE: ${(e as Error).message}`);
    process.exit(2);
  }
  const d = traceData();
  const section = (title: string, lines: string[]): void => {
    console.log(`\n${title} (${lines.length})`);
    for (const l of lines.length ? lines : ['none']) console.log(`  ${l}`);
  };
  console.log(
    `${c.id}  ${c.kind} · ${c.severity} · §${c.section}${c.restated_in?.length ? ` (restated in §${c.restated_in.join(', §')})` : ''}`,
  );
  console.log(`  ${c.text}${c.reason ? `\n  reason: ${c.reason}` : ''}`);
  console.log(`\nspec §${specHeading(c.section)}`);
  console.log(
    specText(c.section, { ownOnly: true })
      .split('\n')
      .slice(1)
      .filter(Boolean)
      .map((l) => `    ${l}`)
      .join('\n'),
  );
  section(
    'schema keywords (x-clause)',
    (d.schema.get(id) ?? []).map((s) => `${s.at}  ${s.keyword}`),
  );
  section(
    'validated as part of',
    (d.validated.get(id) ?? []).map((v) => `${v.type} (under ${v.under})`),
  );
  section(
    'generator cases',
    (d.cases.get(id) ?? []).map(
      (k) => `${k.list}: ${k.id} — ${k.description}${k.consumed ? '' : ' (no spec consumes this list)'}`,
    ),
  );
  section(
    'tests declaring it',
    (d.tests.get(id) ?? []).map((t) => `${t.file}:${t.line}  ${t.title}`),
  );
  section('judged on every answer, or over the run', d.runWide.get(id) ?? []);
  section(
    'named in lib/, specs/ and reporters/ (exercises nothing by itself)',
    (d.named.get(id) ?? []).map((r) => `${r.file}:${r.line}`),
  );
  section(
    'mutants',
    (d.mutants.get(id) ?? []).map((m) => `${m.id} (${m.kind}, ${m.fault}) — ${m.description}`),
  );
  const v = d.report?.clauses.get(id);
  console.log(
    `\nlast run: ${d.report ? `${d.report.path}, ${d.report.endedAt}, ${d.report.target ?? 'unknown target'}` : 'no report'}`,
  );
  if (v)
    console.log(
      `  ${v.status}${v.reason ? ` — ${v.reason}` : ''} (checks: ${v.checks.passed} passed, ${v.checks.failed} failed, ${v.checks.observed} observed)`,
    );
  else if (d.report) console.log('  not in that report');
  if (c.kind === 'must') {
    const why = exercisedBy(id, d);
    console.log(
      `\nexercised: ${why.length ? why.join('; ') : 'NO — an orphan (selftest/contract-coverage.spec.ts fails)'}`,
    );
  }
}

function pad(n: number, w: number): string {
  return String(n).padStart(w);
}

function compareSections(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? -1) - (pb[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

function flagValue(flag: string): string | undefined {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}
