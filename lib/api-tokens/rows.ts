// The settings room as rows of data, and the one driver that runs a test's rows in order: what a
// row cannot judge is skipped from its data, naming why (the fields and how they are judged:
// lib/README.md, *Resource-server settings in effect*).
import type { TestDetails, TestInfo } from '@playwright/test';
import type { JSONWebKeySet } from 'jose';
import { describeAnswer } from '../answer-words.ts';
import { clausesOf, type Condition } from '../condition.ts';
import { clauseEntry } from '../catalogue.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../declare.ts';
import type { ResourceServerUnderTest } from '../fixtures.ts';
import { optInSkip, type ClientCredentials, type Config } from '../config.ts';
import type { ApiClient, Exchange } from '../http.ts';
import type { Flows } from '../auth/flow-types.ts';
import { clauseSkip, isSkipRecord, runSkip, tenantSkip, type SkipRecord } from '../skip-record.ts';
import type { Twin, TwinGate } from '../twin-gate.ts';
import { deepEqual, isObject, short } from '../values.ts';
import { PERSISTED } from '../management/read-back.ts';
import { recorded } from '../management/recorded.ts';
import { clientCredentials, type Ask, type Asked } from './asks.ts';
import { apiTokenIssued } from './conditions.ts';
import { tenantKeys } from './keys.ts';
import { ApiTokens, type ApiToken } from './requests.ts';

const REFUSAL_STATUS = recorded('rs.settings.refusal.status');

/** One row: what each field says is lib/README.md's table (*Resource-server settings in effect*). */
export interface SettingRow<T = ApiToken> {
  id: string;
  write?: Body | ((r: Room) => Body | null | Promise<Body | null>);
  ask?: Ask<T>;
  twin?: true;
  issued?: true;
  judge?: readonly Judge<T>[];
  refused?: { clause: string; twin?: string; optional?: true };
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

export const ISSUED = 'rs.settings.token.issued';

export type Body = Record<string, unknown>;

/** What a row came to: the answer it obtained and the twin it gives, or why it was skipped. */
export type Done = { t: unknown; twin?: Twin; skipped?: SkipRecord };

/** The fixtures a settings test hands its rows (`flows` in the tests whose rows ask through the user flows). */
export interface RoomFixtures {
  run: { cfg: Config };
  rs: ResourceServerUnderTest;
  gate: TwinGate;
  anon: ApiClient;
  suite: { redactor: { add(v: string): void }; state: { tokens: { limited?: string | null } } };
  info: TestInfo;
  flows?: Flows;
}

export class Room {
  readonly cfg: Config;
  readonly rs: ResourceServerUnderTest;
  readonly gate: TwinGate;
  readonly info: TestInfo;
  readonly anon: ApiClient;
  /** The API's token requests: its identifier the audience, every token masked. */
  readonly tokens: ApiTokens;
  /** Who asks by default: IDM_API_CLIENT_ID, else the management client. */
  readonly who: { secret: ClientCredentials };
  /** The limited client's token from the global setup: its credentials shown live. */
  readonly limitedToken: string | null;
  /** The rows so far, by id. */
  readonly done = new Map<string, Done>();
  /** What the row being run wrote ({} when it wrote nothing). */
  written: Body = {};
  /** The last body written: the setting a refusal is under. */
  last: Body = {};
  /** Every setting written so far in this test. */
  inForce: Body = {};
  /** Why the last row that writes could not: the rows without a write of their own stand under it. */
  stage: SkipRecord | null = null;
  /** Whether the test's first write was taken (and read back). */
  wrote = false;
  /** What an ask settles once a test (the user's grant: by password or by code). */
  readonly memo = new Map<string, unknown>();
  readonly flows: Flows | null;

