// Every experiment a run creates, on disk before and after its creation is sent: the spec shows no
// way to delete one, so a run killed before its cleanup (lib/experiment-cleanup.ts) leaves this
// file for the next run, as the restore journal does (lib/README.md, *Run lifecycle*).
import { appendFileSync, chmodSync, existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from './config.ts';
import { ensureStateDir, journalKey } from './journal.ts';
import { runSettings } from './config/run.ts';

export interface Named {
  name: string;
  /** The run that sent it (its names start with this tag). */
  runTag: string;
}

export interface Created extends Named {
  id: string;
}

/** What the journal lists: experiments created (with their ids), and creations no answer came back to. */
export interface Listed {
  created: Created[];
  /** Sent, unanswered when the run ended: whether they exist is unknown, and they have no id to delete by. */
  inFlight: Named[];
}

type Target = Pick<Config, 'apiBase' | 'resourceServerId'>;
type Line = Named & { id?: string; sending?: true };

function createdPath(cfg: Target): string {
  return join(runSettings().stateDir, `experiments-${journalKey(cfg)}.jsonl`);
}

/** A creation about to be sent. */
export function recordSending(cfg: Target, c: Named): void {
  append(cfg, { ...c, sending: true });
}

/** Its answer: the id it was created with, or null when it was not created. */
export function recordAnswered(cfg: Target, c: Named, id: string | null): void {
  append(cfg, id === null ? c : { ...c, id });
}

/** The journal read back, oldest first; a line cut by a kill is skipped. */
export function readCreated(cfg: Target): Listed {
  const path = createdPath(cfg);
  if (!existsSync(path)) return { created: [], inFlight: [] };
  const created: Created[] = [];
  const open = new Map<string, Named & { n: number }>();
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    const line = parsed(text);
    if (!line) continue;
    const key = `${line.runTag}\u0000${line.name}`;
    const o = open.get(key) ?? { name: line.name, runTag: line.runTag, n: 0 };
    o.n += line.sending ? 1 : -1;
    open.set(key, o);
    if (line.id !== undefined) created.push({ id: line.id, name: line.name, runTag: line.runTag });
  }
  const inFlight = [...open.values()].filter((o) => o.n > 0).map(({ name, runTag }) => ({ name, runTag }));
  return { created, inFlight };
}

/** The journal replaced by the experiments `left` (written whole, or removed when none is left): only while no worker writes. */
export function keepCreated(cfg: Target, left: readonly Created[]): void {
  const path = createdPath(cfg);
  if (left.length === 0) {
    rmSync(path, { force: true });
    return;
  }
  const tmp = join(ensureStateDir(), `.experiments-${process.pid}.tmp`);
  writeFileSync(tmp, left.map(({ id, name, runTag }) => `${JSON.stringify({ id, name, runTag })}\n`).join(''), {
    mode: 0o600,
  });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}

// Helpers

/** One line added whole (O_APPEND): workers never interleave. */
function append(cfg: Target, line: Line): void {
  ensureStateDir();
  appendFileSync(createdPath(cfg), `${JSON.stringify(line)}\n`, { mode: 0o600 });
}

function parsed(text: string): Line | null {
  try {
    const l = JSON.parse(text) as Partial<Line>;
    if (typeof l.name !== 'string' || typeof l.runTag !== 'string') return null;
    if (l.id !== undefined && typeof l.id !== 'string') return null;
    return {
      name: l.name,
      runTag: l.runTag,
      ...(l.id !== undefined ? { id: l.id } : {}),
      ...(l.sending ? { sending: true } : {}),
    };
  } catch {
    return null; // an empty or half-written line
  }
}
