// Must clauses the run did not exercise, told apart by whose reason it was, from the skip
// records alone (lib/skip-record.ts; their text is never read). The tenant's: a flow it does not
// offer, a page it showed, no rate limit at all, or a clause it failed that this one depends on
// (the record names it: cause.clause). Everything else is the run's own: no Chromium, a login
// page the walk could not drive, a setting unset, an opt-in not given, a subset run. Those make
// the verdict INCOMPLETE: a gate must not pass because a regression made its own check skip.
import type { ClauseResult, SkipRecord } from './model.ts';

export interface Unexercised {
  clause: string;
  section: string;
  /** The records' texts, for people. */
  reason: string;
  skips: SkipRecord[];
}

/** The must clauses skipped for a reason of the run, in catalogue order. */
export function unexercisedByRun(clauses: readonly ClauseResult[]): Unexercised[] {
  const byId = new Map(clauses.map((c) => [c.id, c]));
  const tenants = new Map<string, boolean>();
  const tenantCaused = (c: ClauseResult, seen: Set<string>): boolean => {
    const known = tenants.get(c.id);
    if (known !== undefined) return known;
    if (seen.has(c.id)) return false;
    seen.add(c.id);
    const skips = c.skips ?? [];
    const theTenants = (r: SkipRecord): boolean => {
      if (r.by !== 'tenant') return false;
      const id = r.cause.clause;
      if (id === undefined) return true;
      // A named cause is the tenant's when the tenant failed it, or it was skipped for the tenant's reason.
      const named = byId.get(id);
      if (!named || named.id === c.id) return false;
      if (named.status === 'failed' || named.status === 'expected-failure') return true;
      return named.status === 'skipped' && tenantCaused(named, seen);
    };
    const yes = skips.length > 0 && skips.every(theTenants);
    tenants.set(c.id, yes);
    return yes;
  };
  return clauses
    .filter((c) => c.kind === 'must' && c.status === 'skipped' && !tenantCaused(c, new Set()))
    .map((c) => ({ clause: c.id, section: c.section, reason: c.reason ?? 'no reason given', skips: c.skips ?? [] }));
}

/** The clauses a clause's skip records name as their cause. */
export function causeClauses(c: Pick<ClauseResult, 'skips'>): string[] {
  return [...new Set((c.skips ?? []).flatMap((r) => (r.cause.clause === undefined ? [] : [r.cause.clause])))];
}

/**
 * Skipped clauses whose record names as its cause a clause that passed (or was only observed)
 * in the same run: a suite bug, the skip blames what held.
 */
export function causesThatHeld(clauses: readonly ClauseResult[]): string[] {
  const status = new Map(clauses.map((c) => [c.id, c.status]));
  return clauses
    .filter((c) => c.status === 'skipped')
    .flatMap((c) =>
      causeClauses(c)
        .filter((id) => status.get(id) === 'passed' || status.get(id) === 'observed')
        .map((id) => `${c.id} is skipped naming ${id} as its cause, yet ${id} ${status.get(id)}`),
    );
}

/** The run's reasons, most frequent first, each with how many clauses it left unexercised (grouped by text, for people). */
export function reasonsByCount(list: readonly Unexercised[]): Array<{ reason: string; clauses: string[] }> {
  const by = new Map<string, string[]>();
  for (const u of list) by.set(u.reason, [...(by.get(u.reason) ?? []), u.clause]);
  return [...by].map(([reason, ids]) => ({ reason, clauses: ids })).sort((a, b) => b.clauses.length - a.clauses.length);
}
