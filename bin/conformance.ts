// `npm run conformance [-- <playwright args>]`: validates the configuration (one line, exit
// 2, before anything starts), then runs the conformance project. The exit code is
// Playwright's (the conformance reporter adjusts the final status for the baseline gate).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { loadConfig } from '../lib/config.ts';
import { exitWith, isIdmError } from '../lib/errors.ts';

try {
  loadConfig();
} catch (e) {
  if (isIdmError(e)) exitWith(e);
  throw e;
}

const cli = createRequire(import.meta.url).resolve('@playwright/test/cli');
const child = spawn(process.execPath, [cli, 'test', '--project=conformance', ...process.argv.slice(2)], { stdio: 'inherit' });
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 130 : 1)));
