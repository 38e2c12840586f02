// Spawns `tsx bin/<script>.ts` as CI would, in a process group of its own (so a test can
// SIGKILL the whole run, runner and workers, as a CI job timeout does), with only the given
// IDM_* settings, its own reports, output and state folders. Used by the kill, the
// broken-target and the command-line self-tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEV_CREDENTIALS, DEV_RESOURCES } from '../mutation/suite.ts';

const ROOT = process.cwd();
// `node --import tsx`, as package.json runs them: the tsx CLI relays a signal to its child and
// SIGKILLs it when the child does not answer within 30 ms, which a loaded machine misses.
const NODE_TSX = [process.execPath, '--import', 'tsx'] as const;

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface CliRun {
  child: ChildProcess;
  done: Promise<CliResult>;
  /** Signal the whole process group (runner, workers), as a CI runner does. */
  killGroup(sig: NodeJS.Signals): void;
  output(): string;
}

export interface Workspace {
  dir: string;
  reportsDir: string;
  stateDir: string;
  envFile: string;
}

const made: string[] = [];

export function workspace(stateDir?: string): Workspace {
  const dir = mkdtempSync(join(tmpdir(), 'idm-selftest-run-'));
  made.push(dir);
  const envFile = join(dir, 'empty.env'); // a .env in the checkout must not take part
  writeFileSync(envFile, '');
  return { dir, reportsDir: join(dir, 'reports'), stateDir: stateDir ?? join(dir, 'state'), envFile };
}

/** Removes every workspace this process made (they hold journals and reports of test tenants). */
export function removeWorkspaces(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** The settings a user sets for a separately started reference tenant at `origin`. */
export function tenantSettings(origin: string, extra: Record<string, string> = {}): Record<string, string> {
  return { IDM_BASE_URL: origin, ...DEV_CREDENTIALS, ...DEV_RESOURCES, IDM_ALLOW: 'all', IDM_DEPTH: 'quick', ...extra };
}

export function spawnCli(
  script: 'conformance' | 'restore',
  ws: Workspace,
  settings: Record<string, string>,
  args: string[] = [],
): CliRun {
  const env: NodeJS.ProcessEnv = {
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('IDM_'))),
    CI: 'true',
    FORCE_COLOR: '0',
    IDM_ENV_FILE: ws.envFile,
    IDM_REPORTS_DIR: ws.reportsDir,
    IDM_STATE_DIR: ws.stateDir,
    ...settings,
  };
  const extra = script === 'conformance' ? ['--output', join(ws.dir, 'test-output'), '--workers=1', ...args] : args;
  const started = Date.now();
  const child = spawn(NODE_TSX[0], [...NODE_TSX.slice(1), `bin/${script}.ts`, ...extra], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ms: Date.now() - started })),
  );
  return {
    child,
    done,
    killGroup(sig) {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, sig);
      } catch {
        /* already gone */
      }
    },
    output: () => stdout + stderr,
  };
}

/** Runs to the end; a hang guard kills the group after `limitMs` (the test then fails on the code). */
export async function runCli(
  script: 'conformance' | 'restore',
  ws: Workspace,
  settings: Record<string, string>,
  args: string[] = [],
  limitMs = 240_000,
): Promise<CliResult> {
  const run = spawnCli(script, ws, settings, args);
  const timer = setTimeout(() => run.killGroup('SIGKILL'), limitMs);
  const r = await run.done;
  clearTimeout(timer);
  return r;
}
