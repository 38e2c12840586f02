// A cross-process mutex on a directory (mkdir is atomic). Playwright runs tests in several
// worker processes; the pacer state and the resource server under test are shared by all.
// The holder's pid is written inside, so a lock left by a killed worker is taken over.
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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
      if (abandoned(path)) rmSync(path, { recursive: true, force: true });
      else await sleep(pollMs);
    }
  }
}

export function release(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

// Helpers

/** The holder is gone: its pid no longer exists (or it never wrote one within a second). */
function abandoned(path: string): boolean {
  try {
    const pid = Number(readFileSync(join(path, 'owner'), 'utf8'));
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return false;
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
