// RFC 6749 §5.1: a token answer must not be stored by any cache (Cache-Control: no-store);
// Pragma: no-cache is for HTTP/1.0 caches, deprecated by RFC 9111, so it is recorded only.
import { condition } from '../condition.ts';
import type { Exchange } from '../http.ts';

/** One token-endpoint answer that carries a token (judged on every one, lib/answer-rules.ts). */
export const notCacheable = condition({
  clauses: ['auth.sec.token.no-store', 'auth.sec.token.pragma'],
  cite: 'RFC 6749 §5.1',
  judge: (v, { ex }: { ex: Exchange }) => {
    const cacheControl = ex.headers['cache-control'];
    const directives = (cacheControl ?? '').split(',').map((d) => d.trim().toLowerCase());
    v.on('auth.sec.token.pragma').observe(`token answer: Pragma ${ex.headers.pragma ?? '(absent)'}`);
    return v.that(
      directives.includes('no-store'),
      `token answer ${ex.status} carrying a token: Cache-Control ${cacheControl === undefined ? '(absent)' : `"${cacheControl}"`} (no-store required)`,
      ex,
    );
  },
});
