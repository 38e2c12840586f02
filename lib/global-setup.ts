// Playwright global setup of the conformance project: configuration, reachability, one
// token per client, the snapshot, seed and run tag, handed to workers via the environment.
// For the embedded target Playwright has started the webServer before this runs.
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { loadConfig } from './config.ts';
import { exitWith, isIdmError } from './errors.ts';
import { preflight, newRunTag, newSeed } from './preflight.ts';
import { publishRunState } from './run-state.ts';
import { writeRunMeta } from './run-meta.ts';
import { stateDir } from './lock.ts';

export default async function globalSetup(_config: FullConfig): Promise<void> {
  const setupStartedAt = Date.now();
  try {
    const cfg = loadConfig();
    const pre = await preflight(cfg);
    const seed = cfg.seed ?? newSeed();
    const runTag = newRunTag();
    const runDir = mkdtempSync(join(stateDir(), 'idm-conformance-'));
    mkdirSync(join(runDir, 'locks'), { recursive: true });
    const startedAt = new Date().toISOString();
    publishRunState({ seed, runTag, runDir, tokens: pre.tokens, snapshot: pre.snapshot, startedAt });
    writeRunMeta({
      target: cfg.baseUrl,
      embedded: cfg.embedded,
      depth: cfg.depth,
      seed,
      runTag,
      resourceServerId: cfg.resourceServerId,
      allow: [...cfg.allow],
      startedAt,
      requestsOutsideTests: { setup: pre.requests, teardown: 0 },
      timings: { setupStartedAt, setupEndedAt: Date.now() },
    });
    // stderr: stdout may carry a machine-readable reporter (--reporter=json).
    process.stderr.write(
      `idm-conformance: target ${cfg.baseUrl}${cfg.embedded ? ' (embedded reference tenant)' : ''} · depth ${cfg.depth} · seed ${seed} (replay: IDM_SEED=${seed}) · run tag ${runTag}\n`,
    );
  } catch (e) {
    if (isIdmError(e)) exitWith(e);
    throw e;
  }
}
