// The report's view of §5.2 and of clauses taken from standards: one entry per way to
// authenticate (configured = a clause of it was exercised, else the skip reason names the
// setting), and the standard-derived clauses listed apart from the spec's own.
import type { ClauseResult } from './model.ts';
import { AUTH_METHODS } from '../lib/auth/methods.ts';

export interface MethodView {
  name: string;
  configured: boolean;
  clauses: ClauseResult[];
  /** Why nothing ran (the setting that enables it), when not configured. */
  reason?: string;
}

const RAN = new Set(['passed', 'failed', 'expected-failure', 'observed']);

export function methodViews(clauses: readonly ClauseResult[]): MethodView[] {
  return AUTH_METHODS.map(({ name, clause: prefix }) => {
    const own = clauses.filter((c) => c.id === prefix || c.id.startsWith(`${prefix}.`));
    const configured = own.some((c) => RAN.has(c.status));
    const reason = configured ? undefined : own.find((c) => c.reason)?.reason;
    return { name, configured, clauses: own, ...(reason ? { reason } : {}) };
  });
}

export function standardDerived(clauses: readonly ClauseResult[]): ClauseResult[] {
  return clauses.filter((c) => c.source !== undefined);
}
