// Skips and causes as data (issue 30): the reporter decides INCOMPLETE, the root causes, the
// gate and the counts from the skip records alone. Every skip text rewritten at random —
// among them the very words the reporter once parsed — leaves all of it as it was; a must
// clause only observed is not judged (the counts add up); no skip in the suite is plain words.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import {
  clauseSkip,
  encodeSkip,
  decodeSkip,
  noAnswerSkip,
  runSkip,
  stoppedSkip,
  tenantSkip,
  type SkipRecord,
} from '../lib/skip-record.ts';
import { buildReport, type BuildInput } from '../reporters/build-report.ts';
import type { CatalogueEntry, CheckRecord, ConformanceReport, TestOutcome } from '../reporters/model.ts';
import { judgement, reportInvariants, textScrambler } from './report-invariants.ts';

const must = (id: string): CatalogueEntry => ({ id, section: '4.3', text: id, kind: 'must' });
const catalogue: CatalogueEntry[] = [
  'a.flow',
  'a.flow.refusal',
  'a.flow.products',
  'a.other',
  'a.other.refusal',
  'a.consent',
  'a.limit',
  'a.burst',
  'a.setting',
  'a.chain',
  'a.words',
  'a.stopped',
  'a.observed-only',
].map(must);

const failed = (clause: string): CheckRecord => ({ clause, outcome: 'failed', message: `${clause} broke` });
const passed = (clause: string): CheckRecord => ({ clause, outcome: 'passed', message: 'ok' });
const outcome = (title: string, o: Partial<TestOutcome>): TestOutcome => ({
  title,
  file: 'specs/x.spec.ts',
  status: 'passed',
  clauses: [],
  checks: [],
  ...o,
});

/** Every kind of skip the suite writes: the tenant's, the run's, a named cause, a chain, a stop. */
function tests(): TestOutcome[] {
  return [
    outcome('flow', {
      status: 'failed',
      clauses: ['a.flow', 'a.flow.refusal', 'a.stopped'],
      checks: [failed('a.flow')],
      clauseSkips: { 'a.flow.refusal': clauseSkip('a.flow', 'not exercised: the accepted case failed (a.flow: 400)') },
      // It stopped on an error of its own after a.flow failed: a.stopped is left for that error, the run's.
      stopped: stoppedSkip('TypeError: x is undefined'),
    }),
    outcome('products', {
      status: 'skipped',
      clauses: ['a.flow.products'],
      skip: clauseSkip('a.flow', 'the flow gave nothing to judge — a.flow says why'),
    }),
    outcome('other', {
      clauses: ['a.other', 'a.other.refusal'],
      checks: [passed('a.other')],
      clauseSkips: { 'a.other.refusal': runSkip({ setting: 'IDM_X' }, 'not offered (IDM_NOT_OFFERED=x)') },
    }),
    outcome('consent', {
      status: 'skipped',
      clauses: ['a.consent'],
      skip: tenantSkip({ page: '/consent' }, 'needs a setting: set IDM_LOGIN_CONSENT_SELECTOR'),
    }),
    outcome('limit', {
      status: 'skipped',
      clauses: ['a.limit'],
      skip: tenantSkip({ answer: 'accepted' }, 'no 429 after 1000 token requests (bounded burst)'),
    }),
    outcome('burst', { status: 'skipped', clauses: ['a.burst'], skip: runSkip({ setting: 'IDM_ALLOW' }, 'x') }),
    outcome('setting', {
      status: 'skipped',
      clauses: ['a.setting'],
      skip: runSkip({ setting: 'IDM_REDIRECT_URI' }, 'see a.flow'),
    }),
    outcome('chain', { status: 'skipped', clauses: ['a.chain'], skip: clauseSkip('a.flow.products', 'y') }),
    // Plain words (a skip written without a record) are the run's whatever they say.
    outcome('words', { status: 'skipped', clauses: ['a.words'], skip: decodeSkip('not offered (IDM_NOT_OFFERED=x)') }),
    outcome('observed', {
      clauses: ['a.observed-only'],
      checks: [{ clause: 'a.observed-only', outcome: 'observed', message: 'm', observation: 'inconclusive' }],
    }),
  ];
}

function input(t: TestOutcome[]): BuildInput {
  return {
    catalogue,
    tests: t,
    baseline: { path: null, entries: [] },
    playwrightStatus: 'failed',
    globalErrors: [],
    otherFailures: [],
    meta: {
      suite: { name: 'idm-conformance', version: '0.0.0' },
      target: 'http://127.0.0.1:4810',
      seed: 1,
      depth: 'quick',
      startedAt: new Date(0),
      endedAt: new Date(1000),
    },
  };
}

/** The tests with every skip text rewritten from `seed`. */
function rewritten(t: TestOutcome[], seed: number): TestOutcome[] {
  const words = textScrambler(
    seed,
    catalogue.map((c) => c.id),
  );
  const text = (r: SkipRecord): SkipRecord => ({ ...r, text: words() });
  return t.map((o) => ({
    ...o,
    ...(o.skip ? { skip: text(o.skip) } : {}),
    ...(o.stopped ? { stopped: text(o.stopped) } : {}),
    ...(o.clauseSkips
      ? { clauseSkips: Object.fromEntries(Object.entries(o.clauseSkips).map(([k, v]) => [k, text(v)])) }
      : {}),
  }));
}

