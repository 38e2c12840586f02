// One Hydra process on loopback: `hydra serve all --dev` (dev: plain HTTP on loopback, which
// Hydra otherwise refuses), a SQLite database file in the cache (fresh per start, migrated by
// `hydra migrate sql up` first), a system secret made
// up per start, the login, consent, logout and error pages of our login app, its output to an
// owner-only log file in the cache (never printed). Configured in its environment, as Hydra's
// configuration keys map to variables (urls.self.issuer → URLS_SELF_ISSUER).
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readyOrStopped, stopOnce, waitForUrl } from '../process.ts';
import { CACHE_DIR, HYDRA_BIN } from './build.ts';

/** Hydra is ready within seconds of its start (the database is migrated before); a busy machine is given a minute. */
const READY_TIMEOUT_MS = 60_000;
/** Making the signing keys (RSA 4096) on a busy 2-core machine took longer than the suite's 8 s request timeout. */
const KEYS_TIMEOUT_MS = 180_000;

export interface HydraPorts {
  /** The public port (authorize, token, user info, revoke, logout, discovery). */
  public: number;
  /** The admin port (clients, login and consent requests, health). */
  admin: number;
}

export interface HydraProcess {
  /** The issuer and public base URL. */
  readonly url: string;
  readonly adminUrl: string;
  readonly logFile: string;
  stop(): Promise<void>;
}

/** Starts Hydra, its login and consent pages at `appUrl` (login-app.ts), and waits until it is ready. */
export async function startHydra(ports: HydraPorts, appUrl: string): Promise<HydraProcess> {
  const url = `http://127.0.0.1:${ports.public}`;
  const adminUrl = `http://127.0.0.1:${ports.admin}`;
  mkdirSync(join(CACHE_DIR, 'run'), { recursive: true, mode: 0o700 });
  const logFile = join(CACHE_DIR, 'run', 'server.log');
  const db = join(CACHE_DIR, 'run', 'hydra.sqlite');
  for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
  // Not DSN=memory: its shared-cache SQLite refuses a write while another is under way, and Hydra
  // answered a login that met the suite's token burst with "Unable to serialize access due to a
  // concurrent update in another session". A file in WAL mode whose writers wait their turn
  // (busy timeout, write lock taken at BEGIN) is what a single-node deployment on SQLite runs.
  const dsn = `sqlite://${db}?_fk=true&_journal_mode=WAL&_busy_timeout=30000&_txlock=immediate`;
  await promisify(execFile)(HYDRA_BIN, ['migrate', 'sql', 'up', '--read-from-env', '--yes'], {
    env: { PATH: process.env.PATH ?? '', DSN: dsn },
    timeout: 120_000,
  });
  const out = openSync(logFile, 'w', 0o600);
  const child = spawn(HYDRA_BIN, ['serve', 'all', '--dev', '--sqa-opt-out'], {
    stdio: ['ignore', out, out],
    env: {
      PATH: process.env.PATH ?? '',
      DSN: dsn,
      SERVE_PUBLIC_HOST: '127.0.0.1',
      SERVE_PUBLIC_PORT: String(ports.public),
      SERVE_ADMIN_HOST: '127.0.0.1',
      SERVE_ADMIN_PORT: String(ports.admin),
      URLS_SELF_ISSUER: url,
      URLS_LOGIN: `${appUrl}/login`,
      URLS_CONSENT: `${appUrl}/consent`,
      URLS_LOGOUT: `${appUrl}/logout`,
      // Hydra's fallback error page says to set this (and answers 500): the app shows the error.
      URLS_ERROR: `${appUrl}/error`,
      SECRETS_SYSTEM: randomBytes(32).toString('base64url'),
      // A public client proves its code with PKCE (RFC 7636; Hydra takes S256 only).
      OAUTH2_PKCE_ENFORCED_FOR_PUBLIC_CLIENTS: 'true',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'text',
    },
  });
  closeSync(out);
  const stop = stopOnce(child);
  await readyOrStopped('hydra', logFile, stop, async () => {
    await waitForUrl(`${adminUrl}/health/ready`, READY_TIMEOUT_MS, () => child.exitCode);
    await makeKeys(url);
  });
  return { url, adminUrl, logFile, stop };
}

/**
 * Hydra makes its signing keys at the first request that needs them, and gives up when that
 * request is cut short; a request that takes longer than its server's write timeout gets no
 * answer, though the keys are made. So: one patient request at a time until the JWKS has keys,
 * here, not the suite's first request for it.
 */
async function makeKeys(url: string): Promise<void> {
  const until = Date.now() + KEYS_TIMEOUT_MS;
  let last = 'no answer';
  while (Date.now() < until) {
    try {
      const res = await fetch(`${url}/.well-known/jwks.json`, { signal: AbortSignal.timeout(until - Date.now()) });
      const body = (await res.json()) as { keys?: unknown[] };
      if (res.status === 200 && body.keys?.length) return;
      last = `status ${res.status}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await new Promise((r) => setTimeout(r, 1_000));
  }
  throw new Error(`its JWKS had no keys within ${KEYS_TIMEOUT_MS / 1000} s (${last})`);
}
