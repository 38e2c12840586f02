// The runtime's view of the clause catalogue, through contract/clauses.ts: kind and
// severity of a clause, the spec link of its section.
import { clause, hasClause, specAnchor, type Clause } from '../contract/clauses.ts';

export type ClauseEntry = Clause;

export function clauseEntry(id: string): ClauseEntry | undefined {
  return hasClause(id) ? clause(id) : undefined;
}

/** Throws for an id the catalogue does not hold: a typo would otherwise report nothing. */
export { clause as assertKnownClause } from '../contract/clauses.ts';

const SEVERITY_ORDER = ['blocker', 'critical', 'major', 'normal', 'minor', 'trivial'];

/** The most severe of the clauses' severities, in Allure's vocabulary. */
export function highestSeverity(ids: string[]): string {
  let best = 'normal';
  for (const id of ids) {
    const s = clauseEntry(id)?.severity;
    if (s && SEVERITY_ORDER.indexOf(s) < SEVERITY_ORDER.indexOf(best)) best = s;
  }
  return best;
}

/** Link into the repository's copy of the spec for a section. */
export function sectionLink(section: string): string {
  try {
    return `contract/${specAnchor(section)}`;
  } catch {
    return 'contract/spec.md';
  }
}
