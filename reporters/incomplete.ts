// Must clauses the run did not exercise, told apart by whose reason it was. The tenant's:
// a named flow it does not offer (IDM_NOT_OFFERED), something it legitimately does not do
// ("not applicable: …", e.g. no consent page to decline), or a clause it failed that this one
// depends on (the reason names it: "(<id>: …)", "see <id>", "<id> says why"). Everything
// else is the run's own: no Chromium, a login page the walk could not drive, a setting unset, an
// opt-in not given, a subset run. Those make the verdict INCOMPLETE: a gate must not pass
// because a regression made its own check skip.
import type { ClauseResult } from './model.ts';
import { REASON_SEPARATOR } from './aggregate.ts';

export interface Unexercised {
  clause: string;
  section: string;
  reason: string;
}

/** A reason the tenant gave on purpose or legitimately (not a gap of the run). */
const TENANT_REASON = /^(not offered \(|not applicable: )/;

/** The must clauses skipped for a reason of the run, in catalogue order. */
export function unexercisedByRun(clauses: readonly ClauseResult[]): Unexercised[] {
  const byId = new Map(clauses.map((c) => [c.id, c]));
  const tenants = new Map<string, boolean>();
  const tenantCaused = (c: ClauseResult, seen: Set<string>): boolean => {
    const known = tenants.get(c.id);
    if (known !== undefined) return known;
    if (seen.has(c.id)) return false;
    seen.add(c.id);
    const parts = (c.reason ?? '').split(REASON_SEPARATOR).filter((p) => p.trim() !== '');
    const yes =
      parts.length > 0 &&
      parts.every((part) => {
        if (TENANT_REASON.test(part)) return true;
        return namedClauses(part).some((id) => {
          const named = byId.get(id);
          if (!named || named.id === c.id) return false;
          if (named.status === 'failed' || named.status === 'expected-failure') return true;
          return named.status === 'skipped' && tenantCaused(named, seen);
        });
      });
    tenants.set(c.id, yes);
    return yes;
  };
  return clauses
    .filter((c) => c.kind === 'must' && c.status === 'skipped' && !tenantCaused(c, new Set()))
    .map((c) => ({ clause: c.id, section: c.section, reason: c.reason ?? 'no reason given' }));
}

/**
 * The clause ids a reason names as its cause: "(<id>: …)", "see <id>", "<id> says why" —
 * the forms reporters/root-causes.ts links root causes by.
 */
export function namedClauses(reason: string): string[] {
  const id = '[a-z0-9][a-z0-9_-]*(?:\\.[a-z0-9_-]+)+';
  const out = new Set<string>();
  for (const re of [
    new RegExp(`\\((${id}):`, 'g'),
    new RegExp(`see (${id})(?![\\w.-])`, 'g'),
    new RegExp(`(${id}) says why`, 'g'),
  ])
    for (const m of reason.matchAll(re)) if (m[1]) out.add(m[1]);
  return [...out];
}

/** The run's reasons, most frequent first, each with how many clauses it left unexercised. */
export function reasonsByCount(list: readonly Unexercised[]): Array<{ reason: string; clauses: string[] }> {
  const by = new Map<string, string[]>();
  for (const u of list) by.set(u.reason, [...(by.get(u.reason) ?? []), u.clause]);
  return [...by].map(([reason, ids]) => ({ reason, clauses: ids })).sort((a, b) => b.clauses.length - a.clauses.length);
}
