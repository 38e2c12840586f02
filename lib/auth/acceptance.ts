// The accepted half of every method and flow (§4.3, §5.2): when a token answer counts as
// issued (RFC 6749 §5.1), the one acceptance check, and the words a refusal is skipped with
// beside a twin that failed (the gate that decides it: lib/twin-gate.ts).
import type { Checks } from '../checks.ts';
import type { Exchange } from '../http.ts';
import { clauseSkip, type SkipRecord } from '../skip-record.ts';
import { isObject } from '../values.ts';

/** RFC 6749 §5.1: a 2xx carrying an access_token and a token_type. */
export function issued(ex: Exchange): boolean {
  return (
    ex.status >= 200 &&
    ex.status < 300 &&
    isObject(ex.body) &&
    typeof ex.body.access_token === 'string' &&
    ex.body.access_token !== '' &&
    typeof ex.body.token_type === 'string'
  );
}

/** Why a request meant to be accepted was not, in one line; a 404 is an absent endpoint, never a refusal. */
export function failureCause(ex: Exchange): string {
  if (ex.status === 404) return `endpoint not found at ${new URL(ex.request.url).pathname}`;
  const code = isObject(ex.body) && typeof ex.body.error === 'string' ? ` ${ex.body.error}` : '';
  if (ex.status >= 200 && ex.status < 300) return `answered ${ex.status} without an access_token and a token_type`;
  return `answered ${ex.status}${code}`;
}

/**
 * The one acceptance check of a method or flow: `clause` holds when a token was issued, and
 * the answer then validates as a TokenResponse (auth.token.answer). `note` says how the request
 * was sent when that differs from the spec's convention.
 */
export async function expectIssued(
  check: Checks,
  clause: string,
  ex: Exchange,
  what: string,
  note = '',
): Promise<boolean> {
  const ok = issued(ex);
  check.that(clause, ok, `${what} ${ok ? `answered ${ex.status} with a token` : failureCause(ex)}${note}`, ex);
  if (ok) await check.expectSchema('auth.token.answer', 'TokenResponse', ex.body, ex);
  return ok;
}

/** The record a refusal clause is skipped with when its accepted twin failed: it names the twin's clause. */
export function notExercised(acceptClause: string, cause: string): SkipRecord {
  return clauseSkip(acceptClause, `not exercised: the accepted case failed (${acceptClause}: ${cause})`);
}
