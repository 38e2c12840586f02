// Revoke refresh token (§4.3: "client ID and secret"): a refresh token the suite obtained itself (the
// confidential client's code flow with PKCE, offline_access) works (RFC 6749 §6), is revoked (RFC
// 7009 §2.2: 200), and then no longer works (RFC 7009 §2.1). Before the revocation, the refresh-token
// rows of the attack catalogue are sent beside the refresh that worked (RFC 6749 §6): one never
// issued, one altered, an expired copy where it is a JWT, and the token presented by another client
// whose own credentials work.
import { FLOW_GRANT, type Twin, type TwinGate } from '../../../lib/twin-gate.ts';
import type { Config } from '../../../lib/config.ts';
import type { ApiClient } from '../../../lib/http.ts';
import type { Flows, TokenAnswer } from '../../../lib/auth/flow-types.ts';
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../../../lib/declare.ts';
import { endpointOf, jsonBodyRead, revocationAnswered } from '../../../lib/auth/conditions.ts';
import { clauseSkip, runSkip } from '../../../lib/skip-record.ts';
import { notOfferedSkip } from '../../../lib/config.ts';
import { attackRow, GRANT_ATTACKS } from '../../../lib/auth/attacks/catalogue.ts';
import { madeUpLike } from '../../../lib/auth/attacks/grants.ts';
import { alterToken, forgeExpired } from '../../../lib/auth/forge.ts';
import { isJwt } from '../../../lib/auth/jwt-read.ts';
import { BASIC } from '../../../lib/auth/methods/client-secret-basic.ts';
import { tokenPost } from '../../../lib/auth/encoding.ts';
import { revocationGave, tokenGave } from '../../../lib/auth/flow-products.ts';

test(
  'a refresh token the suite obtained works, is revoked, and then no longer works',
  clauses(
    OPERATIONS.authFlow,
    'auth.flow.refresh',
    'auth.flow.revoke',
    'auth.flow.revoke.effective',
    'auth.sec.refresh.forged',
    'auth.sec.refresh.client-bound',
    'auth.flow.refusals',
    'auth.api.post-json',
    'auth.api.named-flows',
  ),
  async ({ run, anon, flows, gate }) => {
    const user = await flows.userTokens('openid offline_access', { confidential: true });
    skipTest(user.problem);
    skipTest(
      !user.refreshToken &&
        runSkip(
          { setting: 'IDM_POST_CLIENT_ID' },
          `${user.source} with scope offline_access and prompt=consent gave no refresh_token: allow offline access for the Post client (IDM_POST_CLIENT_ID) on the tenant`,
        ),
    );
    const client = run.cfg.auth.post!;
    const { encoding, note } = await flows.encoding();
    const from = ` (refresh token from ${user.source})${note}`;
    const refresh = (token: string) =>
      flows.token({
        grant_type: 'refresh_token',
        client_id: client.id,
        client_secret: client.secret,
        refresh_token: token,
      });

    // The refresh before revocation is the twin of the refresh after it.
    const before = await refresh(user.refreshToken!);
    const worked = await gate.issued('auth.flow.refresh', before.ex, 'refresh_token grant', from);
    // With rotation the answer carries the refresh token now current; that is the one revoked.
    const current = before.refreshToken ?? user.refreshToken!;

    // Refresh tokens the tenant never issued, judged beside the refresh that worked.
    await forgedRefused(flows, gate, worked, (token) => refresh(token), current);
    await otherClientRefused(run.cfg, anon, flows, gate, worked, current);

    // A tenant without revocation still refreshes, and its refresh tokens are still held to their
    // rules above: only the revocation's clauses are its to skip.
    const off = notOfferedSkip(run.cfg, 'revoke');
    if (off) return skipClauses(gate.info, off, 'auth.flow.revoke', 'auth.flow.revoke.effective');
    const e = await flows.endpoint('revoke');
    const revoked = await flows.post(e, {
      client_id: client.id,
      client_secret: client.secret,
      token: current,
      token_type_hint: 'refresh_token',
    });
    flows.stopIfAbsent(e, revoked);
    await gate.call(endpointOf, null, { flow: 'revoke refresh token', at: e });
    // §4.3: a JSON revocation is the JSON convention at this endpoint (judged once where JSON was
    // refused). One cause, one failure: a 415 is the JSON refusal alone, the revocation then not
    // judged; any other refusal is the revocation's alone and says nothing of the encoding.
    const read =
      encoding === 'json' ? await gate.call(jsonBodyRead, null, { ex: revoked, url: e.url, any2xx: false }) : null;
    skipTest(
      read === false &&
        clauseSkip('auth.api.post-json', `the revocation's JSON body was refused with ${revoked.status}`),
    );
    await gate.call(revocationAnswered, null, { ex: revoked, note: from });
    // Revocation is effective only where the token worked before it, and was revoked.
    const twin = gate.all(worked, gate.gave(revocationGave(revoked)));
    if (!twin.ok) {
      gate.skip(twin, 'auth.flow.revoke.effective');
      return;
    }
    const after = await refresh(current);
    gate.refused(twin, 'auth.flow.revoke.effective', after.ex, 'the revoked refresh token', {
      ...FLOW_GRANT,
      attack: attackRow('refresh-token', 'revoked'),
    });
  },
);

