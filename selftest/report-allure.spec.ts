// `npm run report` (bin/report.ts): Allure HTML generated offline by the allure 3 CLI,
// with the history carried from one run to the next. Two runs of the fixture suite (the
// name clause failing, then passing) are reported in turn into one scratch reports folder;
// the second report must know the first run's result.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

const PLAYWRIGHT_CLI = join(process.cwd(), 'node_modules', '@playwright', 'test', 'cli.js');
const TSX_CLI = join(process.cwd(), 'node_modules', 'tsx', 'dist', 'cli.mjs');
const TITLE = 'name of 201 characters is rejected with 400';

test('npm run report builds the Allure report offline and carries the history over', async () => {
  test.setTimeout(180_000);
  const work = mkdtempSync(join(tmpdir(), 'idm-report-allure-'));
  const reports = join(work, 'reports');
  try {
    for (const [i, outcome] of (['fail', 'pass'] as const).entries()) {
      const out = join(work, `run-${i + 1}`);
      spawnSync(process.execPath, [PLAYWRIGHT_CLI, 'test', '-c', 'selftest/fixtures-report/playwright.config.ts'], {
        env: { ...process.env, REPORT_FIXTURE_OUT: out, FX_NAME: outcome },
        encoding: 'utf8',
      });
      rmSync(join(reports, 'allure-results'), { recursive: true, force: true });
      cpSync(join(out, 'allure-results'), join(reports, 'allure-results'), { recursive: true });
      const r = spawnSync(process.execPath, [TSX_CLI, 'bin/report.ts'], {
        env: { ...process.env, IDM_REPORTS_DIR: reports },
        encoding: 'utf8',
      });
      expect(r.status, r.stdout + r.stderr).toBe(0);
      expect(r.stdout).toContain(`Allure report: ${join(reports, 'allure-report', 'index.html')}`);
    }
    expect(existsSync(join(reports, 'allure-report', 'index.html'))).toBe(true);
    const history = readFileSync(join(reports, 'allure-history', 'history.jsonl'), 'utf8')
      .trim()
      .split('\n');
    expect(history).toHaveLength(2);

    // The second report shows the test passing now, with the first run's failure as history.
    const results = walk(join(reports, 'allure-report'))
      .filter((f) => /data[\\/]test-results[\\/][^\\/]+\.json$/.test(f))
      .map(
        (f) =>
          JSON.parse(readFileSync(f, 'utf8')) as { name?: string; status?: string; history?: { status?: string }[] },
      )
      .filter((d) => d.name === TITLE);
    expect(results.length).toBeGreaterThan(0);
    for (const d of results) {
      expect(d.status).toBe('passed');
      expect(d.history?.map((h) => h.status)).toEqual(['failed']);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('npm run report without results says so in one line and exits 2', () => {
  const work = mkdtempSync(join(tmpdir(), 'idm-report-allure-'));
  try {
    const r = spawnSync(process.execPath, [TSX_CLI, 'bin/report.ts'], {
      env: { ...process.env, IDM_REPORTS_DIR: work },
      encoding: 'utf8',
    });
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe(
      `idm-conformance: IDM_E_CONFIG_MISSING: no Allure results in ${join(work, 'allure-results')}; run \`npm run conformance\` first`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

// Helpers

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
