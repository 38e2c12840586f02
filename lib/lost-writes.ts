// A write lost later: a tenant that answers an update as stored and loses it a moment later
// (replication, failover) shows it only in later answers, where it would read as other clauses'
// failures. So every answer of the `rs` fixture is held against the state before it, and a change
// that does not come back when made again is said once, under rs.update.persisted (how:
// lib/README.md, *Run lifecycle*). A conformant tenant, the only writer of the resource server
// (lib/staging.ts), never shows such a change, so it costs nothing there.
import { createHash } from 'node:crypto';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Exchange } from './http.ts';
import { sleep } from './lock.ts';
import { restoreBody, UPDATABLE_FIELDS, type ResourceServer } from './staging.ts';
import { deepEqual, isObject } from './values.ts';
import { clauseSkip, faultSkip, type SkipRecord } from './skip-record.ts';
import { stateOf } from './management/update-answer.ts';
import { MGMT_FAULT } from './twin-gate.ts';

/** The pause before a candidate is made again, and the least time between the invalid bodies' first write and their read (specs/resource-server/rejects-invalid-updates.ts): longer than "a moment" of replication. */
export const SETTLE_MS = 1000;
/** Tries to make a candidate again (a second one rides over a stall of the machine). */
const ATTEMPTS = 2;

const LEDGER_FILE = 'rs-states.jsonl';
const CLAIM_FILE = 'lost-write-said';

/** One state of the resource server as answered, in the order the run saw them. */
export interface LedgerEntry {
  /** Epoch ms of the answer. */
  at: number;
  test: string;
  /** The request, redacted and short. */
  by: string;
  wrote: boolean;
  /** A digest of each updatable field's value: equality without values (secrets) on disk. */
  fp: Record<string, string>;
}

/**
 * The states of the resource server the run saw, across workers: a file in the run's
 * directory, read and appended only under the fixture's resource-server lock.
 */
export class StateLedger {
  private readonly file: string;
  private readonly entries: LedgerEntry[];

  constructor(runDir: string) {
    this.file = join(runDir, LEDGER_FILE);
    let text = '';
    try {
      text = readFileSync(this.file, 'utf8');
    } catch {
      // the run's first test with the resource server
    }
    this.entries = text
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as LedgerEntry);
  }

  get empty(): boolean {
    return this.entries.length === 0;
  }

  /** Adds a state when it differs from the last one. */
  record(state: ResourceServer, meta: Omit<LedgerEntry, 'fp' | 'at'>): void {
    const fp = fingerprint(state);
    const last = this.entries.at(-1);
    if (last && sameFields(last.fp, fp, UPDATABLE_FIELDS)) return;
    const entry: LedgerEntry = { at: Date.now(), ...meta, fp };
    this.entries.push(entry);
    appendFileSync(this.file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
  }

  /** The latest earlier state equal to `seen` on `fields`, and the first write the run made over it. */
  earlier(seen: Record<string, string>, fields: readonly string[]): { undone: LedgerEntry | undefined } | null {
    for (let j = this.entries.length - 1; j >= 0; j--) {
      if (!sameFields(this.entries[j]!.fp, seen, fields)) continue;
      return { undone: this.entries.slice(j + 1).find((e) => e.wrote) };
    }
    return null;
  }
}

export interface LostWrite {
  /** The finding, for the rs.update.persisted check. */
  message: string;
  /** Why a judgement on the disturbed answer is skipped (names rs.update.persisted as its cause). */
  skip: SkipRecord;
  /** The answer that showed it. */
  ex: Exchange;
}

export interface WatchOptions {
  ledger: StateLedger;
  test: string;
  /** The state the test starts from. */
  start: ResourceServer;
  read(): Promise<Exchange>;
  write(body: Record<string, unknown>): Promise<Exchange>;
  /** A body as one short redacted line. */
  describe(body: unknown): string;
  settleMs?: number;
}

/** Holds each answer of one test against the state before it (see the top of this file). */
export class WriteWatch {
  private state: ResourceServer;
  /** Bodies refused since the last answer: a change carrying their values is a refused write that wrote. */
  private refused: Record<string, unknown>[] = [];
  /** Off once a change came back when made again: later changes in this test are the requests' own. */
  private checking = true;
  /** Answers a test must not judge across, and why: a write lost later, or a fault that left it untold. */
  private readonly disturbed = new Map<Exchange, SkipRecord>();
  readonly found: LostWrite[] = [];

  constructor(private readonly o: WatchOptions) {
    this.state = o.start;
  }

  /** The state the tenant last answered with. */
  current(): ResourceServer {
    return this.state;
  }

  /** A state read outside the watch (the fixture's start after a refused restore). */
  saw(state: ResourceServer, by: string): void {
    this.note(state, by, false);
  }

  refusedWrite(body: unknown): void {
    if (isObject(body)) this.refused.push(body);
  }

  /** Why this answer is not to be judged across (a write lost later, or a fault while making sure), if it is not. */
  disturbance(ex: Exchange): SkipRecord | undefined {
    return this.disturbed.get(ex);
  }

