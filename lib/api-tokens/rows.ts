// The settings room as rows of data (issue 46): a row writes a setting on the configured resource
// server, asks for a token for its API, and judges it with named conditions — or, where the setting
// calls for a refusal, judges that refusal beside its twin (lib/twin-gate.ts). One driver runs a
// test's rows in order; what a row cannot judge is skipped from its data, naming why: the run's
// configuration its ask needs, a write the tenant did not take (and every row standing under it), a
// twin that was not had. See specs/settings/ for the rows, lib/README.md for the fields.
import type { TestDetails } from '@playwright/test';
import { clausesOf, type Condition } from '../condition.ts';
import { clauseEntry } from '../catalogue.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../declare.ts';
import type { Exchange } from '../http.ts';
import { isSkipRecord, runSkip, type SkipRecord } from '../skip-record.ts';
import { deepEqual, short } from '../values.ts';
import { recorded } from '../management/recorded.ts';
import type { Ask, Asked } from './asks.ts';
import { apiTokenIssued } from './conditions.ts';
import type { ApiToken } from './requests.ts';
import { confirmed, ISSUED, issuedTwin, Room, writeSetting, type Body, type RoomFixtures } from './room.ts';

const REFUSAL_STATUS = recorded('rs.settings.refusal.status');

export interface SettingRow<T = ApiToken> {
  /** How later rows name it: the twin of their refusal, the token they compare with. */
  id: string;
  /** The PATCH body, or one made at the moment (null: none needed); a row without stands under the previous write. */
  write?: Body | ((r: Room) => Body | null | Promise<Body | null>);
  /** The token it asks for. */
  ask: Ask<T>;
  /** The twin of every row after it: the API's token issued, or those rows are not judged. */
  twin?: true;
  /** The token must be issued (rs.settings.token.issued) before its conditions judge what it carries. */
  issued?: true;
  /** The conditions that judge the answer (or the token, with `issued`). */
  judge?: readonly Judge<T>[];
  /**
   * The refusal the setting calls for, beside the twin: row `twin`'s token, or the one the ask made
   * with it. `optional`: the tenant may issue instead, and `judge` then judges the token.
   */
  refused?: { clause: string; twin?: string; optional?: true };
  /** Clauses a later row judges on this row's token: skipped with it. */
  also?: readonly string[];
}

/** A condition and how a row's answer becomes its input (null: not judged here; a record: skipped with it). */
export interface Judge<T> {
  clauses: readonly string[];
  run(t: T, r: Room, ex: Exchange | null): Promise<void>;
}

type Input<I> = I | SkipRecord | null;

/** `c` judging a row's answer as it is, or as `input` makes it. */
export function on<T>(c: Condition<T>): Judge<T>;
export function on<I, T = ApiToken>(c: Condition<I>, input: (t: T, r: Room) => Input<I> | Promise<Input<I>>): Judge<T>;
export function on<I, T>(c: Condition<I>, input?: (t: T, r: Room) => Input<I> | Promise<Input<I>>): Judge<T> {
  return {
    clauses: c.clauses,
    async run(t, r, ex) {
      const i = input ? await input(t, r) : (t as unknown as I);
      if (i === null) return;
      if (isSkipRecord(i)) return skipClauses(r.info, i, c.clauses[0]);
      await r.gate.call(c, ex, i);
    },
  };
}

/** A row, typed by its ask's answer. */
export function row<T = ApiToken>(r: SettingRow<T>): SettingRow<unknown> {
  return r as unknown as SettingRow<unknown>;
}

/** The clauses a test of `rows` declares: those of their conditions and refusals. */
export function declared(rows: readonly SettingRow<unknown>[]): TestDetails {
  return clauses(
    OPERATIONS.settings,
    ...clausesOf(
      ...(rows.some((x) => x.twin || x.issued) ? [apiTokenIssued] : []),
      ...rows.flatMap((x) => [
        ...(x.judge ?? []).flatMap((j) => j.clauses),
        ...(x.refused ? [x.refused.clause, ...REFUSAL_STATUS.clauses] : []),
        ...(x.also ?? []),
      ]),
    ),
  );
}

/** Runs a test's rows in order, from the fixtures it was given. */
export async function runRows(rows: readonly SettingRow<unknown>[], f: RoomFixtures): Promise<void> {
  const { cfg } = f.run;
  skipTest(
    f.rs.identifier === null && runSkip({}, 'the configured resource server shows no identifier (its audience)'),
    f.info,
  );
  // A test none of whose rows the configuration allows, for one reason, is skipped for it.
  const needs = rows.map((x) => x.ask.needs?.(cfg) ?? null);
  if (needs.every((n) => n !== null && deepEqual(n, needs[0]))) skipTest(needs[0], f.info);
  const r = new Room(f);
  for (const [i, x] of rows.entries()) if (!(await runRow(r, x, rows.slice(i)))) return;
}

