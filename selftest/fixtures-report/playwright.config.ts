// A tiny suite for the reporter's end-to-end self-tests: synthetic check records, no
// server. Outputs go where REPORT_FIXTURE_OUT says (a test's own output folder).
import { defineConfig } from '@playwright/test';

const out = process.env.REPORT_FIXTURE_OUT ?? 'test-results/fixtures-report';

export default defineConfig({
  testDir: '.',
  testMatch: '*.fixture.ts',
  outputDir: `${out}/test-results`,
  workers: 1,
  fullyParallel: true, // lets --shard split the one fixture file
  projects: [{ name: 'conformance' }],
  metadata: { target: 'http://127.0.0.1:4900', depth: 'quick', seed: 4242 },
  reporter: [
    // also under test: allure-playwright through its wrapper, in runs and in merge-reports
    ['../../reporters/allure-reporter.ts', { resultsDir: `${out}/allure-results` }],
    [
      '../../reporters/conformance-reporter.ts',
      {
        outputDir: out,
        catalogue: 'selftest/fixtures-report/catalogue.json',
        runMeta: false, // reports/run-meta.json belongs to real conformance runs
        baseline: process.env.REPORT_FIXTURE_BASELINE ?? 'selftest/fixtures-report/no-baseline.json',
      },
    ],
  ],
});
