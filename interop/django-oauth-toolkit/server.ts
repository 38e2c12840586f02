// One Django OAuth Toolkit server on loopback: our Django project (project/, copied into the
// cache at every start), set up by project/configure.py (a fresh SQLite file migrated, the admin's
// static files, the users and the applications), then served by gunicorn, a WSGI server as a
// deployment runs Django (one process, threads), its output to an owner-only log file in the
// cache (never printed). What changes per start, secrets and the signing key included, is in the
// environment (DOT_LEG_CONFIG), never on a command line or in a committed file.
import { execFile, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { closeSync, cpSync, mkdirSync, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { readyOrStopped, stopOnce, waitForUrl } from '../process.ts';
import { CACHE_DIR, GUNICORN, PYTHON } from './install.ts';

/** Django is ready within seconds of gunicorn's start (the database is set up before); a busy machine is given a minute. */
const READY_TIMEOUT_MS = 60_000;
/** Migrating a fresh database and hashing the users' passwords and the clients' secrets (PBKDF2). */
const SETUP_TIMEOUT_MS = 180_000;
/** DOT's endpoints are mounted under this path (project/interop_dot/urls.py): the issuer. */
const PREFIX = '/o';
const PROJECT = fileURLToPath(new URL('project/', import.meta.url));

export interface DotUser {
  username: string;
  password: string;
  name: string;
}

export interface DotClient {
  id: string;
  name: string;
  /** Absent for the public client. */
  secret?: string;
}

export interface DotPlan {
  users: readonly DotUser[];
  clients: readonly DotClient[];
  redirectUri: string;
  logoutReturnTo: string;
}

export interface DotProcess {
  /** The issuer, under which every endpoint is (discovery included). */
  readonly issuer: string;
  readonly logFile: string;
  stop(): Promise<void>;
}

export async function startDot(port: number, plan: DotPlan): Promise<DotProcess> {
  const runDir = join(CACHE_DIR, 'run');
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true, mode: 0o700 });
  const projectDir = join(runDir, 'project');
  cpSync(PROJECT, projectDir, { recursive: true });
  const issuer = `http://127.0.0.1:${port}${PREFIX}`;
  const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const env = {
    PATH: process.env.PATH ?? '',
    PYTHONPATH: projectDir,
    PYTHONDONTWRITEBYTECODE: '1',
    DJANGO_SETTINGS_MODULE: 'interop_dot.settings',
    DOT_LEG_CONFIG: JSON.stringify({
      ...plan,
      issuer,
      secretKey: randomBytes(48).toString('base64url'),
      signingKey: signing.privateKey.export({ type: 'pkcs8', format: 'pem' }),
      database: join(runDir, 'db.sqlite3'),
      staticRoot: join(CACHE_DIR, 'static'),
    }),
  };
  const logFile = join(runDir, 'server.log');
  await promisify(execFile)(PYTHON, [join(projectDir, 'configure.py')], {
    cwd: projectDir,
    env,
    timeout: SETUP_TIMEOUT_MS,
  }).catch((e: Error & { stderr?: string }) => {
    throw new Error(`django-oauth-toolkit: project/configure.py failed: ${e.message}\n${e.stderr ?? ''}`);
  });
  const out = openSync(logFile, 'w', 0o600);
  const child = spawn(
    GUNICORN,
    [
      '--bind',
      `127.0.0.1:${port}`,
      '--chdir',
      projectDir,
      '--workers',
      '1',
      '--worker-class',
      'gthread',
      '--threads',
      '8',
      '--graceful-timeout',
      '3',
      // An idle connection is kept longer than a client keeps it for reuse (undici: 4 s): with
      // gunicorn's default of 2 s, a request the suite sent on a connection idle since a browser
      // login met the server closing it ("the target reset the connection").
      '--keep-alive',
      '30',
      // gunicorn 27's control socket would be a file in the home folder, shared by every start.
      '--no-control-socket',
      '--access-logfile',
      '-',
      'interop_dot.wsgi:application',
    ],
    { stdio: ['ignore', out, out], env },
  );
  closeSync(out);
  const stop = stopOnce(child);
  await readyOrStopped('django-oauth-toolkit', logFile, stop, () =>
    waitForUrl(`${issuer}/.well-known/openid-configuration`, READY_TIMEOUT_MS, () => child.exitCode),
  );
  return { issuer, logFile, stop };
}
