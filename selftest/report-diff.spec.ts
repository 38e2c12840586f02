// Comparing two runs: what regressed, what recovered, which observations changed — as
// data (reporters/diff.ts) and through `npm run diff` (bin/diff.ts) and its exit codes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { buildReport } from '../reporters/build-report.ts';
import { diffReports, renderDiff } from '../reporters/diff.ts';
import type { CatalogueEntry, CheckRecord, ConformanceReport, TestOutcome } from '../reporters/model.ts';

const catalogue: CatalogueEntry[] = [
  { id: 'rs.update.name.max-length', section: '2.2', text: 'name: max length 200', kind: 'must' },
  { id: 'rs.update.token-lifetime.range', section: '2.2', text: 'token_lifetime range', kind: 'must' },
  { id: 'rs.scope.value.length', section: '2.3', text: 'scope value 1..280', kind: 'must' },
  { id: 'exp.create.status', section: '4.2', text: 'success status: not shown', kind: 'observe' },
  { id: 'auth.mgmt.scope.forbidden', section: '7.1', text: '403 without scope', kind: 'must' },
];

const yesterday = run([
  pass('rs.update.name.max-length'),
  fail('rs.update.token-lifetime.range', 'token_lifetime 2592001: expected 400, got 201'),
  fail('rs.scope.value.length', 'scope value of 281: expected 400, got 201'),
  seen('exp.create.status', 'answered 201'),
  pass('auth.mgmt.scope.forbidden'),
]);
const today = run(
  [
    fail('rs.update.name.max-length', 'name of 201 characters: expected 400, got 201'),
    pass('rs.update.token-lifetime.range'),
    fail('rs.scope.value.length', 'scope value of 281: expected 400, got 201'),
    seen('exp.create.status', 'answered 200'),
  ],
  [{ clause: 'rs.scope.value.length', reason: 'known since IDM-9' }],
);

test('a clause that passed and now fails is a regression, with the new failure message', () => {
  const d = diffReports(yesterday, today);
  expect(d.regressed).toEqual([
    {
      id: 'rs.update.name.max-length',
      section: '2.2',
      text: 'name: max length 200',
      from: 'passed',
      to: 'failed',
      message: 'name of 201 characters: expected 400, got 201',
    },
  ]);
});

test('a clause that failed and now passes has recovered', () => {
  expect(diffReports(yesterday, today).recovered.map((c) => [c.id, c.from, c.to])).toEqual([
    ['rs.update.token-lifetime.range', 'failed', 'passed'],
  ]);
});

test('an observation that differs is listed with both values', () => {
  expect(diffReports(yesterday, today).observations).toEqual([
    {
      id: 'exp.create.status',
      section: '4.2',
      text: 'success status: not shown',
      before: ['answered 201'],
      after: ['answered 200'],
    },
  ]);
});

test('a failure that became baselined is not a change of the target; a clause not run any more is', () => {
  const d = diffReports(yesterday, today);
  expect([...d.regressed, ...d.recovered].map((c) => c.id)).not.toContain('rs.scope.value.length');
  expect(d.other.map((c) => [c.id, c.from, c.to])).toEqual([['auth.mgmt.scope.forbidden', 'passed', 'skipped']]);
});

test('the same run compared with itself shows nothing', () => {
  const d = diffReports(today, today);
  expect([d.regressed, d.recovered, d.observations, d.other]).toEqual([[], [], [], []]);
  expect(renderDiff(d)).toContain('Regressed (0)\n  none');
});

test('npm run diff prints the comparison and exits 1 on a regression, 0 without, 2 on bad input', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idm-report-diff-'));
  try {
    const a = join(dir, 'a.json');
    const b = join(dir, 'b.json');
    writeFileSync(a, JSON.stringify(yesterday));
    writeFileSync(b, JSON.stringify(today));
    const forward = diffCli(a, b);
    expect(forward.status, forward.stderr).toBe(1);
    expect(forward.stdout).toContain('✗ rs.update.name.max-length (§2.2) passed → failed');
    expect(forward.stdout).toContain('✓ rs.update.token-lifetime.range (§2.2) failed → passed');
    expect(forward.stdout).toContain('A: answered 201');
    expect(forward.stdout).toContain('B: answered 200');
    const json = diffCli(a, b, '--json');
    expect((JSON.parse(json.stdout) as { regressed: unknown[] }).regressed).toHaveLength(1);
    expect(diffCli(b, b).status).toBe(0);
    writeFileSync(join(dir, 'bad.json'), '{"not": "a report"}');
    const bad = diffCli(a, join(dir, 'bad.json'));
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^idm-conformance: IDM_E_CONFIG_INVALID: .*bad\.json: not a conformance\.json/);
    expect(diffCli(a).status).toBe(2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// Helpers

function diffCli(...args: string[]) {
  return spawnSync(process.execPath, [join('node_modules', 'tsx', 'dist', 'cli.mjs'), 'bin/diff.ts', ...args], {
    encoding: 'utf8',
  });
}

function run(tests: TestOutcome[], baseline: { clause: string; reason: string }[] = []): ConformanceReport {
  return buildReport({
    catalogue,
    tests,
    baseline: { path: null, entries: baseline },
    playwrightStatus: 'passed',
    globalErrors: [],
    otherFailures: [],
    meta: {
      suite: { name: 'idm-conformance', version: '0.0.0' },
      target: 'https://staging.example.com',
      seed: 1,
      depth: 'quick',
      startedAt: new Date(0),
      endedAt: new Date(1),
    },
  }).report;
}
function outcome(check: CheckRecord): TestOutcome {
  return {
    title: `checks ${check.clause}`,
    file: 'specs/x.spec.ts',
    status: check.outcome === 'failed' ? 'failed' : 'passed',
    clauses: [check.clause],
    checks: [check],
  };
}
function pass(clause: string): TestOutcome {
  return outcome({ clause, outcome: 'passed', message: 'ok' });
}
function fail(clause: string, message: string): TestOutcome {
  return outcome({ clause, outcome: 'failed', message });
}
function seen(clause: string, observation: string): TestOutcome {
  return outcome({ clause, outcome: 'observed', message: 'recorded', observation });
}
