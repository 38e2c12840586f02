// A cross-process mutex on a directory (mkdir is atomic). Playwright runs tests in several
// worker processes; the pacer state and the resource server under test are shared by all.
// The holder's pid is written inside, so a lock left by a killed worker is taken over.
import {
  accessSync,
  constants,
  mkdirSync,
  readFileSync,
  rmdirSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Where cross-process state and locks go: a memory-backed /dev/shm when there is one (every
 * request takes the pacer lock and rewrites its state; on a disk-backed /tmp each such
 * round costs milliseconds), else the system's temporary directory.
 */
export function stateDir(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return tmpdir();
  }
}

export async function withLock<T>(path: string, fn: () => Promise<T> | T, opts: { pollMs?: number } = {}): Promise<T> {
  await acquire(path, opts.pollMs ?? 5);
  try {
    return await fn();
  } finally {
    release(path);
  }
}

export async function acquire(path: string, pollMs = 5): Promise<void> {
  for (;;) {
    try {
      mkdirSync(path);
      writeFileSync(join(path, 'owner'), String(process.pid));
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (!(abandoned(path) && takeOver(path))) await sleep(pollMs);
    }
  }
}

/**
 * Takes the lock at once when it is free or abandoned; otherwise returns the live holder's
 * pid (0 when it has not written one yet). For locks a second process must not wait on
 * (two runs against one resource server are refused, not queued).
 */
export function acquireIfFree(path: string): number | null {
  for (let tries = 0; tries < 3; tries++) {
    try {
      mkdirSync(path);
      writeFileSync(join(path, 'owner'), String(process.pid));
      return null;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      if (!(abandoned(path) && takeOver(path))) break;
    }
  }
  try {
    return Number(readFileSync(join(path, 'owner'), 'utf8')) || 0;
  } catch {
    return 0;
  }
}

export function release(path: string): void {
  // Two calls, not rmSync's recursive walk: every request takes and releases the pacer lock
  // twice, and the walk cost each release about 1 ms on a loaded machine (0.3 ms this way).
  try {
    unlinkSync(join(path, 'owner'));
    rmdirSync(path);
  } catch {
    rmSync(path, { recursive: true, force: true });
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

// Helpers

/**
 * Removes an abandoned lock under a second, short-lived lock, re-checking inside it: two
 * waiters that both saw the dead holder cannot both remove (the second would remove the
 * first one's fresh lock). A take-over lock older than 5 s was itself abandoned.
 */
function takeOver(path: string): boolean {
  const guard = `${path}.takeover`;
  try {
    mkdirSync(guard);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    try {
      if (Date.now() - statSync(guard).mtimeMs > 5000) rmSync(guard, { recursive: true, force: true });
    } catch {
      // gone meanwhile
    }
    return false;
  }
  try {
    if (abandoned(path)) rmSync(path, { recursive: true, force: true });
    return true;
  } finally {
    rmSync(guard, { recursive: true, force: true });
  }
}

/** The holder is gone: its pid no longer exists (or it never wrote one within a second). */
function abandoned(path: string): boolean {
  try {
    const pid = Number(readFileSync(join(path, 'owner'), 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return isZombie(pid);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ESRCH') return true;
    if (code === 'ENOENT') {
      // Between mkdir and writing the owner file, or removed meanwhile.
      try {
        return Date.now() - statSync(path).mtimeMs > 1000;
      } catch {
        return false;
      }
    }
    return false;
  }
}

/** A killed process whose parent has not reaped it yet still answers kill(pid, 0) (Linux: state Z). */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) === 'Z';
  } catch {
    return false;
  }
}
