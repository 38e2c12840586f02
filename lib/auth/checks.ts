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

/**
 * A request the server cannot read (no client, no parameters) may be answered by the tenant's
 * own error page behind a redirect (RFC 6749 §4.1.2.1: inform the resource owner, never
 * redirect to the client): a 3xx to the origin of the request, carrying no code or token and
 * naming no client redirect URI. Anything else is not such a page (null: judge the status).
 */
export function ownErrorPage(ex: Exchange, clientRedirects: readonly string[]): string | null {
  const location = ex.status >= 300 && ex.status < 400 ? ex.headers.location : undefined;
  if (location === undefined) return null;
  let to: URL;
  try {
    to = new URL(location, ex.request.url);
  } catch {
    return null;
  }
  if (to.origin !== new URL(ex.request.url).origin) return null;
  const carried = [...to.searchParams, ...new URLSearchParams(to.hash.slice(1))];
  if (carried.some(([k]) => ['code', 'access_token', 'id_token'].includes(k))) return null;
  const toClient = (v: string): boolean => clientRedirects.some((r) => v.startsWith(r));
  if (toClient(to.href) || carried.some(([, v]) => toClient(v))) return null;
  return to.pathname;
}

/** A request the server cannot read is refused: a 4xx, or a redirect to the tenant's own error page. */
export function expectNotRead(
  check: Checks,
  clause: string,
  ex: Exchange,
  what: string,
  clientRedirects: readonly string[],
): boolean {
  const page = ownErrorPage(ex, clientRedirects);
  if (page !== null)
    return check.that(clause, true, `${what}: ${ex.status} to the tenant's own ${page} (an error shown to the person)`);
  const location = ex.status >= 300 && ex.status < 400 ? ` to ${ex.headers.location ?? '(no Location)'}` : '';
  return check.that(
    clause,
    ex.status >= 400 && ex.status < 500,
    `${what}: expected a 4xx, got ${ex.status}${location}`,
    ex,
  );
}
