// The one definition of why a clause was not judged: the record a skip leaves behind (the
// `skip` annotation of test.skip and the `clause-skip` annotation, lib/declare.ts), which the
// reporter reads as data: whose reason it is and what caused it. Its text is for people only;
// INCOMPLETE, the root causes and the counts never read it (docs/ARCHITECTURE.md).

/** How the tenant answered the exchange a clause needed. */
export type AnswerClass = 'accepted' | 'refused' | 'not-offered' | 'fault' | 'no-answer';

export interface SkipCause {
  /** A clause this one could not be judged without, which failed or was itself skipped. */
  clause?: string;
  /** The setting that would let the run judge it, or that declared it away (IDM_NOT_OFFERED). */
  setting?: string;
  /** A page the tenant showed, or the page the login walk could not drive (its URL or path). */
  page?: string;
  /** How the tenant answered the exchange the clause needed. */
  answer?: AnswerClass;
}

export interface SkipRecord {
  /**
   * 'tenant': the tenant's own behaviour (a flow it does not offer, a page it showed, no rate
   * limit, a clause it failed); 'run': a gap of the run (a setting unset, no Chromium, an opt-in
   * not given), which leaves a must clause unexercised and the verdict INCOMPLETE.
   */
  by: 'tenant' | 'run';
  cause: SkipCause;
  text: string;
}

/** A skip for the tenant's own behaviour. */
export function tenantSkip(cause: SkipCause, text: string): SkipRecord {
  return { by: 'tenant', cause, text };
}

/** A skip for a gap of the run. */
export function runSkip(cause: SkipCause, text: string): SkipRecord {
  return { by: 'run', cause, text };
}

/** A skip that names the clause it could not be judged without (whose it is follows that clause's status). */
export function clauseSkip(clause: string, text: string): SkipRecord {
  return { by: 'tenant', cause: { clause }, text };
}

/**
 * A clause whose exchange the tenant answered with a fault (a 5xx): the fault clause of its API
 * fails once on that answer, and this names it, so the skip is the tenant's while it fails.
 */
export function faultSkip(faultClause: string, what: string, status: number): SkipRecord {
  return tenantSkip(
    { clause: faultClause, answer: 'fault' },
    `not judged: ${what} answered ${status}, a service fault (${faultClause})`,
  );
}

/** The annotation a test carries when the target left one of its requests unanswered (lib/http.ts). */
export const NO_ANSWER_ANNOTATION = 'no-answer';

/**
 * A request the target did not answer is one cause of the run's: every clause its test had not
 * judged yet is left unexercised for it, never failed (the tenant's answer was never seen).
 */
export function noAnswerSkip(n: { method: string; target: string; what: string; retried: boolean }): SkipRecord {
  const again = n.retried ? ', sent twice' : '';
  return runSkip({ answer: 'no-answer' }, `the target did not answer ${n.method} ${n.target}${again}: ${n.what}`);
}

/** The annotation a test carries when it ended on an error none of its checks raised (lib/test-run.ts). */
export const STOPPED_ANNOTATION = 'stopped';

/**
 * A test that stopped on an error of its own (a throw, its time-out) is one cause of the run's:
 * the clauses it had not judged yet are left unexercised for it. A failed check is never that
 * cause — checks are soft, nothing stops on one; a clause that needs another names it itself.
 */
export function stoppedSkip(error: string): SkipRecord {
  return runSkip({}, `not reached: its test stopped on an error before judging it (${error})`);
}

/** The annotation text of a record: the record itself. */
export function encodeSkip(r: SkipRecord): string {
  return JSON.stringify(r);
}

export function isSkipRecord(v: unknown): v is SkipRecord {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  if ((r.by !== 'tenant' && r.by !== 'run') || typeof r.text !== 'string') return false;
  if (typeof r.cause !== 'object' || r.cause === null) return false;
  const c = r.cause as Record<string, unknown>;
  return (['clause', 'setting', 'page', 'answer'] as const).every(
    (k) => c[k] === undefined || typeof c[k] === 'string',
  );
}

/**
 * The record an annotation carries. A skip written as plain words (Playwright's own, or a test
 * not yet given a record) says nothing of whose it is, so it is the run's: a gate never passes
 * because a skip was worded some way.
 */
export function decodeSkip(description: string | undefined, fallback = 'test skipped'): SkipRecord {
  if (description === undefined || description.trim() === '') return runSkip({}, fallback);
  try {
    const v: unknown = JSON.parse(description);
    if (isSkipRecord(v)) return v;
  } catch {
    // plain words
  }
  return runSkip({}, description);
}
