// Read access to the clause catalogue (contract/clauses.json) for the runtime: kind and
// severity of a clause, its spec section. Read once, tolerant of a missing file so the
// runtime's own units can load without the contract.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export interface ClauseEntry {
  id: string;
  section: string;
  text: string;
  kind: 'must' | 'observe' | 'not-exercisable';
  severity: 'critical' | 'major' | 'minor' | string;
  reason: string | null;
}

const CATALOGUE_PATH = join(dirname(fileURLToPath(import.meta.url)), '..', 'contract', 'clauses.json');
let cache: Map<string, ClauseEntry> | null = null;

export function catalogue(): Map<string, ClauseEntry> {
  if (cache) return cache;
  cache = new Map();
  if (existsSync(CATALOGUE_PATH)) {
    for (const c of JSON.parse(readFileSync(CATALOGUE_PATH, 'utf8')) as ClauseEntry[]) cache.set(c.id, c);
  }
  return cache;
}

export function clauseEntry(id: string): ClauseEntry | undefined {
  return catalogue().get(id);
}

/** Throws for an id the catalogue does not hold: a typo would otherwise report nothing. */
export function assertKnownClause(id: string): ClauseEntry | undefined {
  const all = catalogue();
  if (all.size === 0) return undefined;
  const c = all.get(id);
  if (!c) throw new Error(`unknown clause id "${id}" (not in contract/clauses.json)`);
  return c;
}

const SEVERITY_ORDER = ['blocker', 'critical', 'major', 'normal', 'minor', 'trivial'];

/** The most severe of the clauses' severities, in Allure's vocabulary. */
export function highestSeverity(ids: string[]): string {
  let best = 'normal';
  for (const id of ids) {
    const s = clauseEntry(id)?.severity;
    if (s && SEVERITY_ORDER.indexOf(s) !== -1 && SEVERITY_ORDER.indexOf(s) < SEVERITY_ORDER.indexOf(best)) best = s;
  }
  return best;
}

/** The spec section's anchor in contract/spec.md (GitHub-style heading slug). */
export function sectionLink(section: string): string {
  const spec = join(dirname(CATALOGUE_PATH), 'spec.md');
  if (!existsSync(spec)) return `contract/spec.md`;
  const heading = readFileSync(spec, 'utf8')
    .split('\n')
    .find((l) => new RegExp(`^#{2,4} ${section.replace(/\./g, '\\.')}\\.? `).test(l));
  if (!heading) return 'contract/spec.md';
  const slug = heading
    .replace(/^#+\s*/, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
  return `contract/spec.md#${slug}`;
}