const decided = (r: ConformanceReport) => ({ ...judgement(r.clauses, r), gate: r.gate.exitCode, v: r.gate.verdict });

test('the records decide: INCOMPLETE, the root causes and the counts, whatever the words', () => {
  const { report } = buildReport(input(tests()));
  const status = Object.fromEntries(report.clauses.map((c) => [c.id, c.status]));
  expect(status['a.observed-only'], 'a must clause is never only observed').toBe('skipped');
  expect(report.incomplete.map((u) => u.clause)).toEqual([
    'a.burst',
    'a.observed-only',
    'a.other.refusal',
    'a.setting',
    'a.stopped',
    'a.words',
  ]);
  // Direct dependants only: a.chain names a.flow.products, not a.flow; a.stopped names no clause.
  expect(decided(report).rootCauses).toEqual(['a.flow <- a.flow.products,a.flow.refusal']);
  expect(reportInvariants(report)).toEqual([]);
  for (let seed = 1; seed <= 40; seed++) {
    const again = buildReport(input(rewritten(tests(), seed))).report;
    expect(decided(again), `seed ${seed}`).toEqual(decided(report));
    expect(again.totals, `seed ${seed}`).toEqual(report.totals);
  }
});

test('the invariants catch what they guard: counts that do not add up, an observed must clause, a cause that held', () => {
  const { report } = buildReport(input(tests()));
  const broken = structuredClone(report);
  broken.totals.must.skipped -= 1;
  const observed = broken.clauses.find((c) => c.id === 'a.observed-only')!;
  observed.status = 'observed';
  broken.clauses.find((c) => c.id === 'a.chain')!.skips = [clauseSkip('a.other', 'z')];
  const found = reportInvariants(broken).join('\n');
  expect(found).toContain('must counts do not add up');
  expect(found).toContain('must clause a.observed-only is observed');
  expect(found).toContain('a.chain is skipped naming a.other as its cause, yet a.other passed');
});

test('a request the target never answered is one cause of the run: its test’s other clauses skipped, none failed', () => {
  const stall = noAnswerSkip({
    method: 'POST',
    target: 'http://t/oauth/token',
    what: 'a stalled response',
    retried: false,
  });
  const t: TestOutcome[] = [
    outcome('stalled', {
      status: 'failed',
      clauses: ['a.flow', 'a.flow.refusal', 'a.other'],
      checks: [passed('a.other')],
      noAnswer: stall,
      error: 'TargetTransportError: POST http://t/oauth/token: a stalled response',
    }),
    outcome('products', { status: 'skipped', clauses: ['a.flow.products'], skip: clauseSkip('a.flow', 'y') }),
  ];
  const { report } = buildReport(input(t));
  const status = Object.fromEntries(report.clauses.map((c) => [c.id, c.status]));
  expect(status).toMatchObject({ 'a.flow': 'skipped', 'a.flow.refusal': 'skipped', 'a.other': 'passed' });
  expect(report.clauses.filter((c) => c.status === 'failed')).toEqual([]);
  expect(report.gate.verdict).toBe('incomplete');
  const byStall = report.incomplete.filter((u) => u.skips.some((r) => r.cause.answer === 'no-answer'));
  expect(byStall.map((u) => u.clause)).toEqual(['a.flow', 'a.flow.refusal']);
  // what waited on the stopped flow is the run's too, not the tenant's
  expect(report.incomplete.map((u) => u.clause)).toContain('a.flow.products');
  expect(reportInvariants(report)).toEqual([]);
});

test('a record survives its annotation; plain words are the run’s', () => {
  const r = tenantSkip({ page: '/u/consent', answer: 'refused' }, 'the tenant showed a consent page');
  expect(decodeSkip(encodeSkip(r))).toEqual(r);
  expect(decodeSkip('not offered (IDM_NOT_OFFERED=revoke)')).toEqual(
    runSkip({}, 'not offered (IDM_NOT_OFFERED=revoke)'),
  );
  expect(decodeSkip(JSON.stringify({ by: 'tenant', text: 'no cause' }))).toMatchObject({ by: 'run' });
});

test('no skip in the suite is plain words: specs and the runtime skip through skipTest and skipClauses', () => {
  const plain: string[] = [];
  for (const file of sources(['specs', 'lib'])) {
    if (file === join('lib', 'declare.ts')) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\b(?:test|testInfo|info)\.(?:skip|fixme)\(/g))
      plain.push(`${file}:${text.slice(0, m.index).split('\n').length}`);
  }
  expect(plain, 'skip with a record: skipTest(record) (lib/declare.ts)').toEqual([]);
});

function sources(roots: string[]): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) out.push(p);
    }
  };
  for (const r of roots) walk(r);
  return out;
}
