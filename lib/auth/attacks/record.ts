// What each attack got, for the report's attack section (reporters/attacks.ts): the row, the
// answer's status and error code, and whether the tenant let the credential in. Recorded as an
// `attack` annotation by the test that sent it; never the credential itself.
import type { TestInfo } from '@playwright/test';
import type { Exchange } from '../../http.ts';
import type { AttackOutcome, ListAttack } from '../../twin-gate.ts';
import { ATTACK_ROWS, CARRIERS, citationOf, type AttackRow } from './catalogue.ts';

export interface AttackSeen {
  row: string;
  carrier: string;
  attack: string;
  clause: string;
  citation: string;
  what: string;
  status: number | null;
  error: string | null;
  outcome: AttackOutcome;
  /** One line for the reader: why not judged, what else was seen (a key URL fetched). */
  note?: string;
}

/** The lister the twin gate is handed (lib/fixtures.ts): each row it judges is recorded in `info` with what it came to. */
export function attackList(info: TestInfo): ListAttack {
  return (listed, ex, outcome, note) => {
    const row = ATTACK_ROWS.find((r) => r.id === listed.id);
    if (!row) throw new Error(`suite bug: no attack row ${listed.id}`);
    recordAttack(info, row, ex, outcome, note);
  };
}

function recordAttack(info: TestInfo, r: AttackRow, ex: Exchange | null, outcome: AttackOutcome, note = ''): void {
  const seen: AttackSeen = {
    row: r.id,
    carrier: CARRIERS[r.carrier].name,
    attack: r.attack,
    clause: r.clause,
    citation: citationOf(r),
    what: r.what,
    status: ex?.status ?? null,
    error: ex?.answer.error?.slice(0, 80) ?? null,
    outcome,
    ...(note ? { note } : {}),
  };
  info.annotations.push({ type: 'attack', description: JSON.stringify(seen) });
}
