// The gate end to end: real Playwright runs of the fixture suite
// (selftest/fixtures-report/) through the conformance reporter, checking exit codes,
// conformance.json and what is printed — including a sharded run merged with merge-reports.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { ConformanceReport } from '../reporters/model.ts';
import { reportInvariants } from './report-invariants.ts';

const CLI = join(process.cwd(), 'node_modules', '@playwright', 'test', 'cli.js');
const CONFIG = 'selftest/fixtures-report/playwright.config.ts';
const FAILING = 'fx.update.name.max-length';

test.describe.configure({ mode: 'serial' });

const scratchDirs: string[] = [];
test.afterAll(() => {
  for (const d of scratchDirs) rmSync(d, { recursive: true, force: true });
});

test('an unlisted must-clause failure fails the run with exit 1', async () => {
  const run = fixtureRun({ FX_NAME: 'fail' });
  expect(run.status, run.output).toBe(1);
  const report = run.report();
  expect(report.clauses.find((c) => c.id === FAILING)).toMatchObject({ status: 'failed' });
  expect(report.gate).toMatchObject({ exitCode: 1, verdict: 'non-conformant' });
  expect(run.stdout).toContain(`✗ ${FAILING} (§2.2)`);
  expect(run.stdout).toContain('Verdict: NON-CONFORMANT (exit 1)');
});

test('a conformant fixture run exits 0 with every clause given a status', async () => {
  const run = fixtureRun({ FX_NAME: 'pass' });
  expect(run.status, run.output).toBe(0);
  const report = run.report();
  expect(Object.fromEntries(report.clauses.map((c) => [c.id, c.status]))).toEqual({
    'fx.update.name.max-length': 'passed',
    'fx.update.token-lifetime.range': 'passed',
    'fx.experiment.status-code': 'observed',
    'fx.auth.limited.forbidden': 'skipped',
    'fx.update.identifier.conflict': 'not-exercisable',
    'fx.limits.allocations.min': 'skipped',
  });
  expect(report.clauses.find((c) => c.id === 'fx.auth.limited.forbidden')?.reason).toBe(
    'limited client not configured (IDM_LIMITED_CLIENT_ID)',
  );
  expect(report.clauses.find((c) => c.id === 'fx.limits.allocations.min')?.reason).toBe('not run in this selection');
  expect(report).toMatchObject({ target: 'http://127.0.0.1:4900', depth: 'quick', seed: 4242 });
  expect(report.totals.conformance).toEqual({ passed: 2, exercised: 2, percent: 100 });
});

test('a baseline entry turns the failing clause into an expected failure and the gate passes', async () => {
  const baseline = writeBaseline(join(scratch(), 'known-deviations.json'), [
    { clause: FAILING, reason: 'tenant accepts names up to 255', link: 'https://tracker.example/IDM-7' },
  ]);
  const run = fixtureRun({ FX_NAME: 'fail', REPORT_FIXTURE_BASELINE: baseline });
  expect(run.status, run.output).toBe(0);
  const report = run.report();
  expect(report.clauses.find((c) => c.id === FAILING)).toMatchObject({
    status: 'expected-failure',
    reason: 'tenant accepts names up to 255',
  });
  expect(report.baseline).toMatchObject({ applied: [FAILING], stale: [] });
  expect(run.stdout).toContain('Expected failures (baseline, 1):');
  // Two must clauses of the fixture are not exercised (a client unset, a subset run): incomplete, exit 0 by default.
  expect(run.stdout).toContain('Verdict: INCOMPLETE (exit 0)');
});

