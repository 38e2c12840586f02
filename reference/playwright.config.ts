// Stand-alone config for the reference tenant's own tests, until the root config carries
// the `reference` project: npx playwright test -c reference/playwright.config.ts
import { defineConfig } from '@playwright/test';

export default defineConfig({
  projects: [{ name: 'reference', testDir: 'test' }],
  workers: 2,
  reporter: 'list',
  outputDir: '../test-results/reference',
});
