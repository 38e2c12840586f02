// One root cause, one failure — and the report shows it first. A failed clause that other
// clauses name in their skip reasons or their evidence ("see auth.api.post-json", "the accepted
// case failed (auth.flow.password: …)") is a root cause: it leads the failing list, with the
// clauses that depend on it counted beside it.
import type { ClauseResult } from './model.ts';

export interface RootCause {
  clause: ClauseResult;
  /** Ids of the other clauses whose reason or failure names it. */
  dependants: string[];
}

/** The failed clauses, root causes first (most dependants first), the rest in catalogue order. */
export function byRootCause(all: readonly ClauseResult[], failed: readonly ClauseResult[]): RootCause[] {
  const texts = all.map((c) => ({
    id: c.id,
    text: [c.reason ?? '', ...c.failures.map((f) => f.message)].join('\n'),
  }));
  const named = (id: string): string[] => {
    const re = new RegExp(`(?:see |\\()${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w.-])`);
    return texts.filter((t) => t.id !== id && re.test(t.text)).map((t) => t.id);
  };
  const causes = failed.map((clause, i) => ({ clause, dependants: named(clause.id), i }));
  causes.sort((a, b) => b.dependants.length - a.dependants.length || a.i - b.i);
  return causes.map(({ clause, dependants }) => ({ clause, dependants }));
}

/** "root cause of 3 other clauses (a, b, c)", or '' when none names it. */
export function rootCauseNote(c: RootCause): string {
  if (c.dependants.length === 0) return '';
  return `root cause of ${c.dependants.length} other clause${c.dependants.length === 1 ? '' : 's'} (${c.dependants.join(', ')})`;
}
