// Where the settings rows run (lib/api-tokens/rows.ts): the configured resource server (through
// the `rs` fixture: locked, journalled, restored after the test, also when the run is killed), the
// API's token requests, what the rows before wrote and obtained, and the mechanics every row
// shares — a write taken or why not, the test's first write read back, the API's token issued.
import type { TestInfo } from '@playwright/test';
import type { JSONWebKeySet } from 'jose';
import { describeAnswer } from '../answer-words.ts';
import { classify } from '../answer-class.ts';
import { skipClauses } from '../declare.ts';
import type { ResourceServerUnderTest } from '../fixtures.ts';
import { optInSkip, type ClientCredentials, type Config } from '../config.ts';
import type { ApiClient } from '../http.ts';
import type { Flows } from '../auth/flow-types.ts';
import { clauseSkip, runSkip, tenantSkip, type SkipRecord } from '../skip-record.ts';
import type { Twin, TwinGate } from '../twin-gate.ts';
import { deepEqual, isObject, short } from '../values.ts';
import { PERSISTED } from '../management/read-back.ts';
import { apiTokenIssued } from './conditions.ts';
import { tenantKeys } from './keys.ts';
import { ApiTokens, type ApiToken } from './requests.ts';

export const ISSUED = 'rs.settings.token.issued';

export type Body = Record<string, unknown>;

/** What a row came to: the body it wrote, the token it obtained, the twin it gives, or why it was skipped. */
export interface Done {
  written: Body | null;
  t: unknown;
  twin?: Twin;
  skipped?: SkipRecord;
}

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
    return tenantKeys(this.cfg, this.f.anon);
  }
}

/**
 * Writes a setting: the body written (after staging safety), or why the row cannot go on — a body
 * the target may not get (a field the snapshot does not show, IDM_ALLOW=irreversible), a PATCH the
 * tenant refuses (an add-on, the edge: the tenant's, citing the answer) or a fault.
 */
export async function writeSetting(r: Room, body: Body): Promise<{ body: Body } | { skip: SkipRecord }> {
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
  const answer = classify(ex).class;
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
export async function confirmed(r: Room, written: Body, clauses: readonly string[]): Promise<boolean> {
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
export async function issuedTwin(r: Room, t: ApiToken, clauses: readonly string[]): Promise<Twin> {
  if (!r.wrote && t.access === null && !r.cfg.embedded && r.cfg.apiClient.id === r.cfg.client.id) {
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
