// §5.2 "OAuth2 access token" for endpoints acting for a user (get user info): without a valid user
// token the request is refused with a 4xx and an error object, the exact status recorded (RFC 6750
// §3.1 names 401). Variants that rebuild the token as a JWT (expired, signed by another key) need a
// JWT: an opaque token (RFC 6749 §1.4) skips them, and its format is recorded. The success of
// get-user-info is the named flow's (specs/authentication/flows/).
import { test, USER_SCOPE } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../../../lib/declare.ts';
import type { Exchange } from '../../../lib/http.ts';
import type { AttackRow } from '../../../lib/auth/attacks/catalogue.ts';
import { endpoint } from '../../../lib/auth/endpoints.ts';
import { alterToken, forgeExpired, forgeLike, MALFORMED_TOKENS, truncateToken } from '../../../lib/auth/forge.ts';
import { isJwt } from '../../../lib/auth/jwt-read.ts';
import { userInfoWith } from '../flows/flow-checks.ts';
import { bearerTokenFormat, challengeRecorded } from '../../../lib/auth/conditions.ts';
import { userInfoGave } from '../../../lib/auth/flow-products.ts';
import { attackRow } from '../../../lib/auth/attacks/catalogue.ts';
import { JWT_CLAUSES } from '../../../lib/auth/attacks/jwt.ts';
import { materialFor } from '../../../lib/auth/attacks/material.ts';
import { sendJwtAttacks, type CarrierAttacks } from '../../../lib/auth/attacks/send.ts';
import type { TwinGate } from '../../../lib/twin-gate.ts';
import type { Flows } from '../../../lib/auth/flow-types.ts';
import { clauseSkip, runSkip, tenantSkip } from '../../../lib/skip-record.ts';
import { managementSkip, notOfferedSkip } from '../../../lib/config.ts';

/** The rows whose token carries an altered signature: one taken shows the carrier checks none. */
const SIGNATURE: readonly string[] = ['altered', 'foreign-key'];

/** The variants that rebuild the user's token as a JWT, by what they change. */
const JWT_ONLY = ['an expired user token', 'the user token signed by a key the tenant never published'] as const;

test.describe('OAuth2 access token in Authorization: Bearer (§5.2)', () => {
  test(
    "user info refuses no token, garbage, an altered or truncated token, another client's token, an expired or foreign-signed JWT, and the catalogue's JWT attacks",
    clauses(
      OPERATIONS.authMethod,
      'auth.method.bearer',
      ...JWT_CLAUSES,
      'auth.method.bearer.status',
      'auth.method.bearer.token-format',
      'auth.error.client-fault-4xx',
      'auth.error.object',
    ),
    async ({ run, suite, anon, flows, gate }, info) => {
      const { cfg } = run;
      // Another client's valid token: the management token, where the Management API is under test (IDM_APIS).
      const otherClientToken = suite.state.tokens.full;
      // The user info endpoint is the resource the Bearer token is presented to.
      skipTest(notOfferedSkip(cfg, 'userinfo'));
      const userinfo = await endpoint(cfg, anon, 'userinfo');
      // A real user token (the code flow with PKCE) is the model every variant is made from.
      const user = await flows.userTokens(USER_SCOPE);
      skipTest(user.accessToken === null && (user.problem ?? runSkip({}, `no user token from ${user.source}`)));
      const token = user.accessToken!;
      // The accepted twin: the same endpoint with the user's valid token answers 200.
      const accepted = await userInfoWith(flows, userinfo, token);
      const twin = gate.gave(userInfoGave(accepted));
      const jwt = isJwt(token);
      await gate.call(bearerTokenFormat, null, { jwt, jwtOnly: JWT_ONLY });
      const cases = await variantsOf(token, jwt, otherClientToken, gate, flows, managementSkip(cfg)?.text);
      const refused = (ex: Exchange, what: string, row: AttackRow, note = '') =>
        gate.refused(twin, row.clause, ex, `user info with ${what}`, {
          statusClause: 'auth.method.bearer.status',
          attack: row,
          attackNote: note,
        });
      // A carrier that takes a token whose signature was altered checks none (issue 40, item 8).
      let signatureTaken: string | null = null;
      for (const [what, authorization, attack] of cases) {
        const ex = await anon.withAuthorization('userinfo', authorization).send('GET', userinfo.url);
        if (!refused(ex, what, attackRow('user-token', attack)) && SIGNATURE.includes(attack) && gate.took(ex))
          signatureTaken ??= what;
        await gate.call(challengeRecorded, null, ex);
      }
      // The catalogue's JWT attacks (unsigned, algorithm confusion, embedded and remote keys, the
      // signature): made from the user's token, which must be a JWT to be attacked as one.
      if (!jwt) {
        skipClauses(
          info,
          tenantSkip(
            {},
            `not applicable: the user's access token is opaque (RFC 6749 §1.4), so it carries no JWT to attack at user info`,
          ),
          ...JWT_CLAUSES,
        );
        return;
      }
      await sendJwtAttacks({
        carrier: 'user-token',
        genuine: token,
        material: await materialFor(token, user.idToken ?? otherClientToken, cfg, anon),
        depth: cfg.depth,
        info,
        secret: flows.secret,
        send: (t) => anon.withAuthorization('jwt-attack', `Bearer ${t}`).send('GET', userinfo.url),
        judge: (row, ex, what, note) => refused(ex, `a user token: ${what}`, row, note),
        notMade: (row, why) => gate.notMade(row, why),
        ...(signatureTaken === null ? {} : { unjudged: signatureUnchecked(signatureTaken, gate) }),
      });
    },
  );
});

