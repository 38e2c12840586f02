// The run's facts and a test's record, the first group of the conformance `test` (lib/fixtures.ts):
// the worker's `suite` (config, run state, redactor; its pacer for the burst test only) and
// `loginBrowser` (one Chromium, launched when a browser flow first needs it: here, not in
// lib/auth/flow-fixtures.ts, so that every spec shares one kind of worker); `run`'s read-only facts,
// the test's requests, exchanges and labels, `check` (lib/checks.ts) and `gate` (lib/twin-gate.ts).
import type { Fixtures } from '@playwright/test';
import { recordMetadata, reportsToAllure } from './allure-meta.ts';
import {
  DEPTH_RUNS,
  loadConfig,
  NOTHING_DISCOVERED,
  managementSkip,
  authenticationSkip,
  secretValues,
  separateAuthUrl,
  withDiscovered,
  type Config,
} from './config.ts';
import { readRunState, type RunState } from './run-state.ts';
import { createRedactor, type Redactor } from './redact.ts';
import { Pacer } from './pacer.ts';
import type { Exchange, RequestCounter } from './http.ts';
import { Checks } from './checks.ts';
import { TwinGate } from './twin-gate.ts';
import type { ResourceServer } from './staging.ts';
import { highestSeverity, sectionLink, clauseEntry } from './catalogue.ts';
import { loginBrowserFixture, type LoginBrowser } from './auth/browser.ts';
import { attackList } from './auth/attacks/record.ts';
import { MANAGEMENT_OPERATIONS, skipTest } from './declare.ts';
import { encodeSkip, STOPPED_ANNOTATION, stoppedSkip } from './skip-record.ts';
import { RunWaits, type ResendBounds } from './resend-bounds.ts';

/**
 * A fixture that only builds an object, `box: 'self'`: no step of its own in the reports, where
 * each was a step begun and ended, twice per test (setup, teardown), each a message to the runner.
 */
export function builds<F>(fn: F): [F, { box: 'self' }] {
  return [fn, { box: 'self' }];
}

export interface Suite {
  cfg: Config;
  state: RunState;
  redactor: Redactor;
  pacer: Pacer;
  /** How long a 502, 503 or 504 is waited out: per request, and per run through a file in the run's state directory. */
  resend: ResendBounds;
}

export interface RunInfo {
  cfg: Config;
  seed: number;
  runTag: string;
  snapshot: ResourceServer;
  runs: { update: number; experiment: number };
}

export interface RunFixtures {
  run: RunInfo;
  counter: RequestCounter;
  transcript: Exchange[];
  _record: void;
  check: Checks;
  gate: TwinGate;
}

export const runFixtures: Fixtures<RunFixtures, { suite: Suite; loginBrowser: LoginBrowser }> = {
  loginBrowser: [loginBrowserFixture, { scope: 'worker' }],

  suite: [
    async ({}, use) => {
      const state = readRunState();
      const cfg = withDiscovered(loadConfig(), state.discovered ?? NOTHING_DISCOVERED);
      const redactor = createRedactor([
        ...secretValues(cfg),
        ...(state.tokens.full ? [state.tokens.full] : []),
        ...(state.tokens.limited ? [state.tokens.limited] : []),
      ]);
      if (typeof state.snapshot.signing_secret === 'string') redactor.add(state.snapshot.signing_secret);
      await use({
        cfg,
        state,
        redactor,
        pacer: new Pacer(state.runDir, cfg.pacingReserve),
        resend: { requestMs: cfg.resendWindowMs, run: new RunWaits(cfg.resendRunMs, state.runDir) },
      });
    },
    { scope: 'worker' },
  ],

  run: builds(async ({ suite }, use) => {
    const { cfg, state } = suite;
    await use({ cfg, seed: state.seed, runTag: state.runTag, snapshot: state.snapshot, runs: DEPTH_RUNS[cfg.depth] });
  }),

  counter: builds(({}, use) => use({ sent: 0, throttled: 0, waitedMs: 0 })),

  transcript: builds(({}, use) => use([])),

  _record: [
    async ({ suite, counter, transcript }, use, testInfo) => {
      const ids = testInfo.annotations.filter((a) => a.type === 'clause').map((a) => a.description ?? '');
      const operation = testInfo.annotations.find((a) => a.type === 'operation')?.description ?? 'Management API';
      // A test of the API the run leaves out (IDM_APIS) is skipped as the run's, naming the setting.
      skipTest(
        MANAGEMENT_OPERATIONS.has(operation) ? managementSkip(suite.cfg) : authenticationSkip(suite.cfg),
        testInfo,
      );
      const authTarget = separateAuthUrl(suite.cfg);
      if (reportsToAllure(testInfo.config)) {
        // One message: each allure call is one message attachment (a step) on the test.
        const sections = [...new Set(ids.map((id) => clauseEntry(id)?.section).filter((s): s is string => !!s))];
        await recordMetadata({
          labels: [
            { name: 'epic', value: 'API' },
            { name: 'feature', value: operation },
            ...ids.map((id) => ({ name: 'story', value: id })),
            { name: 'severity', value: highestSeverity(ids) },
          ],
          links: sections.map((s) => ({ url: sectionLink(s), name: `spec §${s}` })),
          parameters: [
            { name: 'seed', value: String(suite.state.seed) },
            { name: 'depth', value: suite.cfg.depth },
            { name: 'target', value: suite.cfg.baseUrl },
            ...(authTarget ? [{ name: 'auth target', value: authTarget }] : []),
          ],
        });
      }
      // Both origins in the test's properties (JUnit reads annotations) when they differ.
      if (authTarget)
        testInfo.annotations.push(
          { type: 'target', description: suite.cfg.baseUrl },
          { type: 'auth-target', description: authTarget },
        );
      await use();
      testInfo.annotations.push({ type: 'requests', description: String(counter.sent) });
      if (counter.throttled > 0)
        testInfo.annotations.push({ type: 'throttled', description: String(counter.throttled) });
      if (transcript.length > 0) {
        const r = suite.redactor;
        const lines = transcript.map((ex) => ({
          request: {
            method: ex.request.method,
            url: r.text(ex.request.url),
            headers: r.headers(ex.request.headers),
            body: r.text(clip(ex.request.body ?? '')),
          },
          response: { status: ex.status, headers: r.headers(ex.headers), body: r.text(clip(ex.text)) },
        }));
        await testInfo.attach('http-transcript.json', {
          body: JSON.stringify(lines, null, 2),
          contentType: 'application/json',
        });
      }
    },
    { auto: true },
  ],

  check: builds(async ({ suite }, use, testInfo) => {
    const check = new Checks(testInfo, suite.redactor);
    await use(check);
    // Whether the test ran to its end: an error none of its checks raised says where it stopped.
    const error = check.otherError();
    if (error !== null)
      testInfo.annotations.push({ type: STOPPED_ANNOTATION, description: encodeSkip(stoppedSkip(error)) });
  }),

  gate: builds(({ suite, check }, use, testInfo) =>
    use(new TwinGate(check, testInfo, suite.cfg.apiBase, attackList(testInfo))),
  ),
};

// Helpers

function clip(s: string): string {
  return s.length > 4000 ? `${s.slice(0, 4000)}… (${s.length} chars)` : s;
}