test('must clauses not exercised for a reason of the run: INCOMPLETE, exit 0; IDM_FAIL_ON_INCOMPLETE=true exits 4', async () => {
  const run = fixtureRun({ FX_NAME: 'pass' });
  expect(run.status, run.output).toBe(0);
  expect(run.stdout.split('\n')[0]).toMatch(
    /^INCOMPLETE: 2 must clauses not exercised for a reason of the run, chiefly: .* \(2\/2 exercised passed; exit 0, IDM_FAIL_ON_INCOMPLETE=true fails the gate\)$/,
  );
  expect(run.report().incomplete).toEqual([
    {
      clause: 'fx.auth.limited.forbidden',
      section: '7.1',
      reason: 'limited client not configured (IDM_LIMITED_CLIENT_ID)',
      skips: [
        {
          by: 'run',
          cause: { setting: 'IDM_LIMITED_CLIENT_ID' },
          text: 'limited client not configured (IDM_LIMITED_CLIENT_ID)',
        },
      ],
    },
    {
      clause: 'fx.limits.allocations.min',
      section: '8',
      reason: 'not run in this selection',
      skips: [{ by: 'run', cause: {}, text: 'not run in this selection' }],
    },
  ]);
  expect(run.report().gate).toMatchObject({ exitCode: 0, verdict: 'incomplete' });
  const gated = fixtureRun({ FX_NAME: 'pass', IDM_FAIL_ON_INCOMPLETE: 'true' });
  expect(gated.status, gated.output).toBe(4);
  expect(gated.report().gate).toMatchObject({ exitCode: 4, verdict: 'incomplete' });
  expect(gated.stdout).toContain('Verdict: INCOMPLETE (exit 4)');
});

test('a stale baseline entry for a clause that now passes fails the run with exit 2', async () => {
  const baseline = writeBaseline(join(scratch(), 'known-deviations.json'), [
    { clause: FAILING, reason: 'was broken last month' },
  ]);
  const run = fixtureRun({ FX_NAME: 'pass', REPORT_FIXTURE_BASELINE: baseline });
  expect(run.status, run.output).toBe(2);
  expect(run.stdout).toContain(`stale baseline entry: ${FAILING}: listed in the baseline but passed in this run`);
  expect(run.stderr).toContain(
    `idm-conformance: IDM_E_BASELINE_STALE: stale baseline entry: ${FAILING}: listed in the baseline but passed in this run (remove the entry)`,
  );
  expect(run.report().gate).toMatchObject({ exitCode: 2, verdict: 'config-error' });
});

test('a baseline entry for a clause missing from the catalogue fails the run with exit 2', async () => {
  const baseline = writeBaseline(join(scratch(), 'known-deviations.json'), [
    { clause: 'fx.update.removed-rule', reason: 'old' },
  ]);
  const run = fixtureRun({ FX_NAME: 'pass', REPORT_FIXTURE_BASELINE: baseline });
  expect(run.status, run.output).toBe(2);
  expect(run.stdout).toContain('fx.update.removed-rule: listed in the baseline but not in the clause catalogue');
});

test('an invalid baseline file fails the run with exit 2 and one line naming the fault', async () => {
  const baseline = writeBaseline(join(scratch(), 'known-deviations.json'), [{ clause: FAILING }]);
  const run = fixtureRun({ FX_NAME: 'pass', REPORT_FIXTURE_BASELINE: baseline });
  expect(run.status, run.output).toBe(2);
  expect(run.stderr).toMatch(
    /^idm-conformance: IDM_E_BASELINE_INVALID: .*known-deviations\.json: entry 0 \(fx\.update\.name\.max-length\): "reason" must be a non-empty string$/m,
  );
});

test('a test that errors outside any must clause breaks the run (exit 1) though no clause failed', async () => {
  const run = fixtureRun({ FX_NAME: 'pass', FX_CRASH: '1' });
  expect(run.status, run.output).toBe(1);
  const report = run.report();
  expect(report.totals.byStatus.failed).toBe(0);
  expect(report.gate.verdict).toBe('run-broken');
  expect(report.gate.reasons[0]).toContain(
    'a test that errors outside any must clause" failed without a failing must-clause check: Error: boom',
  );
});

