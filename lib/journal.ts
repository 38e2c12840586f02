// The durable restore journal: the snapshot of the configured resource server, on disk before the
// first test may write, so that a run killed midway is undone by the next run or by `npm run restore`
// instead of snapshotting the damage as the truth. It holds signing_secret: owner-only (0600 in a
// 0700 folder), git-ignored, never printed. The same folder holds the run lock.
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { allowed, type Config } from './config.ts';
import { runSettings } from './config/run.ts';
import { IdmError } from './errors.ts';
import { acquireIfFree, release, sleep } from './lock.ts';
import { readResourceServer, unpaced, type Pacing } from './preflight.ts';
import { restoreBody, unrestored, type ResourceServer } from './staging.ts';

export interface Journal {
  version: 1;
  target: string;
  resourceServerId: string;
  runTag: string;
  /** When the interrupted run started (ISO). */
  startedAt: string;
  pid: number;
  snapshot: ResourceServer;
}

/** `.idm-state/` in the checkout, unless IDM_STATE_DIR moves it (self-tests, read-only checkouts). */
const stateDir = (): string => runSettings().stateDir;

/** Target and resource server name one journal; the file name carries only a hash of them. */
export function journalKey(cfg: Pick<Config, 'apiBase' | 'resourceServerId'>): string {
  return createHash('sha256').update(`${cfg.apiBase}\n${cfg.resourceServerId}`).digest('hex').slice(0, 16);
}

function journalPath(cfg: Pick<Config, 'apiBase' | 'resourceServerId'>): string {
  return join(stateDir(), `journal-${journalKey(cfg)}.json`);
}

