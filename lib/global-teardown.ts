// Playwright global teardown of the conformance project: the last safety net. Whatever the
// tests did (or failed to undo), the configured resource server is put back to the snapshot
// and read back; only a verified restore removes the restore journal (lib/journal.ts).
import { rmSync } from 'node:fs';
import { loadConfig } from './config.ts';
import { hasRunState, readRunState } from './run-state.ts';
import { readRunMeta, writeRunMeta } from './run-meta.ts';
import { removeJournal, restoreAndVerify, unlockRun } from './journal.ts';
import { cleanupLine, deleteCreated } from './experiment-cleanup.ts';
import { keepCreated } from './experiment-journal.ts';
import { obtainToken } from './tokens.ts';
import { Pacer } from './pacer.ts';
import { pacedBy } from './preflight.ts';
import { isIdmError } from './errors.ts';
import { recordRunError } from './run-errors.ts';

export default async function globalTeardown(): Promise<void> {
  if (!hasRunState()) return;
  const teardownStartedAt = Date.now();
  const state = readRunState();
  const cfg = loadConfig();
  // Only the authentication API under test (IDM_APIS): nothing was snapshotted, nothing to restore.
  if (cfg.apis === 'authentication') {
    rmSync(state.runDir, { recursive: true, force: true });
    return;
  }
  try {
    // The run's last requests spend the buckets its tests emptied: paced by the same state.
    const pace = pacedBy(new Pacer(state.runDir, cfg.pacingReserve), cfg);
    const freshToken = () => obtainToken(cfg, cfg.client, 'IDM_CLIENT_ID');
    const { left, requests } = await restoreAndVerify(cfg, state.tokens.full ?? '', state.snapshot, {
      freshToken,
      pace,
    });
    if (left.length === 0) removeJournal(cfg);
    else {
      process.stderr.write(
        `idm-conformance: warning: resource server ${cfg.resourceServerId} differs from its snapshot after the run: ${left.join(', ')} (the journal is kept: the next run or \`npm run restore\` retries)\n`,
      );
    }
    // The embedded tenant's experiments end with it; any other tenant's are deleted where it lets them be.
    let experiments = null;
    if (cfg.embedded) keepCreated(cfg, []);
    else experiments = await deleteCreated(cfg, state.tokens.full ?? '', { pace, freshToken });
    if (experiments && experiments.left.length + experiments.inFlight.length > 0)
      process.stderr.write(`idm-conformance: ${cleanupLine(experiments, false)}\n`);
    const meta = readRunMeta();
    if (meta) {
      meta.requestsOutsideTests.teardown = requests + (experiments?.requests ?? 0);
      meta.restore = { ok: left.length === 0, unrestored: left };
      if (experiments) meta.experiments = experiments;
      if (meta.timings) meta.timings = { ...meta.timings, teardownStartedAt, teardownEndedAt: Date.now() };
      writeRunMeta(meta);
    }
  } catch (e) {
    // The restore could not be verified (the journal is kept): said with its code, never thrown as words.
    if (!isIdmError(e)) throw e;
    recordRunError(e);
  } finally {
    unlockRun(cfg);
    rmSync(state.runDir, { recursive: true, force: true });
  }
}
