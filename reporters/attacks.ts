// The attack section: every attack of the catalogue the run sent (lib/auth/attacks/), with the
// carrier, the clause and the standard it cites, the answer (status, error code) and what it
// came to — the page a security reviewer asks for. The tests record each as an `attack`
// annotation; this reads them back and orders them. Pure: no Playwright, no file system.
import type { AttackResult, TestOutcome } from './model.ts';

const OUTCOMES = new Set(['refused', 'accepted', 'wrong refusal', 'fault', 'not judged', 'not made']);

export function parseAttack(description: string): AttackResult | null {
  try {
    const r = JSON.parse(description) as Partial<AttackResult>;
    const text = (v: unknown): v is string => typeof v === 'string';
    if (![r.row, r.carrier, r.attack, r.clause, r.citation, r.what].every(text)) return null;
    if (!text(r.outcome) || !OUTCOMES.has(r.outcome)) return null;
    return {
      row: r.row as string,
      carrier: r.carrier as string,
      attack: r.attack as string,
      clause: r.clause as string,
      citation: r.citation as string,
      what: r.what as string,
      status: typeof r.status === 'number' ? r.status : null,
      error: text(r.error) ? r.error : null,
      outcome: r.outcome as AttackResult['outcome'],
      ...(text(r.note) && r.note !== '' ? { note: r.note } : {}),
    };
  } catch {
    return null;
  }
}

/** Every attack the run sent, by carrier then row, each with the test that sent it. */
export function attacksOf(tests: readonly TestOutcome[]): AttackResult[] {
  const all = tests.flatMap((t) => (t.attacks ?? []).map((a) => ({ ...a, test: `${t.file} › ${t.title}` })));
  return all.sort((a, b) => a.carrier.localeCompare(b.carrier) || a.row.localeCompare(b.row));
}

/** Counts by outcome, for the section's heading and the summary. */
export function attackCounts(attacks: readonly AttackResult[]): Record<AttackResult['outcome'], number> {
  const counts = Object.fromEntries([...OUTCOMES].map((o) => [o, 0])) as Record<AttackResult['outcome'], number>;
  for (const a of attacks) counts[a.outcome]++;
  return counts;
}