  constructor(private readonly f: RoomFixtures) {
    this.cfg = f.run.cfg;
    this.flows = f.flows ?? null;
    this.rs = f.rs;
    this.gate = f.gate;
    this.info = f.info;
    this.anon = f.anon;
    this.tokens = new ApiTokens(this.cfg, f.anon, f.rs.identifier!, (v) => v && f.suite.redactor.add(v));
    this.who = { secret: this.cfg.apiClient };
    this.limitedToken = f.suite.state.tokens.limited ?? null;
  }

  /** The token an earlier row obtained, or null. */
  token(id: string): ApiToken | null {
    return (this.done.get(id)?.t as ApiToken | undefined) ?? null;
  }

  /** A value the run made that must never be shown (a signing secret), returned as it is. */
  redact(v: string): string {
    this.f.suite.redactor.add(v);
    return v;
  }

  /** The tenant's published keys (lib/api-tokens/keys.ts, fetched once a worker). */
  keys(): Promise<JSONWebKeySet | string> {
    return tenantKeys(this.cfg, this.anon);
  }
}

/** Runs a test's rows in order, from the fixtures it was given. */
export async function runRows(rows: readonly SettingRow<unknown>[], f: RoomFixtures): Promise<void> {
  const { cfg } = f.run;
  skipTest(
    f.rs.identifier === null && runSkip({}, 'the configured resource server shows no identifier (its audience)'),
    f.info,
  );
  // A test none of whose rows the configuration allows, for one reason, is skipped for it.
  const needs = rows.map((x) => askOf(x).needs?.(cfg) ?? null);
  if (needs.every((n) => n !== null && deepEqual(n, needs[0]))) skipTest(needs[0], f.info);
  const r = new Room(f);
  for (const [i, x] of rows.entries()) if (!(await runRow(r, x, rows.slice(i)))) return;
}

/** One row; false when the rows after it cannot be judged (its twin not had, the first write not kept). */
async function runRow(r: Room, x: SettingRow<unknown>, rest: readonly SettingRow<unknown>[]): Promise<boolean> {
  r.written = {};
  const stand = await standing(r, x, rest);
  if (stand === 'lost') return false;
  const asked = stand ? { skip: stand } : await askOf(x).send(r);
  if ('skip' in asked) {
    r.done.set(x.id, { t: null, skipped: asked.skip });
    skipClauses(r.info, asked.skip, ...(x.twin ? clausesFrom(rest) : mustOf(x)));
    return !x.twin;
  }
  const t = 't' in asked ? asked.t : null;
  const token = t !== null && typeof t === 'object' && 'ex' in t ? (t as ApiToken) : null;
  const done: Done = { t, twin: token ? twinOf(x, token, r) : undefined };
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
    twinRow?.skipped ?? (x.write ? null : r.stage) ?? askOf(x).needs?.(r.cfg) ?? (await askOf(x).ready?.(r)) ?? null;
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

function askOf(x: SettingRow<unknown>): Ask<unknown> {
  return x.ask ?? clientCredentials();
}

/** The twin a row's token gives the refusals after it (a twin row's own is judged: baseTwin). */
function twinOf(x: SettingRow<unknown>, t: ApiToken, r: Room) {
  return r.gate.given(mustOf(x)[0] ?? ISSUED, t.access !== null, `${t.what}: ${t.ex.status}`);
}

/** The twin of the rows after it: the API's token issued, or (a user's grant) a refusal at the login failing it. */
async function baseTwin(r: Room, asked: Asked, clauses: readonly string[]) {
  // The test's first row asks before anything is written.
  if ('t' in asked) return issuedTwin(r, asked.t, clauses, r.done.size === 1);
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

/**
 * Writes a setting: the body written (after staging safety), or why the row cannot go on — a body
 * the target may not get (a field the snapshot does not show, IDM_ALLOW=irreversible), a PATCH the
 * tenant refuses (an add-on, the edge: the tenant's, citing the answer) or a fault.
 */
async function writeSetting(r: Room, body: Body): Promise<{ body: Body } | { skip: SkipRecord }> {
  const safe = r.rs.safe(body);
  if (!deepEqual(Object.keys(safe).sort(), Object.keys(body).sort())) {
    const left = Object.keys(body).filter((k) => !(k in safe));
    return {
      skip:
        optInSkip(r.cfg, 'irreversible') ||
        runSkip({ setting: 'IDM_ALLOW' }, `${left.join(', ')} could not be restored on this target`),
    };
  }
  const ex = await r.rs.update(safe);
  const what = `PATCH ${short(safe)}`;
  const fault = r.gate.faultedFor(ex, [], what);
  if (fault) return { skip: fault };
  const answer = ex.answer.class;
  if (answer === 'accepted') return { body: safe };
  return {
    skip: tenantSkip({ answer }, `not applicable: the tenant did not take ${what}: ${describeAnswer(ex)}`),
  };
}

/**
 * A test's first write read back once (PATCH {}): a tenant that answers a write as stored and
 * keeps none fails rs.update.persisted, and the tokens after it say nothing more of the settings —
 * `clauses`, the test's rows from there, are then skipped naming that clause (one cause, one failure).
 */
async function confirmed(r: Room, written: Body, clauses: readonly string[]): Promise<boolean> {
  const read = await r.rs.read();
  const lost = r.rs.lostWrite(read);
  if (lost) {
    skipClauses(r.info, lost, ...clauses);
    return false;
  }
  if (r.gate.faultedFor(read, clauses, 'PATCH {} after the setting')) return false;
  const now = isObject(read.body) ? read.body : {};
  // A field the tenant does not show back, or a secret it may show masked, says nothing either way:
  // the token verifying with the secret is rs.settings.signing_secret's to judge.
  const missing = Object.keys(written).filter(
    (f) => f !== 'signing_secret' && f in now && !deepEqual(now[f], written[f]),
  );
  if (missing.length === 0) return true;
  skipClauses(
    r.info,
    clauseSkip(PERSISTED, `not judged: ${missing.join(', ')} written did not read back (${PERSISTED})`),
    ...clauses,
  );
  return false;
}

/**
 * The API's token issued (rs.settings.token.issued) as the twin of what depends on it; where it
 * was not issued, `clauses` are skipped naming that clause. Before anything is written with the
 * management client standing in for IDM_API_CLIENT_ID on a target that is not the embedded
 * tenant, a refusal says nothing of the tenant (the client may hold no grant): the run's.
 */
async function issuedTwin(r: Room, t: ApiToken, clauses: readonly string[], baseline = false): Promise<Twin> {
  if (baseline && t.access === null && !r.cfg.embedded && r.cfg.apiClient.id === r.cfg.client.id) {
    skipClauses(
      r.info,
      runSkip(
        { setting: 'IDM_API_CLIENT_ID' },
        `the management client obtained no token for ${short(t.what)} (${describeAnswer(t.ex)}): set IDM_API_CLIENT_ID and IDM_API_CLIENT_SECRET to a client holding a grant for the API`,
      ),
      ISSUED,
      ...clauses,
    );
    return r.gate.given(ISSUED, false, describeAnswer(t.ex));
  }
  // A fault is the fault clause's, and so is every row that needed the token.
  if (r.gate.faultedFor(t.ex, [ISSUED, ...clauses], t.what)) return r.gate.twinOf(ISSUED, t.ex);
  const ok = await r.gate.call(apiTokenIssued, null, t);
  const twin = r.gate.given(ISSUED, ok === true, describeAnswer(t.ex));
  if (!twin.ok) r.gate.skip(twin, ...clauses);
  return twin;
}

/**
 * A token_lifetime of the run's own, above the token_lifetime_for_web the test starts from: a
 * lower one would clamp that field (§2.1), which no update can write back (§2.2).
 */
export function lifetimeAbove(rs: ResourceServerUnderTest, by: number): number {
  const web = typeof rs.start.token_lifetime_for_web === 'number' ? rs.start.token_lifetime_for_web : 0;
  return Math.min(2592000, Math.max(web, 3600) + by);
}