/** One row; false when the rows after it cannot be judged (its twin not had, the first write not kept). */
async function runRow(r: Room, x: SettingRow<unknown>, rest: readonly SettingRow<unknown>[]): Promise<boolean> {
  r.written = {};
  const stand = await standing(r, x, rest);
  if (stand === 'lost') return false;
  const asked = stand ? { skip: stand } : await x.ask.send(r);
  if ('skip' in asked) {
    r.done.set(x.id, { written: null, t: null, skipped: asked.skip });
    skipClauses(r.info, asked.skip, ...(x.twin ? clausesFrom(rest) : mustOf(x)));
    return !x.twin;
  }
  const t = 't' in asked ? asked.t : null;
  const token = t !== null && typeof t === 'object' && 'ex' in t ? (t as ApiToken) : null;
  const done = { written: r.written, t, twin: token ? twinOf(x, token, r) : undefined };
  r.done.set(x.id, done);
  if (x.twin) {
    done.twin = await baseTwin(r, asked as Asked, clausesFrom(rest));
    if (!done.twin.ok) return false;
  }
  const refusal = x.refused && !(x.refused.optional && token?.access);
  if (refusal) await refused(r, x, asked as Asked);
  if (t === null || (refusal && x.refused?.optional)) return true;
  if (x.issued && !(await issuedTwin(r, token!, mustOf(x))).ok) return true;
  const ex = x.twin || x.issued ? null : ((t as { ex?: Exchange }).ex ?? null);
  for (const j of x.judge ?? []) await j.run(t, r, ex);
  return true;
}

/**
 * Why the row cannot ask, before it does: its twin's row skipped, the previous write not taken (a
 * row without a write of its own), the configuration its ask needs, the tenant's precondition, its
 * own write not taken; 'lost' when the test's first write did not read back (confirmed skips the rest).
 */
async function standing(
  r: Room,
  x: SettingRow<unknown>,
  rest: readonly SettingRow<unknown>[],
): Promise<SkipRecord | 'lost' | null> {
  const twinRow = x.refused?.twin === undefined ? undefined : r.done.get(x.refused.twin);
  const why =
    twinRow?.skipped ?? (x.write ? null : r.stage) ?? x.ask.needs?.(r.cfg) ?? (await x.ask.ready?.(r)) ?? null;
  if (!x.write) return why;
  if (why) return (r.stage = why);
  const body = typeof x.write === 'function' ? await x.write(r) : x.write;
  if (body === null) return r.stage;
  const w = await writeSetting(r, body);
  if ('skip' in w) return (r.stage = w.skip);
  r.stage = null;
  r.written = r.last = w.body;
  r.inForce = { ...r.inForce, ...w.body };
  if (r.wrote) return null;
  r.wrote = true;
  return (await confirmed(r, w.body, clausesFrom(rest))) ? null : 'lost';
}

/** The twin a row's token gives the refusals after it (a twin row's own is judged: baseTwin). */
function twinOf(x: SettingRow<unknown>, t: ApiToken, r: Room) {
  return r.gate.given(mustOf(x)[0] ?? ISSUED, t.access !== null, `${t.what}: ${t.ex.status}`);
}

/** The twin of the rows after it: the API's token issued, or (a user's grant) a refusal at the login failing it. */
async function baseTwin(r: Room, asked: Asked, clauses: readonly string[]) {
  if ('t' in asked) return issuedTwin(r, asked.t, clauses);
  const why = 'refusedAtLogin' in asked ? asked.refusedAtLogin : '';
  const twin = r.gate.accepted(ISSUED, false, `the user's grant for the API: ${why}`, why);
  r.gate.skip(twin, ...clauses);
  return twin;
}

/** The refusal a setting calls for, beside its twin: a 4xx at the token endpoint (its status recorded), or at the login. */
async function refused(r: Room, x: SettingRow<unknown>, asked: Asked): Promise<void> {
  const { clause, twin: id } = x.refused!;
  const twin = ('twin' in asked ? asked.twin : undefined) ?? r.done.get(id!)!.twin!;
  if ('refusedAtLogin' in asked) {
    r.gate.holds(twin, clause, true, `refused at the login: ${asked.refusedAtLogin}`);
    return;
  }
  if (!('t' in asked)) return;
  const { t } = asked;
  r.gate.refusedWith(twin, clause, t.ex, '4xx', `${t.what}, under ${short(r.last)}`);
  await r.gate.call(REFUSAL_STATUS, null, { what: `${clause}: ${t.what}`, ex: t.ex });
}

/** The must clauses a row judges: skipped together where it cannot go on. */
function mustOf(x: SettingRow<unknown>): string[] {
  const all = [x.refused?.clause, ...(x.judge ?? []).map((j) => j.clauses[0]), ...(x.also ?? [])];
  return [...new Set(all.filter((c): c is string => c !== undefined && clauseEntry(c)?.kind === 'must'))];
}

/** The must clauses of the rows from here on. */
function clausesFrom(rows: readonly SettingRow<unknown>[]): string[] {
  return [...new Set(rows.flatMap(mustOf))];
}
