// Playwright configuration. Projects: `reference` (the reference tenant's own tests),
// `selftest` (tests of the suite), `conformance` (the specs, against the configured target).
// Configuration is validated, the embedded tenant started and the target prepared only when
// the conformance project is selected, so `--project=selftest` needs no target.
import { defineConfig, type ReporterDescription } from '@playwright/test';
import { DEPTH_RUNS, EMBEDDED, loadConfig, separateAuthUrl } from './lib/config.ts';
import { exitWith, isIdmError } from './lib/errors.ts';
import { runSettings } from './lib/config/run.ts';
import { runKey } from './lib/auth/run-key.ts';

const runsConformance = selectsProject(process.argv, 'conformance');
const cfg = runsConformance ? orExit(() => loadConfig()) : null;
// The run's own key, made while the runner goes on starting (not when it only lists the
// tests); the global setup hands it on, and reports a failure.
if (runsConformance && !process.argv.includes('--list')) runKey().catch(() => {});

/** Per-test timeout: properties send more requests at higher depth (and pace themselves). */
const TIMEOUT_MS = { quick: 90_000, default: 180_000, deep: 900_000 } as const;

const CONFORMANCE = {
  name: 'conformance',
  testDir: 'specs',
  timeout: TIMEOUT_MS[cfg?.depth ?? 'default'],
  metadata: { depth: cfg?.depth ?? 'default', runs: DEPTH_RUNS[cfg?.depth ?? 'default'] },
} as const;

// Reporters (reporters/README.md). The conformance reporter comes last so that its verdict
// is the last thing printed; it judges only the `conformance` project and sets the exit code.
// IDM_REPORTS_DIR moves every report (default `reports`), e.g. for the secrets self-test.
const REPORTS_DIR = orExit(() => runSettings().reportsDir);
const reporters: ReporterDescription[] = [
  ['list'],
  [
    './reporters/allure-reporter.ts',
    {
      resultsDir: `${REPORTS_DIR}/allure-results`,
      detail: false,
      suiteTitle: false,
      ...(cfg
        ? {
            environmentInfo: {
              target: cfg.baseUrl,
              ...(separateAuthUrl(cfg) ? { authTarget: cfg.auth.url } : {}),
              depth: cfg.depth,
              embedded: String(cfg.embedded),
              node: process.version,
            },
          }
        : {}),
    },
  ],
  ['junit', { outputFile: `${REPORTS_DIR}/junit.xml` }],
  ['html', { outputFolder: `${REPORTS_DIR}/playwright-html`, open: 'never' }],
  ['./reporters/conformance-reporter.ts', { outputDir: REPORTS_DIR }],
];

export default defineConfig({
  workers: 2,
  fullyParallel: false,
  forbidOnly: !!process.env.CI,
  reporter: reporters,
  outputDir: 'test-results',
  ...(runsConformance ? { globalSetup: './lib/global-setup.ts', globalTeardown: './lib/global-teardown.ts' } : {}),
  // The embedded target: the reference tenant on its documented port, started before the
  // global setup; the suite then uses the very same configuration path as for staging.
  ...(cfg?.embedded
    ? {
        webServer: {
          // node itself, not `npm run reference`: npm's own start-up adds about 0.35 s to every run.
          command: `node --import tsx reference/src/main.ts --host ${EMBEDDED.host} --port ${new URL(cfg.baseUrl).port} --public-url ${cfg.baseUrl}`,
          url: `${cfg.baseUrl}/.well-known/openid-configuration`,
          // Never a leftover tenant (stale state, another run's process that may exit mid-run).
          reuseExistingServer: false,
          timeout: 20_000,
          stdout: 'ignore',
          stderr: 'pipe',
        },
      }
    : {}),
  projects: [
    { name: 'reference', testDir: 'reference/test' },
    { name: 'selftest', testDir: 'selftest' },
    // The conformance specs, in name order: `specs/0-long-pole/` (the resource-server chain) sorts first (specs/README.md).
    CONFORMANCE,
  ],
});

// Helpers

/** A configuration error ends the run as one line with exit code 2, before anything starts. */
function orExit<T>(read: () => T): T {
  try {
    return read();
  } catch (e) {
    if (isIdmError(e)) exitWith(e);
    throw e;
  }
}

/** Whether the command line selects `name` (no --project at all selects every project). */
function selectsProject(argv: string[], name: string): boolean {
  if (!argv.some((a) => a === 'test')) return false; // workers, `show-report`, `merge-reports`…
  const chosen: string[] = [];
  argv.forEach((a, i) => {
    if (a === '--project' && argv[i + 1]) chosen.push(argv[i + 1]!);
    else if (a.startsWith('--project=')) chosen.push(a.slice('--project='.length));
  });
  return chosen.length === 0 || chosen.some((p) => p.split(',').includes(name) || p === '*' || p === `${name}*`);
}
