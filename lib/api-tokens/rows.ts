// The mechanics every row of the settings room shares: writing a setting on the configured
// resource server (through the `rs` fixture: locked, journalled, restored after the test, also
// when the run is killed), and what a row is judged beside — the API's token obtained before
// anything is written, or under the row's setting.
import type { TestInfo } from '@playwright/test';
import { describeAnswer } from '../answer-words.ts';
import { classify } from '../answer-class.ts';
import { skipClauses, skipTest } from '../declare.ts';
import type { ResourceServerUnderTest } from '../fixtures.ts';
import { optInSkip, type ClientCredentials, type Config } from '../config.ts';
import type { ApiClient } from '../http.ts';
import { clauseSkip, runSkip, tenantSkip } from '../skip-record.ts';
import type { Twin, TwinGate } from '../twin-gate.ts';
import { deepEqual, isObject, short } from '../values.ts';
import { PERSISTED } from '../management/read-back.ts';
import { apiTokenIssued } from './conditions.ts';
import { ApiTokens, type ApiToken } from './requests.ts';

const ISSUED = 'rs.settings.token.issued';

export interface Row {
  cfg: Config;
  rs: ResourceServerUnderTest;
  gate: TwinGate;
  info: TestInfo;
}

/**
 * What every test of the room starts with: the row context, the API's token requests (its
 * identifier the audience, every token masked) and the client that asks them (IDM_API_CLIENT_ID,
 * else the management client). A resource server that shows no identifier has no API to ask for.
 */
export function rowsOf(f: {
  run: { cfg: Config };
  rs: ResourceServerUnderTest;
  gate: TwinGate;
  anon: ApiClient;
  suite: { redactor: { add(v: string): void } };
  info: TestInfo;
}): { x: Row; tokens: ApiTokens; who: { secret: ClientCredentials } } {
  const { cfg } = f.run;
  skipTest(
    f.rs.identifier === null && runSkip({}, 'the configured resource server shows no identifier (its audience)'),
    f.info,
  );
  return {
    x: { cfg, rs: f.rs, gate: f.gate, info: f.info },
    tokens: new ApiTokens(cfg, f.anon, f.rs.identifier!, (v) => v && f.suite.redactor.add(v)),
    who: { secret: cfg.apiClient },
  };
}

/**
 * Writes a setting; the body written (after staging safety), or null when the row cannot go on:
 * a body the target may not get (a field the snapshot does not show, IDM_ALLOW=irreversible), a
 * PATCH the tenant refuses (an add-on, the edge: the tenant's, citing the answer) or a fault.
 */
export async function writeSetting(
  x: Row,
  body: Record<string, unknown>,
  clauses: readonly string[],
): Promise<Record<string, unknown> | null> {
  const safe = x.rs.safe(body);
  if (!deepEqual(Object.keys(safe).sort(), Object.keys(body).sort())) {
    const left = Object.keys(body).filter((k) => !(k in safe));
    skipClauses(
      x.info,
      optInSkip(x.cfg, 'irreversible') ||
        runSkip({ setting: 'IDM_ALLOW' }, `${left.join(', ')} could not be restored on this target`),
      ...clauses,
    );
    return null;
  }
  const ex = await x.rs.update(safe);
  const what = `PATCH ${short(safe)}`;
  if (classify(ex).class === 'fault') {
    x.gate.faulted(clauses, ex, what);
    return null;
  }
  if (classify(ex).class !== 'accepted') {
    skipClauses(
      x.info,
      tenantSkip(
        { answer: classify(ex).class },
        `not applicable: the tenant did not take ${what}: ${describeAnswer(ex)}`,
      ),
      ...clauses,
    );
    return null;
  }
  return safe;
}

/**
 * A test's first write read back once (PATCH {}): a tenant that answers a write as stored and
 * keeps none fails rs.update.persisted, and the tokens after it say nothing more of the settings —
 * `clauses`, the test's rows, are then skipped naming that clause (one cause, one failure).
 */
export async function confirmed(
  x: Row,
  written: Record<string, unknown>,
  clauses: readonly string[],
): Promise<boolean> {
  const read = await x.rs.read();
  const lost = x.rs.lostWrite(read);
  if (lost) {
    skipClauses(x.info, lost, ...clauses);
    return false;
  }
  if (classify(read).class === 'fault') {
    x.gate.faulted(clauses, read, 'PATCH {} after the setting');
    return false;
  }
  const now = isObject(read.body) ? read.body : {};
  // A field the tenant does not show back, or a secret it may show masked, says nothing either way:
  // the token verifying with the secret is rs.settings.signing_secret's to judge.
  const missing = Object.keys(written).filter(
    (f) => f !== 'signing_secret' && f in now && !deepEqual(now[f], written[f]),
  );
  if (missing.length === 0) return true;
  skipClauses(
    x.info,
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
export async function issuedTwin(x: Row, t: ApiToken, clauses: readonly string[], baseline = false): Promise<Twin> {
  if (baseline && t.access === null && !x.cfg.embedded && x.cfg.apiClient.id === x.cfg.client.id) {
    skipClauses(
      x.info,
      runSkip(
        { setting: 'IDM_API_CLIENT_ID' },
        `the management client obtained no token for ${short(t.what)} (${describeAnswer(t.ex)}): set IDM_API_CLIENT_ID and IDM_API_CLIENT_SECRET to a client holding a grant for the API`,
      ),
      ISSUED,
      ...clauses,
    );
    return x.gate.given(ISSUED, false, describeAnswer(t.ex));
  }
  // A fault is the fault clause's, and so is every row that needed the token.
  if (x.gate.faultedFor(t.ex, [ISSUED, ...clauses], t.what)) return x.gate.twinOf(ISSUED, t.ex);
  const ok = await x.gate.call(apiTokenIssued, null, t);
  const twin = x.gate.given(ISSUED, ok === true, describeAnswer(t.ex));
  if (!twin.ok) x.gate.skip(twin, ...clauses);
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
