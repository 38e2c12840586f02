// §5.1, the management API's own client-credentials scheme: a token issued at the path the spec
// names, for the management audience, and that token satisfying the update as a bearer JWT.
import { describeAnswer } from '../answer-words.ts';
import { condition } from '../condition.ts';
import { createdAs } from './update-answer.ts';
import type { Exchange } from '../http.ts';
import { peekClaims } from '../auth/jwt-read.ts';

/**
 * §5.1: a token is issued (RFC 6749 §5.1, as the answer was read when received; the token answer's
 * own rules are the authentication API's, judged on its clients: auth.token.answer). Called without
 * its exchange (gate.call(c, null, ex)): a 5xx of the token endpoint is this clause's failure.
 */
function tokenIssued(clause: string, asked: string) {
  return condition({
    clauses: [clause],
    cite: '§5.1',
    judge: (v, ex: Exchange) => {
      const ok = ex.answer.accessToken !== null;
      return v.that(
        ok,
        `${asked}: ${ok ? `answered ${ex.status} with an access_token` : `expected a 2xx with an access_token, got ${describeAnswer(ex)}`}`,
        ex,
      );
    },
  });
}

/** §5.1: "token endpoint path /oauth/token/". */
export const issuedAtNamedPath = tokenIssued('auth.token.endpoint', 'POST /oauth/token/');

/** §5.1: "form parameter audience with the value /api/v2/" (the management API's identifier). */
export const issuedForManagement = tokenIssued('auth.token.audience', 'a token request for the management audience');

/** §5.1: the bearer scheme (format JWT) satisfies the update: PATCH {} with the issued token answered 201. */
export const bearerAccepted = createdAs(
  'auth.mgmt.bearer-jwt',
  '§5.1, §4.1',
  'PATCH {} with the freshly issued bearer token',
);

/** §5.1 shows scope names of the form <action>:<resource>; what the token carries is recorded. */
export const scopeNamesRecorded = condition({
  clauses: ['auth.mgmt.scope-names'],
  cite: '§5.1 (recorded)',
  judge: (v, token: string | null) => {
    const scope = token ? peekClaims(token)?.scope : undefined;
    return v.observe(
      scope !== undefined
        ? `the full client's token carries scope "${String(scope)}"`
        : 'the token carries no readable scope claim',
    );
  },
});

/** §1: both APIs are served over HTTPS; the scheme of the target is recorded (the embedded tenant is plain HTTP). */
export const schemeRecorded = condition({
  clauses: ['mgmt.transport.https'],
  cite: '§1 (recorded)',
  judge: (v, baseUrl: string) => v.observe(`the target is served over ${new URL(baseUrl).protocol.replace(':', '')}`),
});

/** The access token a token answer issued, or null. */
export function tokenOf(ex: Exchange): string | null {
  return ex.answer.accessToken;
}
