// The clause catalogue's grammar, written once: the id pattern, the kinds and
// severities, and the check of one entry. The contract loader (clauses.ts), the
// reporter (its catalogue, baseline and tag parsing), lib/declare.ts and the
// self-tests all import it, so no copy can drift narrower than the catalogue.

export const CLAUSE_KINDS = ['must', 'observe', 'not-exercisable'] as const;
export type ClauseKind = (typeof CLAUSE_KINDS)[number];

export const SEVERITIES = ['critical', 'major', 'minor'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** `<area>.<subject>.<rule>`: lowercase, dotted, digits, `-` and `_` (field names keep theirs). */
const ID_SOURCE = '[a-z][a-z0-9_-]*(?:\\.[a-z0-9_][a-z0-9_-]*)+';
export const CLAUSE_ID_PATTERN = new RegExp(`^${ID_SOURCE}$`);
/** A Playwright tag naming a clause: `@<id>`; group 1 is the id. */
export const CLAUSE_TAG_PATTERN = new RegExp(`^@(${ID_SOURCE})$`);
export const CLAUSE_ID_EXAMPLE = 'rs.update.token_lifetime.range';

export function isClauseId(s: unknown): s is string {
  return typeof s === 'string' && CLAUSE_ID_PATTERN.test(s);
}

/** A standard and a section: an RFC or an OpenID Connect document, then §n(.n)*. */
const CLAUSE_SOURCE_PATTERN =
  /^(RFC \d{3,5}|OIDC (Core|Discovery|RP-Initiated Logout|Front-Channel Logout)) §\d+(\.\d+)*$/;

function isClauseKind(s: unknown): s is ClauseKind {
  return (CLAUSE_KINDS as readonly unknown[]).includes(s);
}

/**
 * What is wrong with one catalogue entry, or null. `strict` (the project catalogue)
 * also requires a severity and the reason rule (null for `must`, said for the others);
 * without it (a reporter fixture, an old run's catalogue) id, section, text and kind suffice.
 */
export function catalogueEntryProblem(raw: unknown, opts: { strict?: boolean } = {}): string | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'is not an object';
  const c = raw as Record<string, unknown>;
  if (!isClauseId(c.id))
    return `id ${JSON.stringify(c.id)} does not match <area>.<subject>.<rule> (e.g. ${CLAUSE_ID_EXAMPLE})`;
  if (typeof c.section !== 'string' || c.section.length === 0) return 'section is empty';
  if (typeof c.text !== 'string' || c.text.length === 0) return 'text is empty';
  if (!isClauseKind(c.kind)) return `kind "${String(c.kind)}" is not one of ${CLAUSE_KINDS.join(', ')}`;
  if (c.source !== undefined && (typeof c.source !== 'string' || !CLAUSE_SOURCE_PATTERN.test(c.source))) {
    return `source "${String(c.source)}" is not a standard and section such as "RFC 6749 §2.3.1" or "OIDC Core §5.3.2"`;
  }
  if (!opts.strict) return null;
  if (!(SEVERITIES as readonly unknown[]).includes(c.severity))
    return `severity "${String(c.severity)}" is not one of ${SEVERITIES.join(', ')}`;
  if (c.kind === 'must' && c.reason !== null) return 'a must clause has reason null';
  if (c.kind !== 'must' && (typeof c.reason !== 'string' || c.reason.length === 0))
    return `a ${c.kind} clause needs a reason`;
  return null;
}
