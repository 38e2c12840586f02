// The same verdict, clause by clause (issues 30 and 31): a variant that changes only how the
// tenant answers — a server's page shapes, an answer that stalls once, a slow tenant — must
// leave every clause where the reference tenant's run of the same selection left it. A clause
// is where it is by its status and, when skipped, by whose its skips are (the tenant's or the
// run's: that decides INCOMPLETE). Texts are for people and never compared.
import type { ClauseResult, ClauseStatus, ConformanceReport } from '../reporters/model.ts';

/** A clause a variant may leave elsewhere than the default, with the reason the variant states. */
export type ExpectedDifference = { status: ClauseStatus; why: string };

export interface VerdictDifference {
  clause: string;
  /** Where the reference tenant's run left it (`absent` when that run had no such clause). */
  default: string;
  here: string;
}

/** Where a run left a clause: its status, and for a skip whose it is. */
function placeOf(c: ClauseResult | undefined): string {
  if (!c) return 'absent';
  if (c.status !== 'skipped') return c.status;
  const by = [...new Set((c.skips ?? []).map((s) => s.by))].sort();
  return by.length ? `skipped by ${by.join('+')}` : 'skipped';
}

export function verdictDifferences(
  control: ConformanceReport,
  here: ConformanceReport,
  expected: Readonly<Record<string, ExpectedDifference>> = {},
): VerdictDifference[] {
  const before = new Map(control.clauses.map((c) => [c.id, c]));
  const after = new Map(here.clauses.map((c) => [c.id, c]));
  const out: VerdictDifference[] = [];
  for (const id of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const d = placeOf(before.get(id));
    const h = placeOf(after.get(id));
    const want = expected[id];
    if (want ? after.get(id)?.status === want.status : d === h) continue;
    out.push({ clause: id, default: d, here: h });
  }
  if (control.gate.exitCode !== here.gate.exitCode)
    out.push({ clause: '(gate exit code)', default: String(control.gate.exitCode), here: String(here.gate.exitCode) });
  return out;
}
