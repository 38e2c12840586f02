// The one way the suite judges a refusal by the authentication API (§5.2, §7.3): a 4xx on
// the case's own clause and on auth.error.client-fault-4xx, a JSON error object, an OAuth
// `error` member at the token endpoint (RFC 6749 §5.2), the exact status and error code
// recorded, and the error kept for the run-wide "most carry a code and a description".
import type { TestInfo } from '@playwright/test';
import type { Checks } from '../checks.ts';
import type { Exchange } from '../http.ts';
import { isObject, short } from '../values.ts';
import { recordAuthError } from './error-records.ts';

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
  const is4xx = check.expectRejected(clause, ex, what);
  if (clause !== 'auth.error.client-fault-4xx' && o.faulty !== false)
    check.expectRejected('auth.error.client-fault-4xx', ex, what);
  recordAuthError(info, ex);
  if (ex.status >= 400 && ex.status < 500) {
    const obj = isObject(ex.body);
    check.that(
      'auth.error.object',
      obj,
      `${what}: ${ex.status} ${obj ? 'with an error object' : `without a JSON error object: ${short(ex.text)}`}`,
      ex,
    );
    if (o.tokenEndpoint) {
      const err = obj ? (ex.body as Record<string, unknown>).error : undefined;
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
  return is4xx;
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
