// `npm run conformance [-- <playwright args>]`: validates the configuration (one line, exit
// 2, before anything starts), then runs the conformance project. The exit code is
// Playwright's (the conformance reporter adjusts the final status for the baseline gate).
//
// Signals (Ctrl-C, a cancelled CI job): the first SIGINT/SIGTERM stops the tests (Playwright
// then runs the global teardown, which restores the resource server); if the runner ended
// without a verified restore, the journal is honoured here before exiting 130. A second
// signal exits at once and leaves the journal for the next run or `npm run restore`.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { loadConfig, type Config } from '../lib/config.ts';
import { exitWith, isIdmError } from '../lib/errors.ts';
import { honourJournal, lockRun, readJournal, recoveredLine, unlockRun } from '../lib/journal.ts';
import { obtainToken } from '../lib/tokens.ts';

let cfg: Config;
try {
  cfg = loadConfig();
} catch (e) {
  if (isIdmError(e)) exitWith(e);
  throw e;
}

const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
const child = spawn(process.execPath, [cli, 'test', '--project=conformance', ...process.argv.slice(2)], {
  stdio: 'inherit',
});
let signals = 0;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    signals++;
    if (signals === 1) {
      process.stderr.write(
        `\nidm-conformance: ${sig}: stopping the tests and restoring the resource server (a second signal exits at once and leaves the journal for the next run)\n`,
      );
      // Playwright stops on SIGINT only (and ignores a repeat within a second, e.g. the
      // terminal's own Ctrl-C to the whole process group).
      child.kill('SIGINT');
    } else {
      process.stderr.write(
        `idm-conformance: ${sig} again: exiting now; the next run (or \`npm run restore\`) restores the resource server\n`,
      );
      child.kill('SIGKILL');
      process.exit(130);
    }
  });
}
child.on('exit', (code, signal) => {
  if (signals === 0 && signal === null) process.exit(code ?? 1);
  void restoreLeftover().finally(() => process.exit(signals > 0 ? 130 : (code ?? 1)));
});

/** The runner ended without removing the journal (killed, interrupted before the teardown): restore here. */
async function restoreLeftover(): Promise<void> {
  try {
    // The embedded tenant ended with the runner, and its state with it.
    if (cfg.embedded || cfg.apis === 'authentication' || !readJournal(cfg)) return;
    lockRun(cfg);
    try {
      const token = await obtainToken(cfg, cfg.client, 'IDM_CLIENT_ID');
      const done = await honourJournal(cfg, token);
      if (done) process.stderr.write(`idm-conformance: ${recoveredLine(done)} after the interruption\n`);
    } finally {
      unlockRun(cfg);
    }
  } catch (e) {
    process.stderr.write(`${isIdmError(e) ? e.line() : `idm-conformance: ${(e as Error).message}`}\n`);
  }
}
