// Child processes of the legs: waiting for a server to answer, and stopping it for sure.
import type { ChildProcess } from 'node:child_process';

/** Resolves once `url` answers 200; rejects after `ms`, or at once when the process has exited (`exited`: its exit code or null). */
export async function waitForUrl(url: string, ms: number, exited: () => number | null): Promise<void> {
  const until = Date.now() + ms;
  let last = 'no answer';
  while (Date.now() < until) {
    const code = exited();
    if (code !== null) throw new Error(`the server exited with code ${code} before ${url} answered`);
    try {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await res.body?.cancel();
      if (res.status === 200) return;
      last = `status ${res.status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} did not answer 200 within ${ms} ms (${last})`);
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
export function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const kill = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** A server's stop(): stops `child` once (stopChild), however often it is called. */
export function stopOnce(child: ChildProcess): () => Promise<void> {
  let stopping: Promise<void> | null = null;
  return () => (stopping ??= stopChild(child));
}

/**
 * Waits for a server just started (`ready`); when it does not come up, stops it and throws
 * "<what> did not start: <why>; see <logFile>".
 */
export async function readyOrStopped(
  what: string,
  logFile: string,
  stop: () => Promise<void>,
  ready: () => Promise<void>,
): Promise<void> {
  try {
    await ready();
  } catch (e) {
    await stop();
    throw new Error(`${what} did not start: ${(e as Error).message}; see ${logFile}`);
  }
}