export function writeJournal(cfg: Config, j: Omit<Journal, 'version' | 'target' | 'resourceServerId' | 'pid'>): void {
  const dir = ensureStateDir();
  const path = journalPath(cfg);
  const full: Journal = {
    version: 1,
    target: cfg.apiBase,
    resourceServerId: cfg.resourceServerId,
    pid: process.pid,
    ...j,
  };
  // Written whole or not at all: a kill during the write must not leave half a snapshot.
  const tmp = join(dir, `.journal-${process.pid}.tmp`);
  writeFileSync(tmp, JSON.stringify(full), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

/** The journal left for this target and resource server, or null. */
export function readJournal(cfg: Config): Journal | null {
  const path = journalPath(cfg);
  if (!existsSync(path)) return null;
  let j: Partial<Journal>;
  try {
    j = JSON.parse(readFileSync(path, 'utf8')) as Partial<Journal>;
  } catch {
    throw new IdmError(
      'IDM_E_JOURNAL',
      `the restore journal ${path} cannot be read; check the resource server by hand, then delete the file`,
    );
  }
  if (
    j.version !== 1 ||
    j.target !== cfg.apiBase ||
    j.resourceServerId !== cfg.resourceServerId ||
    !j.snapshot ||
    typeof j.snapshot !== 'object'
  ) {
    throw new IdmError(
      'IDM_E_JOURNAL',
      `the restore journal ${path} is not one for ${cfg.resourceServerId} at ${cfg.apiBase}; check the resource server by hand, then delete the file`,
    );
  }
  return j as Journal;
}

export function removeJournal(cfg: Config): void {
  rmSync(journalPath(cfg), { force: true });
}

export interface RestoreOutcome {
  /** Fields still different from the snapshot after the restore, read back. Empty: verified. */
  left: string[];
  requests: number;
}

/**
 * Puts the resource server back to `snapshot` and reads it back: the restore counts as done
 * only when the read-back equals the snapshot (with lowering allowed, a clamped
 * token_lifetime_for_web is accepted loss). Network and target failures come back as `left`.
 */
export async function restoreAndVerify(
  cfg: Config,
  token: string,
  snapshot: ResourceServer,
  o: { freshToken?: () => Promise<string>; pace?: Pacing } = {},
): Promise<RestoreOutcome> {
  // A flaky tenant (resets, a 5xx) gets two more tries before the journal is left for later;
  // a token that expired during a long run is replaced once.
  let requests = 0;
  for (let attempt = 1; ; attempt++) {
    const out = await restoreOnce(cfg, token, snapshot, o.pace ?? unpaced);
    requests += out.requests;
    if (out.left.length === 0 || attempt === 3) return { left: out.left, requests };
    if (out.refused && o.freshToken) {
      try {
        token = await o.freshToken();
        requests++;
      } catch {
        // keep the old one; the next try reports the refusal
      }
    }
    await sleep(500 * attempt);
  }
}

async function restoreOnce(
  cfg: Config,
  token: string,
  snapshot: ResourceServer,
  pace: Pacing,
): Promise<RestoreOutcome & { refused?: boolean }> {
  let requests = 0;
  try {
    const before = await readResourceServer(cfg, token, cfg.resourceServerId, pace);
    requests += before.sent;
    const body = restoreBody(snapshot, before.body);
    if (Object.keys(body).length > 0) {
      requests++;
      const url = `${cfg.apiBase}/resource-servers/${encodeURIComponent(cfg.resourceServerId)}`;
      const res = await pace(url, 'PATCH', () =>
        fetch(url, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify(body),
          redirect: 'manual',
          signal: AbortSignal.timeout(cfg.timeoutMs),
        }),
      );
      await res.body?.cancel().catch(() => undefined);
    }
    const after = await readResourceServer(cfg, token, cfg.resourceServerId, pace);
    requests += after.sent;
    let left = unrestored(snapshot, after.body);
    if (allowed(cfg, 'lifetime')) left = left.filter((f) => f !== 'token_lifetime_for_web');
    return { left, requests };
  } catch (e) {
    return {
      left: [`(restore failed: ${(e as Error).message})`],
      requests,
      refused: (e as { code?: string }).code === 'IDM_E_CREDENTIALS_REJECTED',
    };
  }
}

/**
 * Honours a journal left by an interrupted run: restore, verify, remove. Returns what was
 * recovered (for the one line and the run facts), null when there was nothing to do; an
 * unverifiable restore is an IdmError (the journal stays for the next attempt).
 */
export async function honourJournal(
  cfg: Config,
  token: string,
): Promise<{ runTag: string; startedAt: string; requests: number } | null> {
  const j = readJournal(cfg);
  if (!j) return null;
  const { left, requests } = await restoreAndVerify(cfg, token, j.snapshot);
  if (left.length > 0) {
    throw new IdmError(
      'IDM_E_RESTORE_UNVERIFIED',
      `the changes of the interrupted run ${j.runTag} from ${j.startedAt} could not be restored on ${cfg.resourceServerId} (still different: ${left.join(', ')}); the journal is kept: retry with \`npm run restore\`, or set the fields by hand and delete ${journalPath(cfg)}`,
    );
  }
  removeJournal(cfg);
  return { runTag: j.runTag, startedAt: j.startedAt, requests };
}

export function recoveredLine(r: { runTag: string; startedAt: string }): string {
  return `restored the changes of an interrupted run ${r.runTag} from ${r.startedAt}`;
}

/** Path of the run lock for this target + resource server. */
function runLockPath(cfg: Config): string {
  return join(stateDir(), `run-${journalKey(cfg)}.lock`);
}

/** Takes the run lock or refuses in one line: two runs must not interleave on one resource server. */
export function lockRun(cfg: Config): void {
  ensureStateDir();
  const path = runLockPath(cfg);
  const holder = acquireIfFree(path);
  if (holder !== null) {
    throw new IdmError(
      'IDM_E_RUN_IN_PROGRESS',
      `another run (pid ${holder}) is using resource server ${cfg.resourceServerId} at ${cfg.baseUrl}; wait for it to end (two runs would undo each other's changes)`,
    );
  }
}

export function unlockRun(cfg: Config): void {
  release(runLockPath(cfg));
}

// Helpers

/** Creates the folder owner-only; an existing one (IDM_STATE_DIR may name a shared folder) is left as it is: the files in it are 0600. */
export function ensureStateDir(): string {
  const dir = stateDir();
  if (!existsSync(dir)) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chmodSync(dir, 0o700); // the umask may have taken bits off, never added: this only tightens
  }
  return dir;
}
