// `npm run restore`: puts the configured resource server back to the snapshot an interrupted
// run left in its restore journal (lib/journal.ts), reads it back, and removes the journal
// only when the read-back equals the snapshot. The next run does the same by itself; this
// is for doing it now. Exit 0: restored (or nothing to restore) · 3: not verified, journal
// kept · 2: configuration, or a run is using the resource server right now.
import { clientSetting, loadConfig } from '../lib/config.ts';
import { exitWith, IdmError, isIdmError } from '../lib/errors.ts';
import { honourJournal, lockRun, readJournal, recoveredLine, removeJournal, unlockRun } from '../lib/journal.ts';
import { obtainToken } from '../lib/tokens.ts';
import { cleanupLine, deleteCreated } from '../lib/experiment-cleanup.ts';
import { keepCreated, readCreated } from '../lib/experiment-journal.ts';

try {
  const cfg = loadConfig();
  lockRun(cfg);
  try {
    const j = readJournal(cfg);
    const listed = readCreated(cfg);
    const experiments = listed.created.length + listed.inFlight.length > 0;
    if ((j || experiments) && cfg.embedded) {
      // The embedded tenant lives only as long as its run: its state is gone, nothing to put back.
      removeJournal(cfg);
      keepCreated(cfg, []);
      process.stderr.write(
        `idm-conformance: nothing to restore: the embedded tenant of run ${j?.runTag ?? '(unknown)'} ended with it (its journal is removed)\n`,
      );
    } else if (!j && !experiments) {
      process.stderr.write(
        `idm-conformance: nothing to restore for ${cfg.resourceServerId} at ${cfg.baseUrl} (no journal of an interrupted run)\n`,
      );
    } else {
      const token = await obtainToken(cfg, cfg.client, clientSetting(cfg));
      // The experiments first: a restore that cannot be verified ends this command.
      const cleanup = await deleteCreated(cfg, token);
      if (cleanup) process.stderr.write(`idm-conformance: ${cleanupLine(cleanup, true)}\n`);
      if (j) {
        const done = await honourJournal(cfg, token);
        if (!done) throw new IdmError('IDM_E_JOURNAL', 'the journal disappeared during the restore');
        process.stderr.write(
          `idm-conformance: ${recoveredLine(done)} (${cfg.resourceServerId} at ${cfg.baseUrl}, read back and verified)\n`,
        );
      }
    }
  } finally {
    unlockRun(cfg);
  }
} catch (e) {
  if (isIdmError(e)) exitWith(e);
  throw e;
}
