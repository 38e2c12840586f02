// One root cause, one failure — and the report shows it first. A failed clause that other
// clauses' skip records name as their cause (lib/skip-record.ts, `cause.clause`: the accepted
// case a refusal could not be judged without, the flow whose products it judges) is a root
// cause: it leads the failing list, its dependants counted beside it. No text is read.
import type { ClauseResult } from './model.ts';
import { causeClauses } from './incomplete.ts';

export interface RootCause {
  clause: ClauseResult;
  /** Ids of the other clauses whose skip records name it. */
  dependants: string[];
}

/** The failed clauses, root causes first (most dependants first), the rest in catalogue order. */
export function byRootCause(all: readonly ClauseResult[], failed: readonly ClauseResult[]): RootCause[] {
  const named = (id: string): string[] =>
    all.filter((c) => c.id !== id && causeClauses(c).includes(id)).map((c) => c.id);
  const causes = failed.map((clause, i) => ({ clause, dependants: named(clause.id), i }));
  causes.sort((a, b) => b.dependants.length - a.dependants.length || a.i - b.i);
  return causes.map(({ clause, dependants }) => ({ clause, dependants }));
}

/** "root cause of 3 other clauses (a, b, c)", or '' when none names it. */
export function rootCauseNote(c: RootCause): string {
  if (c.dependants.length === 0) return '';
  return `root cause of ${c.dependants.length} other clause${c.dependants.length === 1 ? '' : 's'} (${c.dependants.join(', ')})`;
}
