// What each attack got, for the report's attack section (reporters/attacks.ts): the row, the
// answer's status and error code, and whether the tenant let the credential in. Recorded as an
// `attack` annotation by the test that sent it; never the credential itself.
import type { TestInfo } from '@playwright/test';
import type { Exchange } from '../../http.ts';
import { isObject } from '../../values.ts';
import { CARRIERS, citationOf, type AttackRow } from './catalogue.ts';

/** refused: a refusal as the carrier must give it; accepted: let in; the rest: not judged. */
export type AttackOutcome = 'refused' | 'accepted' | 'wrong refusal' | 'fault' | 'not judged' | 'not made';

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

export function recordAttack(
  info: TestInfo,
  r: AttackRow,
  ex: Exchange | null,
  outcome: AttackOutcome,
  note = '',
): void {
  const seen: AttackSeen = {
    row: r.id,
    carrier: CARRIERS[r.carrier].name,
    attack: r.attack,
    clause: r.clause,
    citation: citationOf(r),
    what: r.what,
    status: ex?.status ?? null,
    error: ex && isObject(ex.body) && typeof ex.body.error === 'string' ? ex.body.error.slice(0, 80) : null,
    outcome,
    ...(note ? { note } : {}),
  };
  info.annotations.push({ type: 'attack', description: JSON.stringify(seen) });
}
