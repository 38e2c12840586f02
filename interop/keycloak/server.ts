// One Keycloak process in dev mode on loopback: a fresh H2 database in the cache for every start,
// a bootstrap admin made up per start, its output to a log file in the cache (never printed), and
// a stop that ends the whole process group, safe to call twice or before the server was ready.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CACHE_DIR, HOME, javaHome } from './distribution.ts';

/** How long a start may take before it is given up (the first, which builds the server, took up to 4 minutes on a busy 2-core machine). */
const READY_TIMEOUT_MS = 600_000;

export interface KeycloakProcess {
  readonly url: string;
  readonly admin: { username: string; password: string };
  /** Where its output went. */
  readonly logFile: string;
  stop(): Promise<void>;
}

/** Starts Keycloak on `port` (its management interface, for readiness, on `managementPort`) and waits until it is ready. */
export async function startKeycloak(port: number, managementPort: number): Promise<KeycloakProcess> {
  // The dev database lives in the distribution's data/ folder: a fresh one per start.
  rmSync(join(HOME, 'data'), { recursive: true, force: true });
  mkdirSync(join(CACHE_DIR, 'run'), { recursive: true, mode: 0o700 });
  const logFile = join(CACHE_DIR, 'run', 'server.log');
  const out = openSync(logFile, 'w', 0o600);
  const admin = {
    username: `admin-${randomBytes(4).toString('hex')}`,
    password: randomBytes(18).toString('base64url'),
  };
  const child = spawn(
    join(HOME, 'bin', 'kc.sh'),
    [
      'start-dev',
      '--http-host=127.0.0.1',
      `--http-port=${port}`,
      `--http-management-port=${managementPort}`,
      '--health-enabled=true',
      '--hostname-strict=false',
    ],
    {
      cwd: HOME,
      detached: true,
      stdio: ['ignore', out, out],
      env: {
        ...process.env,
        JAVA_HOME: javaHome(),
        KC_BOOTSTRAP_ADMIN_USERNAME: admin.username,
        KC_BOOTSTRAP_ADMIN_PASSWORD: admin.password,
      },
    },
  );
  closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  const stop = stopper(child);
  try {
    await waitReady(child, `http://127.0.0.1:${managementPort}/health/ready`, logFile);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, admin, logFile, stop };
}

// Helpers

function stopper(child: ChildProcess): () => Promise<void> {
  let stopping: Promise<void> | null = null;
  return () =>
    (stopping ??= new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return resolve();
      const pid = child.pid;
      const kill = (signal: NodeJS.Signals) => {
        try {
          process.kill(-pid, signal); // the group: kc.sh and the JVM it started
        } catch {
          // already gone
        }
      };
      const hard = setTimeout(() => kill('SIGKILL'), 20_000);
      child.once('exit', () => {
        clearTimeout(hard);
        resolve();
      });
      kill('SIGTERM');
    }));
}

async function waitReady(child: ChildProcess, readyUrl: string, logFile: string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`keycloak exited (${child.exitCode ?? child.signalCode}) before it was ready; see ${logFile}`);
    try {
      const res = await fetch(readyUrl, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 1_000));
  }
  throw new Error(`keycloak not ready within ${READY_TIMEOUT_MS / 1000} s; see ${logFile}`);
}
