// The one way the suite judges a refusal by the authentication API (§5.2, §7.3): a 4xx on
// the case's own clause, a JSON error object, an OAuth `error` member at the token endpoint
// (RFC 6749 §5.2), the exact status and error code recorded, and the error kept for the
// run-wide "most carry a code and a description". One cause is one failure: an accepted
// faulty request fails its own clause only; auth.error.client-fault-4xx judges the status of
// error answers (a 4xx passes it, a 5xx fails it, and the case's own clause then waits on it).
import type { TestInfo } from '@playwright/test';
import type { Checks } from '../checks.ts';
import type { Exchange } from '../http.ts';
import { isObject, short } from '../values.ts';
import { recordAuthError } from './error-records.ts';
import { skipClauses } from '../declare.ts';

const CLIENT_FAULT = 'auth.error.client-fault-4xx';

export interface RefusalOptions {
  /** Observe clause that records the exact status and error code. */
  statusClause?: string;
  /** Whether the answer came from the token endpoint (the RFC 6749 §5.2 `error` member applies). */
  tokenEndpoint?: boolean;
  /** false when the request itself is right and refused for another reason (a blocked login). */
  faulty?: boolean;
}

/** The clauses expectClientAuthRefusal judges, besides the case's own. */
export const CLIENT_AUTH_REFUSAL_CLAUSES: readonly string[] = [
  'auth.error.client-fault-4xx',
  'auth.error.object',
  'auth.error.oauth-error',
  'auth.method.client-auth-status',
];

export function expectAuthRefusal(
  check: Checks,
  info: TestInfo,
  clause: string,
  ex: Exchange,
  what: string,
  o: RefusalOptions = {},
): boolean {
  recordAuthError(info, ex);
  const faulty = o.faulty !== false && clause !== CLIENT_FAULT;
  let refused: boolean;
  if (faulty && ex.status >= 500) {
    // Not an acceptance but a service fault (§7.3): said once, where that rule is judged.
    check.that(CLIENT_FAULT, false, `${what}: expected a 4xx, got ${ex.status} (a fault on the service side)`, ex);
    skipClauses(info, `not judged: ${what} answered ${ex.status}, a service fault (${CLIENT_FAULT})`, clause);
    refused = false;
  } else {
    refused = check.expectRejected(clause, ex, what);
    if (refused && faulty) check.that(CLIENT_FAULT, true, `${what}: ${ex.status}`);
  }
  if (refused) {
    const obj = isObject(ex.body);
    check.that(
      'auth.error.object',
      obj,
      `${what}: ${ex.status} ${obj ? 'with an error object' : `without a JSON error object: ${short(ex.text)}`}`,
      ex,
    );
    // No object at all is auth.error.object's failure alone: the member is judged inside one.
    if (o.tokenEndpoint && obj) {
      const err = (ex.body as Record<string, unknown>).error;
      check.that(
        'auth.error.oauth-error',
        typeof err === 'string' && err.length > 0,
        `${what}: token-endpoint error ${typeof err === 'string' ? `"${err}"` : 'without a string error member'}`,
        ex,
      );
    }
  }
  if (o.statusClause) {
    const code =
      isObject(ex.body) && typeof ex.body.error === 'string'
        ? ex.body.error
        : isObject(ex.body)
          ? `members ${Object.keys(ex.body).join(', ')}`
          : 'no error object';
    check.observe(o.statusClause, `${what}: ${ex.status} ${code}`);
  }
  return refused;
}

/** A client authentication refused at the token endpoint (§5.2): status and error code recorded. */
export function expectClientAuthRefusal(
  check: Checks,
  info: TestInfo,
  clause: string,
  ex: Exchange,
  what: string,
): boolean {
  return expectAuthRefusal(check, info, clause, ex, what, {
    statusClause: 'auth.method.client-auth-status',
    tokenEndpoint: true,
  });
}
