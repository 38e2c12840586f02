// RFC 6749 §5.1: a token answer must not be stored by any cache (Cache-Control: no-store);
// Pragma: no-cache is for HTTP/1.0 caches, deprecated by RFC 9111, so it is recorded only.
import type { Checks } from '../checks.ts';
import type { Exchange } from '../http.ts';

/** Judges one token-endpoint answer that carries a token (auth.sec.token.no-store). */
export function expectNotCacheable(check: Checks, ex: Exchange): boolean {
  const cacheControl = ex.headers['cache-control'];
  const directives = (cacheControl ?? '').split(',').map((d) => d.trim().toLowerCase());
  check.observe('auth.sec.token.pragma', `token answer: Pragma ${ex.headers.pragma ?? '(absent)'}`);
  return check.that(
    'auth.sec.token.no-store',
    directives.includes('no-store'),
    `token answer ${ex.status} carrying a token: Cache-Control ${cacheControl === undefined ? '(absent)' : `"${cacheControl}"`} (no-store required)`,
    ex,
  );
}
