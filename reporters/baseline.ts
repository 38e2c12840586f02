// Known-deviation baseline (baseline/known-deviations.json): clauses a team knows its
// tenant breaks. Listed failures become `expected-failure`; a listed clause that passes,
// cannot fail, or is not in the catalogue is stale and fails the run (exit 2).
import { readFileSync } from 'node:fs';
import { CLAUSE_ID_EXAMPLE, isClauseId } from '../contract/grammar.ts';
import type { BaselineEntry, CatalogueEntry, ClauseResult } from './model.ts';

export const BASELINE_ERROR = 'IDM_E_BASELINE_INVALID';
export const BASELINE_STALE = 'IDM_E_BASELINE_STALE';

export class BaselineError extends Error {
  constructor(
    readonly code: typeof BASELINE_ERROR | typeof BASELINE_STALE,
    message: string,
  ) {
    super(message);
  }
  /** The suite's one-line error format. */
  line(): string {
    return `idm-conformance: ${this.code}: ${this.message}`;
  }
}

const FIELDS = new Set(['clause', 'reason', 'link', 'target']);

/** Validates a parsed baseline document; throws BaselineError naming the first fault. */
export function parseBaseline(doc: unknown, source = 'baseline'): BaselineEntry[] {
  const fail = (msg: string): never => {
    throw new BaselineError(BASELINE_ERROR, `${source}: ${msg}`);
  };
  if (!Array.isArray(doc)) fail('must be a JSON array of { clause, reason, link?, target? }');
  const entries: BaselineEntry[] = [];
  const seen = new Set<string>();
  (doc as unknown[]).forEach((raw, i) => {
    const at = `entry ${i}`;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) fail(`${at} must be an object`);
    const e = raw as Record<string, unknown>;
    for (const k of Object.keys(e))
      if (!FIELDS.has(k)) fail(`${at} has unknown field "${k}" (allowed: clause, reason, link, target)`);
    if (!isClauseId(e.clause)) fail(`${at}: "clause" must be a clause id like ${CLAUSE_ID_EXAMPLE}`);
    if (typeof e.reason !== 'string' || e.reason.trim() === '')
      fail(`${at} (${e.clause}): "reason" must be a non-empty string`);
    if (e.link !== undefined && (typeof e.link !== 'string' || !isUrl(e.link)))
      fail(`${at} (${e.clause}): "link" must be an absolute URL`);
    if (e.target !== undefined && (typeof e.target !== 'string' || !isUrl(e.target)))
      fail(`${at} (${e.clause}): "target" must be the target's base URL`);
    const key = `${e.clause}@${e.target ?? '*'}`;
    if (seen.has(key)) fail(`${at}: clause ${e.clause} is listed twice${e.target ? ` for ${e.target}` : ''}`);
    seen.add(key);
    const entry: BaselineEntry = { clause: e.clause as string, reason: e.reason as string };
    if (e.link !== undefined) entry.link = e.link as string;
    if (e.target !== undefined) entry.target = e.target as string;
    entries.push(entry);
  });
  return entries;
}

export function loadBaseline(path: string): BaselineEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new BaselineError(BASELINE_ERROR, `${path}: cannot read (${(err as Error).message})`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new BaselineError(BASELINE_ERROR, `${path}: not valid JSON (${(err as Error).message})`);
  }
  return parseBaseline(doc, path);
}

/** Entries that apply to a run against `target` (entries without target apply everywhere). */
function entriesFor(entries: readonly BaselineEntry[], target: string | null): BaselineEntry[] {
  const t = target ? normaliseTarget(target) : null;
  // a target-specific entry wins over a general one for the same clause
  const scoped = entries.filter((e) => e.target !== undefined && t !== null && normaliseTarget(e.target) === t);
  const general = entries.filter((e) => e.target === undefined && !scoped.some((s) => s.clause === e.clause));
  return [...scoped, ...general];
}

export interface BaselineOutcome {
  clauses: ClauseResult[];
  applied: string[];
  /** One line per stale entry. */
  stale: string[];
}

/**
 * Turns listed failures into expected failures and finds stale entries. A listed clause
 * that was not exercised in this run (skipped) is neither applied nor stale.
 */
export function applyBaseline(
  clauses: readonly ClauseResult[],
  catalogue: readonly CatalogueEntry[],
  entries: readonly BaselineEntry[],
  target: string | null,
): BaselineOutcome {
  const byId = new Map(clauses.map((c) => [c.id, c]));
  const inCatalogue = new Set(catalogue.map((c) => c.id));
  const applied: string[] = [];
  const stale: string[] = [];
  const replaced = new Map<string, ClauseResult>();
  for (const entry of entriesFor(entries, target)) {
    const c = byId.get(entry.clause);
    if (!inCatalogue.has(entry.clause) || !c) {
      stale.push(`${entry.clause}: listed in the baseline but not in the clause catalogue`);
    } else if (c.kind !== 'must') {
      stale.push(`${entry.clause}: listed in the baseline but its kind is ${c.kind}, it can never fail`);
    } else if (c.status === 'passed') {
      stale.push(`${entry.clause}: listed in the baseline but passed in this run (remove the entry)`);
    } else if (c.status === 'failed') {
      applied.push(entry.clause);
      replaced.set(c.id, { ...c, status: 'expected-failure', reason: entry.reason, baseline: entry });
    } else {
      // skipped or observed: nothing to compare against in this run; keep the note visible
      replaced.set(c.id, { ...c, baseline: entry });
    }
  }
  return { clauses: clauses.map((c) => replaced.get(c.id) ?? c), applied, stale };
}

// Helpers

function isUrl(s: string): boolean {
  try {
    return Boolean(new URL(s).protocol);
  } catch {
    return false;
  }
}

function normaliseTarget(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}`.toLowerCase();
  } catch {
    return url.trim().replace(/\/+$/, '').toLowerCase();
  }
}
