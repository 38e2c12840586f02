// Every experiment a run creates, on disk the moment its creation is answered: the spec shows no
// way to delete one, so the run tries DELETE after its tests (lib/experiment-cleanup.ts), and a
// run killed before that leaves this file for the next run (or `npm run restore`), as the restore
// journal leaves the resource server's snapshot. One line per creation, appended by whichever
// worker made it; owner-only (0600) in the state folder, like the restore journal.
import { appendFileSync, chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.ts';
import { ensureStateDir, journalKey } from './journal.ts';
import { runSettings } from './settings/run.ts';

export interface Created {
  id: string;
  name: string;
  /** The run that created it (its names start with this tag). */
  runTag: string;
}

type Target = Pick<Config, 'apiBase' | 'resourceServerId'>;

function createdPath(cfg: Target): string {
  return join(runSettings().stateDir, `experiments-${journalKey(cfg)}.jsonl`);
}

/** One creation, added at once: a line appended whole (O_APPEND), so workers never interleave. */
export function recordCreated(cfg: Target, c: Created): void {
  ensureStateDir();
  appendFileSync(createdPath(cfg), `${JSON.stringify(c)}\n`, { mode: 0o600 });
}

/** The creations listed for this target, oldest first; a line cut by a kill is skipped. */
export function readCreated(cfg: Target): Created[] {
  const path = createdPath(cfg);
  if (!existsSync(path)) return [];
  const out: Created[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    try {
      const c = JSON.parse(line) as Partial<Created>;
      if (typeof c.id === 'string' && typeof c.name === 'string' && typeof c.runTag === 'string')
        out.push({ id: c.id, name: c.name, runTag: c.runTag });
    } catch {
      // an empty or half-written line
    }
  }
  return out;
}

/** The list replaced by `left` (written whole, or removed when nothing is left): only while no worker writes. */
export function keepCreated(cfg: Target, left: readonly Created[]): void {
  const path = createdPath(cfg);
  if (left.length === 0) {
    rmSync(path, { force: true });
    return;
  }
  const tmp = join(ensureStateDir(), `.experiments-${process.pid}.tmp`);
  writeFileSync(tmp, left.map((c) => `${JSON.stringify(c)}\n`).join(''), { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}