// Helpers

/** Refresh tokens made up in the shape of the genuine one (the attack catalogue's rows), each refused beside it. */
async function forgedRefused(
  flows: Flows,
  gate: TwinGate,
  worked: Twin,
  refresh: (token: string) => Promise<TokenAnswer>,
  current: string,
): Promise<void> {
  const forged = [
    [GRANT_ATTACKS.refreshNeverIssued, await madeUpLike(current)],
    [GRANT_ATTACKS.refreshAltered, alterToken(current)],
    [GRANT_ATTACKS.refreshExpired, isJwt(current) ? await forgeExpired(current) : null],
  ] as const;
  for (const [row, token] of forged) {
    if (token === null) {
      gate.notMade(row, 'not made: the refresh token is opaque (RFC 6749 §1.5), so no expired copy can be made');
      continue;
    }
    flows.secret(token);
    const wrong = await refresh(token);
    gate.refused(worked, row.clause, wrong.ex, `a refresh token ${row.what}`, { ...FLOW_GRANT, attack: row });
  }
}

/**
 * Another client presents it, with credentials shown to work in the same request shape. The token
 * is live when it meets it (issue 40, item 4): the refresh that worked was its last presentation.
 */
async function otherClientRefused(
  cfg: Config,
  anon: ApiClient,
  flows: Flows,
  gate: TwinGate,
  worked: Twin,
  current: string,
): Promise<void> {
  const other = cfg.auth.basic;
  const bound = GRANT_ATTACKS.refreshOtherClient;
  if (!other) {
    const why = 'needs a second confidential client: set IDM_BASIC_CLIENT_ID and IDM_BASIC_CLIENT_SECRET';
    return skipClauses(gate.info, runSkip({ setting: 'IDM_BASIC_CLIENT_ID' }, why), bound.clause);
  }
  const own = await BASIC.request(cfg, other);
  // Over the grant the tenant offers, as the Basic method itself is judged (lib/auth/encoding.ts).
  const enc = await flows.encoding();
  const theirs = await tokenPost(anon, enc, cfg, await flows.grantRequest(own.data, other.id), {
    headers: own.headers,
  });
  const twin = gate.all(worked, gate.gave(tokenGave(BASIC.clause, theirs)));
  const wrong = await flows.post(
    cfg.auth.tokenUrl,
    { grant_type: 'refresh_token', refresh_token: current },
    own.headers,
  );
  gate.refused(twin, bound.clause, wrong, `the refresh token ${bound.what} (${other.id})`, {
    ...FLOW_GRANT,
    attack: bound,
  });
}
