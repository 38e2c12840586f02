// A cross-process mutex on a directory (mkdir is atomic). Playwright runs tests in several
// worker processes; the pacer state and the resource server under test are shared by all.
import { mkdirSync, rmSync, statSync } from 'node:fs';

const STALE_MS = 10 * 60_000;

export async function withLock<T>(path: string, fn: () => Promise<T> | T, opts: { pollMs?: number; staleMs?: number } = {}): Promise<T> {
  await acquire(path, opts.pollMs ?? 5, opts.staleMs ?? STALE_MS);
  try {
    return await fn();
  } finally {
    release(path);
  }
}

export async function acquire(path: string, pollMs = 5, staleMs = STALE_MS): Promise<void> {
  for (;;) {
    try {
      mkdirSync(path);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      // A lock left by a crashed worker would block the run forever.
      try {
        if (Date.now() - statSync(path).mtimeMs > staleMs) rmSync(path, { recursive: true, force: true });
      } catch {
        /* removed meanwhile */
      }
      await sleep(pollMs);
    }
  }
}

export function release(path: string): void {
  rmSync(path, { recursive: true, force: true });
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
