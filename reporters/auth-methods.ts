// The report's view of §5.2 and of clauses taken from standards: one entry per way to
// authenticate — judged, or why not, read from its clauses' skip records (a setting unset, the
// flow declared not offered, or any other cause, e.g. not run in this selection) — and the
// standard-derived clauses listed apart from the spec's own.
import type { ClauseResult } from './model.ts';
import { AUTH_METHODS } from '../lib/auth/methods.ts';

/** Judged; or not, for want of a setting, declared not offered, or for another cause its records name. */
export type MethodState = 'judged' | 'not-configured' | 'not-offered' | 'not-judged';

export interface MethodView {
  name: string;
  state: MethodState;
  clauses: ClauseResult[];
  /** Why nothing was judged (the records' text), when nothing was. */
  reason?: string;
}

const RAN = new Set(['passed', 'failed', 'expected-failure', 'observed']);
/** The setting that declares a flow away (lib/config.ts notOfferedSkip): the tenant's, not a gap of the configuration. */
const DECLARED_AWAY = 'IDM_NOT_OFFERED';

export function methodViews(clauses: readonly ClauseResult[]): MethodView[] {
  return AUTH_METHODS.map(({ name, clause: prefix }) => {
    const own = clauses.filter((c) => c.id === prefix || c.id.startsWith(`${prefix}.`));
    if (own.some((c) => RAN.has(c.status))) return { name, state: 'judged', clauses: own };
    const skips = own.flatMap((c) => c.skips ?? []);
    const offered = skips.find((s) => s.cause.setting === DECLARED_AWAY);
    const unset = skips.find((s) => s.cause.setting !== undefined && s.cause.setting !== DECLARED_AWAY);
    const cause = unset ?? offered ?? skips[0];
    const state: MethodState = unset ? 'not-configured' : offered ? 'not-offered' : 'not-judged';
    return { name, state, clauses: own, ...(cause ? { reason: cause.text } : {}) };
  });
}

/** A method's state in a few words: "not configured", "not offered", or the cause its records give. */
export function methodWords(v: MethodView): string {
  if (v.state === 'not-configured') return 'not configured';
  if (v.state === 'not-offered') return 'not offered';
  return v.state === 'judged' ? 'judged' : `not judged (${v.reason ?? 'no record'})`;
}

export function standardDerived(clauses: readonly ClauseResult[]): ClauseResult[] {
  return clauses.filter((c) => c.source !== undefined);
}
