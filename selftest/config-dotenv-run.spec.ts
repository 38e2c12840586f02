// The new-user check, end to end: every run setting given only in an env file
// (IDM_ENV_FILE names it, since a .env in the checkout would reach the other self-tests) and
// the runner, its workers and its reporters all take it: the reports and run-meta.json land
// in the named folder, the run lock in the named state folder, the named baseline is the one
// judged, and the depth is the one set.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runSettings } from '../lib/config/run.ts';
import type { ConformanceReport } from '../reporters/model.ts';

test('IDM_REPORTS_DIR, IDM_STATE_DIR, IDM_BASELINE, IDM_DEPTH and IDM_EMBEDDED_PORT only in the env file take effect in every process of a run', () => {
  test.setTimeout(120_000);
  const ws = mkdtempSync(join(tmpdir(), 'idm-selftest-dotenv-run-'));
  const baseline = join(ws, 'my-baseline.json');
  copyFileSync('baseline/known-deviations.json', baseline);
  const reports = join(ws, 'out', 'conformance');
  // A port of its own next to the one this checkout uses, so a parallel embedded run is not met.
  const port = runSettings().embeddedPort + 7;
  writeFileSync(
    join(ws, 'run.env'),
    [
      `IDM_REPORTS_DIR=${reports}`,
      `IDM_STATE_DIR=${join(ws, 'state')}`,
      `IDM_BASELINE=${baseline}`,
      'IDM_DEPTH=quick',
      `IDM_EMBEDDED_PORT=${port}`,
    ].join('\n'),
  );
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('IDM_'))),
    CI: 'true',
    FORCE_COLOR: '0',
    IDM_ENV_FILE: join(ws, 'run.env'),
  };
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      'bin/conformance.ts',
      '--grep',
      '@ratelimit.headers',
      '--workers=1',
      '--output',
      join(ws, 'test-output'),
    ],
    { env, encoding: 'utf8', timeout: 110_000 },
  );
  expect(r.status, r.stdout.slice(-1500) + r.stderr.slice(-1500)).toBe(0);
  const report = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
  expect(report.depth).toBe('quick');
  expect(report.target).toBe(`http://127.0.0.1:${port}`);
  expect(report.baseline.path).toBe(baseline);
  expect(existsSync(join(reports, 'run-meta.json')), 'run-meta.json next to the reports').toBe(true);
  expect(existsSync(join(reports, 'allure-results')), 'the Allure results too').toBe(true);
  expect(existsSync(join(reports, 'junit.xml'))).toBe(true);
  // One origin for both APIs: named once, as before (report-origins.spec.ts has them apart).
  expect('authTarget' in report).toBe(false);
  expect(readFileSync(join(reports, 'junit.xml'), 'utf8')).not.toContain('auth-target');
  expect(readFileSync(join(reports, 'allure-results', 'environment.properties'), 'utf8')).not.toContain('authTarget');
  expect(existsSync(join(ws, 'state')), 'the run lock lived in the state folder').toBe(true);
});