// Helpers

/**
 * The Bearer variants of the user's token, each a row of the attack catalogue: [what, the
 * Authorization header, the row's attack]. Near copies of a live token are as secret as the token.
 */
async function variantsOf(
  token: string,
  jwt: boolean,
  otherClientToken: string | null,
  gate: TwinGate,
  flows: Flows,
  noManagement: string | undefined,
): Promise<Array<[string, string | null, string]>> {
  const altered = alterToken(token);
  const truncated = truncateToken(token);
  flows.secret(altered);
  flows.secret(truncated);
  const cases: Array<[string, string | null, string]> = [
    ['no Authorization header', null, 'no-token'],
    ...Object.entries(MALFORMED_TOKENS).map(([what, t]): [string, string, string] => [
      `a garbage token (${what})`,
      `Bearer ${t}`,
      'malformed',
    ]),
    ['the user token with one character changed', `Bearer ${altered}`, 'altered'],
    ['the user token cut short', `Bearer ${truncated}`, 'truncated'],
  ];
  // The management token is tenant-signed and valid, but another client's, for the management API.
  const OTHER_CLIENT = "another client's valid token for another audience (the management API)";
  if (otherClientToken !== null) cases.push([OTHER_CLIENT, `Bearer ${otherClientToken}`, 'other-client']);
  else gate.notMade(attackRow('user-token', 'other-client'), `${OTHER_CLIENT}: ${noManagement}`);
  // Same header and claims as the user's token, suite-signed: only the property named differs.
  if (jwt)
    cases.push(
      [JWT_ONLY[0], `Bearer ${await forgeExpired(token)}`, 'expired'],
      [JWT_ONLY[1], `Bearer ${await forgeLike(token)}`, 'foreign-key'],
    );
  return cases;
}

/** A carrier that took an altered signature checks none (issue 40, item 8): its JWT attacks are that one cause. */
function signatureUnchecked(taken: string, gate: TwinGate): CarrierAttacks['unjudged'] {
  return {
    cause: clauseSkip(
      'auth.method.bearer',
      `not judged: user info took ${taken} (auth.method.bearer), so it checks no signature and every JWT attack on it is that one cause`,
    ),
    record: (row, ex, cause) => gate.notJudged(row, ex, cause),
  };
}
