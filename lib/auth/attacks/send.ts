// The JWT attacks of one carrier, sent in the test that holds its genuine credential and its
// accepted twin: each attack made from the genuine token, registered with the redactor, sent,
// and judged by the carrier's rule through the twin gate (which records the row's answer).
import type { TestInfo } from '@playwright/test';
import { skipClauses } from '../../declare.ts';
import { tenantSkip, type SkipRecord } from '../../skip-record.ts';
import type { Exchange } from '../../http.ts';
import { attackerKeys } from './attacker-keys.ts';
import { attackRow, type AttackRow, type CarrierId } from './catalogue.ts';
import { jwtAttacksAt, type JwtMaterial } from './jwt.ts';

export interface CarrierAttacks {
  carrier: CarrierId;
  /** The genuine credential every attack is made from. */
  genuine: string;
  material: JwtMaterial;
  depth: string;
  info: TestInfo;
  /** Masks a value in every report from now on. */
  secret(v: string): void;
  /** Presents one attack credential the way the genuine one is presented. */
  send(attack: string): Promise<Exchange>;
  /** The carrier's rule, through the twin gate; `note` is said beside the answer in the report. */
  judge(row: AttackRow, ex: Exchange, what: string, note: string): void;
  /** Judged by the twin gate as not made (the row's reason). */
  notMade(row: AttackRow, why: string): void;
  /**
   * Set where the carrier took an altered signature (issue 40, item 8): it checks none, so each
   * attack is still sent and listed with its answer, and its clause skipped with this record.
   */
  unjudged?: { cause: SkipRecord; record(row: AttackRow, ex: Exchange, cause: SkipRecord): void };
}

/** Sends every JWT attack of the run's depth on one carrier; returns how many were sent. */
export async function sendJwtAttacks(c: CarrierAttacks): Promise<number> {
  const made = new Map<string, number>();
  const why = new Map<string, string>();
  let sent = 0;
  for (const a of jwtAttacksAt(c.depth, c.carrier === 'management-token')) {
    const row = attackRow(c.carrier, a.id);
    const token = await a.make(c.genuine, c.material);
    if (typeof token !== 'string') {
      c.notMade(row, token.notMade);
      why.set(a.clause, token.notMade);
      continue;
    }
    c.secret(token);
    const watch = a.clause === REMOTE ? await keyFetches() : null;
    const ex = await c.send(token);
    sent++;
    made.set(a.clause, (made.get(a.clause) ?? 0) + 1);
    if (c.unjudged) c.unjudged.record(row, ex, c.unjudged.cause);
    else c.judge(row, ex, `${row.what}`, watch ? await watch() : '');
  }
  // A class none of whose variants could be made on this carrier says why, here.
  for (const [clause, reason] of why)
    if (!made.has(clause)) skipClauses(c.info, tenantSkip({}, `not applicable on the ${c.carrier}: ${reason}`), clause);
  return sent;
}

const REMOTE = 'auth.sec.jwt.remote-key';

/** Starts watching the attacker's key URLs; the returned function says whether they were fetched since. */
export async function keyFetches(): Promise<() => Promise<string>> {
  const k = await attackerKeys();
  const before = k.fetches();
  return async () => {
    const after = k.fetches();
    const fetched = after.jku - before.jku + after.x5u - before.x5u;
    return fetched > 0 ? `the tenant fetched the key URL ${fetched} time(s)` : 'the key URL was not fetched';
  };
}
