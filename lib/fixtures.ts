// The conformance `test`: Playwright's test extended with fixtures that cannot be misused, in four
// groups: the run's facts and a test's record (lib/test-run.ts), the clients (lib/test-clients.ts),
// the resource server under test (`rs`: lib/rs-fixture.ts) and the experiments helper
// (lib/experiments-fixture.ts). Without @playwright/test's browser fixtures: no spec uses page,
// context or request, and their per-test auto fixtures cost about a second of CPU per worker.
import { _baseTest as base } from '@playwright/test';
import { runFixtures, type RunFixtures, type Suite } from './test-run.ts';
import { clientFixtures, type ClientFixtures } from './test-clients.ts';
import { rsFixture, type ResourceServerUnderTest } from './rs-fixture.ts';
import { experimentsFixture, type ExperimentsHelper } from './experiments-fixture.ts';
import type { LoginBrowser } from './auth/browser.ts';

export type { RunInfo, Suite } from './test-run.ts';
export type { ResourceServerUnderTest } from './rs-fixture.ts';
export type { ExperimentsHelper } from './experiments-fixture.ts';

export const test = base
  .extend<RunFixtures, { suite: Suite; loginBrowser: LoginBrowser }>(runFixtures)
  .extend<ClientFixtures>(clientFixtures)
  .extend<{ rs: ResourceServerUnderTest }>(rsFixture)
  .extend<{ experiments: ExperimentsHelper }>(experimentsFixture);
