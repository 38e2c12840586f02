// Playwright global setup of the conformance project: configuration, reachability, one
// token per client, the run lock, a journal left by an interrupted run honoured first, then
// the snapshot (on disk in the restore journal before any test may write), seed and run
// tag, handed to workers via the environment.
// For the embedded target Playwright has started the webServer before this runs.
import { mkdtempSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig } from '@playwright/test';
import { loadConfig, separateAuthUrl, type Config } from './config.ts';
import { exitWith, isIdmError } from './errors.ts';
import { preflight, newRunTag, newSeed, readResourceServer } from './preflight.ts';
import { publishRunState } from './run-state.ts';
import { writeRunMeta } from './run-meta.ts';
import { honourJournal, lockRun, recoveredLine, removeJournal, unlockRun, writeJournal } from './journal.ts';
import { cleanupLine, deleteCreated } from './experiment-cleanup.ts';
import { keepCreated } from './experiment-journal.ts';
import { stateDir } from './lock.ts';
import { readDiscovered } from './auth/discovered.ts';
import { runKey } from './auth/run-key.ts';

export default async function globalSetup(_config: FullConfig): Promise<void> {
  const setupStartedAt = Date.now();
  let cfg: Config | null = null;
  let locked = false;
  try {
    cfg = loadConfig();
    if (cfg.apis === 'authentication') return await authenticationOnly(cfg, setupStartedAt);
    lockRun(cfg);
    locked = true;
    const pre = await preflight(cfg);
    // An interrupted run's changes come off before the snapshot, or they would become the
    // truth. The embedded tenant's state ended with the run that started it: nothing to undo.
    if (cfg.embedded) {
      removeJournal(cfg);
      keepCreated(cfg, []);
    }
    const recovered = cfg.embedded ? null : await honourJournal(cfg, pre.tokens.full);
    if (recovered) {
      process.stderr.write(`idm-conformance: ${recoveredLine(recovered)}\n`);
      const again = await readResourceServer(cfg, pre.tokens.full, cfg.resourceServerId);
      pre.snapshot = again.body;
      pre.requests += recovered.requests + again.sent;
    }
    // The experiments an interrupted run created go too; one that cannot is said, and the run goes on.
    const recoveredExperiments = cfg.embedded ? null : await deleteCreated(cfg, pre.tokens.full);
    if (recoveredExperiments) {
      process.stderr.write(`idm-conformance: ${cleanupLine(recoveredExperiments, true)}\n`);
      pre.requests += recoveredExperiments.requests;
    }
    const seed = cfg.seed ?? newSeed();
    const runTag = newRunTag();
    const runDir = mkdtempSync(join(stateDir(), 'idm-conformance-'));
    mkdirSync(join(runDir, 'locks'), { recursive: true });
    const startedAt = new Date().toISOString();
    writeJournal(cfg, { runTag, startedAt, snapshot: pre.snapshot });
    // Every worker posts to and signs for the same authentication-API URLs.
    const discovered = await readDiscovered(cfg);
    pre.requests++;
    const foreignKey = await runKey(); // started with the configuration (playwright.config.ts)
    publishRunState({
      seed,
      runTag,
      runDir,
      tokens: pre.tokens,
      snapshot: pre.snapshot,
      startedAt,
      discovered,
      foreignKey,
    });
    const authTarget = separateAuthUrl(cfg);
    writeRunMeta({
      target: cfg.baseUrl,
      ...(authTarget ? { authTarget } : {}),
      ...(cfg.apis === 'management' ? { apis: cfg.apis } : {}),
      embedded: cfg.embedded,
      depth: cfg.depth,
      seed,
      runTag,
      resourceServerId: cfg.resourceServerId,
      allow: [...cfg.allow],
      startedAt,
      requestsOutsideTests: { setup: pre.requests, teardown: 0 },
      ...(recovered ? { recovered: { runTag: recovered.runTag, startedAt: recovered.startedAt } } : {}),
      ...(recoveredExperiments ? { recoveredExperiments } : {}),
      timings: { setupStartedAt, setupEndedAt: Date.now() },
    });
    // stderr: stdout may carry a machine-readable reporter (--reporter=json).
    process.stderr.write(
      `idm-conformance: target ${cfg.baseUrl}${cfg.embedded ? ' (embedded reference tenant)' : ''}${authTarget ? ` · authentication API ${authTarget}` : ''} · depth ${cfg.depth} · seed ${seed} (replay: IDM_SEED=${seed}) · run tag ${runTag}\n`,
    );
  } catch (e) {
    if (cfg && locked) unlockRun(cfg);
    if (isIdmError(e)) exitWith(e);
    throw e;
  }
}

/**
 * The setup when only the authentication API is under test (IDM_APIS): no management token, no
 * lock, snapshot or journal, since nothing of the Management API is read or written.
 */
async function authenticationOnly(cfg: Config, setupStartedAt: number): Promise<void> {
  const seed = cfg.seed ?? newSeed();
  const runTag = newRunTag();
  const runDir = mkdtempSync(join(stateDir(), 'idm-conformance-'));
  mkdirSync(join(runDir, 'locks'), { recursive: true });
  const startedAt = new Date().toISOString();
  const discovered = await readDiscovered(cfg);
  const foreignKey = await runKey();
  publishRunState({
    seed,
    runTag,
    runDir,
    tokens: { full: null, limited: null },
    snapshot: {},
    startedAt,
    discovered,
    foreignKey,
  });
  writeRunMeta({
    target: cfg.auth.url,
    apis: 'authentication',
    embedded: cfg.embedded,
    depth: cfg.depth,
    seed,
    runTag,
    resourceServerId: '',
    allow: [...cfg.allow],
    startedAt,
    requestsOutsideTests: { setup: 1, teardown: 0 },
    timings: { setupStartedAt, setupEndedAt: Date.now() },
  });
  process.stderr.write(
    `idm-conformance: authentication API ${cfg.auth.url} alone (IDM_APIS=authentication: the Management API is not under test) · depth ${cfg.depth} · seed ${seed} (replay: IDM_SEED=${seed}) · run tag ${runTag}\n`,
  );
}
