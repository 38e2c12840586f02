// Where a run names its target, it names the authentication API's origin too when IDM_AUTH_URL
// sets it apart from IDM_BASE_URL — the summary's first line, the HTML header, conformance.json,
// the JUnit properties, Allure's environment — through the whole chain (global setup,
// run-meta, reporters), in a small real run whose authentication API is the embedded tenant
// under another name (localhost for 127.0.0.1). The report views alone, and the same-origin
// case, are in report-aggregate.spec.ts and config-dotenv-run.spec.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { runSettings } from '../lib/config/run.ts';
import type { ConformanceReport } from '../reporters/model.ts';
import { removeWorkspaces, runCli, workspace } from './cli-run.ts';

test.afterAll(removeWorkspaces);

test('a real run with IDM_AUTH_URL apart: conformance.json, the summary, the HTML header, the JUnit properties and Allure environment name both', async () => {
  test.setTimeout(150_000);
  const ws = workspace();
  // A port of its own next to the one this checkout uses (config-dotenv-run takes +7).
  const port = runSettings().embeddedPort + 8;
  const management = `http://127.0.0.1:${port}`;
  const auth = `http://localhost:${port}`;
  const r = await runCli('conformance', ws, { IDM_EMBEDDED_PORT: String(port), IDM_AUTH_URL: auth }, [
    '--grep',
    '@ratelimit.headers',
  ]);
  expect(r.code, r.stdout.slice(-1500) + r.stderr.slice(-1500)).toBe(0);
  const reports = ws.reportsDir;
  const report = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as ConformanceReport;
  expect({ target: report.target, authTarget: report.authTarget }).toEqual({ target: management, authTarget: auth });
  expect(r.stdout).toContain(`Conformance of ${management} (management API) and ${auth} (authentication API)`);
  expect(header(readFileSync(join(reports, 'conformance.html'), 'utf8'))).toContain(
    `<span class="api">authentication API</span> ${auth}`,
  );
  const junit = readFileSync(join(reports, 'junit.xml'), 'utf8');
  expect(junit).toContain(`<property name="target" value="${management}">`);
  expect(junit).toContain(`<property name="auth-target" value="${auth}">`);
  const environment = readFileSync(join(reports, 'allure-results', 'environment.properties'), 'utf8');
  expect(environment).toMatch(new RegExp(`^target=${escapeRe(management)}$`, 'm'));
  expect(environment).toMatch(new RegExp(`^authTarget=${escapeRe(auth)}$`, 'm'));
});

// Helpers

function header(html: string): string {
  return html.slice(html.indexOf('<header>'), html.indexOf('</header>'));
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