test('a sharded run merged with merge-reports keeps the verdict and the exit code', async () => {
  // As on CI runners: each shard writes its own blob report, then they are gathered.
  const work = scratch();
  const blobs = join(work, 'blobs');
  mkdirSync(blobs);
  for (const shard of [1, 2]) {
    const dir = join(work, `blob-${shard}`);
    const r = fixtureRun({ FX_NAME: 'fail', PLAYWRIGHT_BLOB_OUTPUT_DIR: dir }, [
      '--reporter=blob',
      `--shard=${shard}/2`,
    ]);
    expect(r.stdout, r.output).not.toContain('Verdict:');
    for (const f of readdirSync(dir)) copyFileSync(join(dir, f), join(blobs, f));
  }
  expect(readdirSync(blobs)).toEqual(['report-1.zip', 'report-2.zip']);
  const out = join(work, 'merged');
  const merged = spawnSync(process.execPath, [CLI, 'merge-reports', '-c', CONFIG, blobs], {
    encoding: 'utf8',
    env: { ...process.env, REPORT_FIXTURE_OUT: out },
  });
  expect(merged.status, merged.stdout + merged.stderr).toBe(1);
  const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
  expect(report.run.tests.total).toBe(5);
  expect(report.run.errors).toEqual([]); // no reporter broke while merging (allure-playwright included)
  expect(readdirSync(join(out, 'allure-results')).filter((f) => f.endsWith('-result.json'))).toHaveLength(5);
  expect(report.clauses.find((c) => c.id === FAILING)?.status).toBe('failed');
  expect(report.clauses.find((c) => c.id === 'fx.update.token-lifetime.range')?.status).toBe('passed');
});

test('credentials that reach a check record unredacted are scrubbed before anything is written or printed', async () => {
  const secret = `idmc-canary-${Date.now().toString(36)}-secret`;
  const run = fixtureRun({ FX_NAME: 'fail', FX_LEAK: '1', IDM_CLIENT_SECRET: secret });
  expect(run.status, run.output).toBe(1);
  const written = ['conformance.json', 'conformance.html', 'conformance-summary.txt'].map((f) =>
    readFileSync(join(run.dir, f), 'utf8'),
  );
  for (const text of [...written, run.stdout, run.stderr]) {
    expect(text).not.toContain(secret);
    expect(text).not.toMatch(/eyJhbGciOiJSUzI1NiJ9\.eyJ/);
    expect(text).not.toContain('MIIEvQIBADANBgkqhkiG9w0BAQEFAASC');
  }
  const failure = run.report().clauses.find((c) => c.id === FAILING)!.failures[0]!;
  expect(failure.message).toBe('expected 400, got 201 (client secret <redacted>)');
  expect(failure.evidence?.request?.headers.authorization).toMatch(/^Bearer <redacted/);
});

// Helpers

interface FixtureRun {
  /** Where the run wrote its reports. */
  dir: string;
  status: number | null;
  stdout: string;
  stderr: string;
  output: string;
  report(): ConformanceReport;
}

/** A scratch folder outside test-results/, which a concurrent Playwright run may empty. */
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'idm-report-gate-'));
  scratchDirs.push(dir);
  test.info().attachments.push({ name: 'scratch folder', contentType: 'text/plain', body: Buffer.from(dir) });
  return dir;
}

function fixtureRun(env: Record<string, string>, args: string[] = []): FixtureRun {
  const out = join(scratch(), 'run');
  const r = spawnSync(process.execPath, [CLI, 'test', '-c', CONFIG, ...args], {
    encoding: 'utf8',
    env: { ...process.env, REPORT_FIXTURE_OUT: out, FORCE_COLOR: '0', NO_COLOR: '1', ...env },
  });
  const output = `exit ${r.status}\n--- stdout\n${r.stdout}\n--- stderr\n${r.stderr}`;
  return {
    dir: out,
    status: r.status,
    stdout: r.stdout,
    stderr: r.stderr,
    output,
    report: () => {
      const report = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as ConformanceReport;
      expect(reportInvariants(report), 'the report keeps the invariants of every report').toEqual([]);
      return report;
    },
  };
}

function writeBaseline(path: string, entries: unknown[]): string {
  writeFileSync(path, JSON.stringify(entries, null, 2));
  return path;
}
