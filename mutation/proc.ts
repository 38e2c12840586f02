// Child-process helpers shared by the mutation harness and the bench: start a tenant
// launcher and wait for its ready line, run a command to completion with a time cap,
// and stop what we started by its own process group (never by name).
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TSX = resolve(ROOT, 'node_modules/.bin/tsx');

export interface Started {
  child: ChildProcess;
  origin: string;
  stop(): Promise<void>;
}

/**
 * Starts `mutation/launch.ts` for one variant on a fixed loopback port and resolves once
 * the launcher prints `ready <origin>`. Extra launcher flags (e.g. a rate) go in `args`.
 */
export async function startVariant(
  variantId: string,
  port: number,
  logFile: string,
  args: string[] = [],
): Promise<Started> {
  await mkdir(dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile);
  const child = spawn(
    TSX,
    [resolve(ROOT, 'mutation/launch.ts'), '--variant', variantId, '--port', String(port), ...args],
    {
      cwd: ROOT,
      detached: true, // own process group, so stop() reaches tsx's node child too
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_NO_WARNINGS: '1' },
    },
  );
  child.stderr!.pipe(log, { end: false });
  const origin = await new Promise<string>((ok, fail) => {
    let buf = '';
    const timer = setTimeout(
      () => fail(new Error(`variant ${variantId}: no ready line within 20 s (see ${logFile})`)),
      20_000,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      log.write(chunk);
      buf += chunk.toString();
      const m = /^ready (\S+)$/m.exec(buf);
      if (m) {
        clearTimeout(timer);
        ok(m[1]!);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      fail(new Error(`variant ${variantId}: launcher exited with ${code} before ready (see ${logFile})`));
    });
  });
  return {
    child,
    origin,
    stop: () => stopGroup(child).finally(() => log.end()),
  };
}

export interface RunResult {
  code: number | null;
  signal: string | null;
  seconds: number;
  timedOut: boolean;
}

/** Runs a command to completion (output to a log file), killing its group after `timeoutMs`. */
export async function runLogged(
  cmd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  logFile: string,
  timeoutMs: number,
  cwd = ROOT,
): Promise<RunResult> {
  await mkdir(dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile);
  const t0 = performance.now();
  const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout!.pipe(log, { end: false });
  child.stderr!.pipe(log, { end: false });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void stopGroup(child);
  }, timeoutMs);
  const [code, signal] = await new Promise<[number | null, string | null]>((ok) =>
    child.once('close', (c, s) => ok([c, s])),
  );
  clearTimeout(timer);
  await new Promise<void>((ok) => log.end(ok));
  return { code, signal, seconds: (performance.now() - t0) / 1000, timedOut };
}

/** SIGTERM to the child's own process group, SIGKILL after 3 s if it is still there. */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const pid = child.pid;
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  try {
    process.kill(-pid, 'SIGTERM');
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }, 3000);
  await exited;
  clearTimeout(timer);
}

/**
 * Runs `task` over `items` with at most `limit` in flight, preserving result order. `lane`
 * (0 … limit-1) is exclusive while the task runs, e.g. to give each lane its own port.
 */
export async function pool<T, R>(
  items: T[],
  limit: number,
  task: (item: T, index: number, lane: number) => Promise<R>,
): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async (id: number): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i]!, i, id);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, (_, id) => lane(id)));
  return out;
}
