// Typed access to the clause catalogue (contract/clauses.json) and to the spec
// text each clause quotes (contract/spec.md). A stale id fails loudly: clause()
// throws, so a renamed clause cannot silently drop out of a report.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { catalogueEntryProblem, type ClauseKind, type Severity } from './grammar.ts';

export { CLAUSE_ID_PATTERN, CLAUSE_KINDS, type ClauseKind, type Severity } from './grammar.ts';

export interface Clause {
  /** `<area>.<subject>.<rule>`, lowercase, dotted. */
  id: string;
  /** Spec heading number: "2.2", "7.1", "8". */
  section: string;
  /** One line, close to the spec's own words. */
  text: string;
  kind: ClauseKind;
  severity: Severity;
  /** Why a clause is observed or not exercisable; null for `must`. */
  reason: string | null;
  /** Other sections that state the same rule (e.g. §8 repeats the §2 limits). */
  restated_in?: string[];
  /**
   * Set when the rule comes from a standard the spec names rather than from the spec's own
   * words: "RFC 6749 §2.3.1", "OIDC Core §5.3.2". Reports show these clauses apart.
   */
  source?: string;
}

const here = fileURLToPath(new URL('.', import.meta.url));
export const CATALOGUE_PATH = here + 'clauses.json';
export const SPEC_PATH = here + 'spec.md';

let cache: { list: Clause[]; byId: Map<string, Clause> } | undefined;

function load(): { list: Clause[]; byId: Map<string, Clause> } {
  if (cache) return cache;
  const list = JSON.parse(readFileSync(CATALOGUE_PATH, 'utf8')) as Clause[];
  const byId = new Map<string, Clause>();
  for (const c of list) {
    const problem = catalogueEntryProblem(c, { strict: true });
    if (problem) throw new Error(`contract/clauses.json: ${c.id ?? '(no id)'}: ${problem}`);
    if (byId.has(c.id)) throw new Error(`contract/clauses.json: duplicate id ${c.id}`);
    byId.set(c.id, c);
  }
  cache = { list, byId };
  return cache;
}

/** The catalogue entry for `id`; throws on an unknown (stale or misspelt) id. */
export function clause(id: string): Clause {
  const c = load().byId.get(id);
  if (!c) throw new Error(`unknown clause id "${id}" (not in contract/clauses.json)`);
  return c;
}

export function hasClause(id: string): boolean {
  return load().byId.has(id);
}

/** All clauses, in catalogue (spec) order. */
export function allClauses(): readonly Clause[] {
  return load().list;
}

/** Every section number the spec has a heading for, in document order. */
export function specSections(): string[] {
  return headings().map((h) => h.section);
}

/** Link target into contract/spec.md for a section: `spec.md#22-request-body-…` (GitHub heading anchors). */
export function specAnchor(section: string): string {
  return `spec.md#${headingOf(section).anchor}`;
}

/** The heading line's title for a section, e.g. "2.2 Request body of the update operation (…)". */
export function specHeading(section: string): string {
  return headingOf(section).title;
}

/**
 * The spec text of a section: its heading and body up to the next heading of
 * the same or a higher level (so "2" includes 2.1–2.4, "2.3" only 2.3).
 * With `ownOnly`, it stops at the first sub-heading too ("4" → the headers paragraph).
 */
export function specText(section: string, opts: { ownOnly?: boolean } = {}): string {
  const lines = specLines();
  const h = headingOf(section);
  let end = lines.length;
  for (let i = h.line + 1; i < lines.length; i++) {
    const m = /^(#+)\s/.exec(lines[i] ?? '');
    if (m && (opts.ownOnly || (m[1]?.length ?? 0) <= h.level)) {
      end = i;
      break;
    }
  }
  return lines.slice(h.line, end).join('\n').trim();
}

/** GitHub's heading-anchor rule: lowercase, drop punctuation but `-`/`_`, spaces → `-`. */
export function githubAnchor(title: string): string {
  return title
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

// Helpers

interface Heading {
  section: string;
  title: string;
  anchor: string;
  level: number;
  line: number;
}

let headingCache: Heading[] | undefined;
let linesCache: string[] | undefined;

function specLines(): string[] {
  linesCache ??= readFileSync(SPEC_PATH, 'utf8').split('\n');
  return linesCache;
}

function headings(): Heading[] {
  if (headingCache) return headingCache;
  headingCache = [];
  specLines().forEach((text, line) => {
    const m = /^(#{2,6})\s+((\d+(?:\.\d+)*)\.?\s+.*)$/.exec(text);
    if (m?.[1] && m[2] && m[3]) {
      headingCache!.push({ section: m[3], title: m[2].trim(), anchor: githubAnchor(m[2]), level: m[1].length, line });
    }
  });
  return headingCache;
}

function headingOf(section: string): Heading {
  const h = headings().find((x) => x.section === section);
  if (!h) throw new Error(`contract/spec.md has no section "${section}"`);
  return h;
}
