// One root cause, one failure — and the report shows it first. A failed clause that other
// clauses name as the reason they were skipped ("not exercised: the accepted case failed
// (auth.flow.password: …)", "see auth.api.post-json", "… says why": reporters/incomplete.ts) or as the accepted case a failure could not
// run without is a root cause: it leads the failing list, its dependants counted beside it.
import type { ClauseResult } from './model.ts';
import { namedClauses } from './incomplete.ts';

export interface RootCause {
  clause: ClauseResult;
  /** Ids of the other clauses whose reason or failure names it. */
  dependants: string[];
}

/** The failed clauses, root causes first (most dependants first), the rest in catalogue order. */
export function byRootCause(all: readonly ClauseResult[], failed: readonly ClauseResult[]): RootCause[] {
  // A skip reason names its cause ("(<id>: …)", "see <id>"); a failure names one only as the
  // accepted case it could not run without ("(<id>: …)"), never by an evidence note ("see <id>").
  const esc = (id: string): string => id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const named = (id: string): string[] => {
    const inFailure = new RegExp(`\\(${esc(id)}:`);
    return all
      .filter(
        (c) =>
          c.id !== id &&
          (namedClauses(c.reason ?? '').includes(id) || c.failures.some((f) => inFailure.test(f.message))),
      )
      .map((c) => c.id);
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