  /** An answer carrying the resource server; `again` sends the same request once more. */
  async answered(
    ex: Exchange,
    sent: Record<string, unknown>,
    by: string,
    again: () => Promise<Exchange>,
  ): Promise<void> {
    const before = this.state;
    const seen = ex.body as ResourceServer;
    const unsent = UPDATABLE_FIELDS.filter((f) => !(f in sent));
    const changed = changedFields(unsent, before, seen);
    const candidate =
      this.checking && changed.length > 0 && !this.carriedByRefused(changed, seen)
        ? this.o.ledger.earlier(fingerprint(seen), unsent)
        : null;
    const at = Date.now();
    this.note(seen, by, Object.keys(sent).length > 0);
    this.refused = [];
    if (!candidate) return;
    const made = await this.madeAgain(before, sent, by, again);
    if (typeof made !== 'boolean') {
      this.disturbed.set(
        ex,
        faultSkip(MGMT_FAULT, `${made.request.method} {…} making sure of a change (lost-write check)`, made.status),
      );
      return;
    }
    if (!made) {
      this.checking = false;
      return;
    }
    const undone = candidate.undone;
    const what = undone
      ? `${undone.by} in "${undone.test}" (answered ${at - undone.at} ms before)`
      : 'an earlier write';
    const lost: LostWrite = {
      message: `a write answered as stored was lost later: ${what} was undone — ${listed(changed)} back to the values before it in the answer to ${by} in "${this.o.test}"; sent again from the state before, after a ${this.settleMs} ms pause, that request answered as expected`,
      skip: clauseSkip(
        'rs.update.persisted',
        `not judged: a write lost later changed the state this answer shows (rs.update.persisted: ${what} was undone)`,
      ),
      ex,
    };
    this.disturbed.set(ex, lost.skip);
    this.found.push(lost);
  }

  // Helpers

  private get settleMs(): number {
    return this.o.settleMs ?? SETTLE_MS;
  }

  private note(state: ResourceServer, by: string, wrote: boolean): void {
    this.state = state;
    this.o.ledger.record(state, { test: this.o.test, by, wrote });
  }

  private carriedByRefused(fields: readonly string[], seen: ResourceServer): boolean {
    return fields.every((f) => this.refused.some((b) => f in b && deepEqual(b[f], seen[f])));
  }

  /**
   * After a pause: the state before put back, the same request again; true when it answers as
   * expected, false when not, and the fault itself when one left it untold.
   */
  private async madeAgain(
    before: ResourceServer,
    sent: Record<string, unknown>,
    by: string,
    again: () => Promise<Exchange>,
  ): Promise<boolean | Exchange> {
    const unsent = UPDATABLE_FIELDS.filter((f) => !(f in sent));
    for (let i = 0; i < ATTEMPTS; i++) {
      await sleep(this.settleMs);
      const now = await this.o.read();
      if (!answers(now)) return faultOr(now);
      this.note(now.body, 'PATCH {} (lost-write check)', false);
      const back = restoreBody(before, now.body);
      let base = now.body;
      if (Object.keys(back).length > 0) {
        const put = await this.o.write(back);
        if (!answers(put)) return faultOr(put);
        this.note(put.body, `PATCH ${this.o.describe(back)} (lost-write check)`, true);
        base = put.body;
        if (changedFields(UPDATABLE_FIELDS, before, base).length > 0) return false; // could not put it back
      }
      const repeat = await again();
      if (!answers(repeat)) return faultOr(repeat);
      this.note(repeat.body, `${by} (sent again)`, Object.keys(sent).length > 0);
      if (changedFields(unsent, base, repeat.body).length === 0) return true;
    }
    return false;
  }
}

/** Says the run's lost write once: true for the first caller. */
export function claimLostWrite(runDir: string): boolean {
  try {
    writeFileSync(join(runDir, CLAIM_FILE), '', { flag: 'wx' });
    return true;
  } catch {
    return false;
  }
}

/** A digest of each updatable field's value (key order ignored). */
function fingerprint(state: ResourceServer): Record<string, string> {
  const fp: Record<string, string> = {};
  for (const f of UPDATABLE_FIELDS)
    if (f in state) fp[f] = createHash('sha256').update(canonical(state[f])).digest('base64url').slice(0, 22);
  return fp;
}

// Helpers

const answers = (ex: Exchange): ex is Exchange & { body: ResourceServer } => stateOf(ex) !== null;

/** An answer that is no state: the fault itself when it is one (nothing told), else false (not as expected). */
function faultOr(ex: Exchange): Exchange | false {
  return ex.answer.class === 'fault' ? ex : false;
}

/** Of `fields`, those both states show with different values. */
function changedFields(fields: readonly string[], a: ResourceServer, b: ResourceServer): string[] {
  return fields.filter((f) => f in a && f in b && !deepEqual(a[f], b[f]));
}

function listed(fields: readonly string[]): string {
  return fields.length > 4 ? `${fields.slice(0, 4).join(', ')} and ${fields.length - 4} more` : fields.join(', ');
}

function sameFields(a: Record<string, string>, b: Record<string, string>, fields: readonly string[]): boolean {
  return fields.every((f) => a[f] === b[f]);
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (isObject(v))
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`)
      .join(',')}}`;
  return JSON.stringify(v) ?? 'undefined';
}
