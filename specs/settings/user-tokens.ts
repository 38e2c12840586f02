// The settings that govern a user's tokens for the API (§2.1, §2.3): token_lifetime_for_web on the
// implicit flow's token, a DPoP proof required of public clients on the public client's code
// exchange, allow_offline_access on the refresh token a user's grant may carry, token_lifetime at
// the moment of a refresh, and the user policy of subject_type_authorization; the user's grant is
// userGrant's (lib/api-tokens/asks.ts), each refusal beside the same grant accepted before.
import { test } from '../../lib/auth/flow-fixtures.ts';
import { implicitFlow, publicCodeWithoutProof, refreshOf, userGrant } from '../../lib/api-tokens/asks.ts';
import { declared, lifetimeAbove, on, row, runRows } from '../../lib/api-tokens/rows.ts';
import { lifetimeOf, offlineAccessAs, tokenLifetime, webLifetime } from '../../lib/api-tokens/conditions.ts';

const lifetime = on(tokenLifetime, (t, r) => lifetimeOf(t, r.written.token_lifetime as number));

const ROWS = [
  row({ id: 'implicit', ask: implicitFlow, judge: [on(webLifetime)] }),
  // §2.3 required_for public_clients, its public side (the confidential side is proof-of-possession.ts).
  row({
    id: 'public proof',
    write: { proof_of_possession: { mechanism: 'dpop', required: true, required_for: 'public_clients' } },
    ask: publicCodeWithoutProof,
    refused: { clause: 'rs.settings.pop.required_for' },
  }),
  // The user's grant for the API, with refresh tokens allowed, a lifetime of the run's, and no proof
  // required of anyone (the rows below are not the proof's).
  row({
    id: 'granted',
    write: (r) => ({
      allow_offline_access: true,
      token_lifetime: lifetimeAbove(r.rs, 29),
      ...(r.inForce.proof_of_possession ? { proof_of_possession: null } : {}),
    }),
    ask: userGrant,
    twin: true,
    judge: [on(offlineAccessAs, (t) => ({ t, allowed: true })), lifetime],
  }),
  // A refresh issues its access token under the settings of its own moment.
  row({
    id: 'refreshed',
    write: (r) => ({ token_lifetime: lifetimeAbove(r.rs, 31) }),
    ask: refreshOf('granted'),
    issued: true,
    judge: [lifetime],
  }),
  // No refresh token for the API once allow_offline_access is false: dropped, or the grant refused.
  row({
    id: 'offline refused',
    write: { allow_offline_access: false },
    ask: userGrant,
    judge: [on(offlineAccessAs, (t) => ({ t, allowed: false }))],
    refused: { clause: 'rs.settings.allow_offline_access', twin: 'granted', optional: true },
  }),
  row({
    id: 'user denied',
    write: { subject_type_authorization: { user: { policy: 'deny_all' } } },
    ask: userGrant,
    refused: { clause: 'rs.settings.subject_type.user.deny_all', twin: 'granted' },
  }),
];

test.describe('resource-server settings in effect: user tokens', () => {
  test(
    "a user's tokens for the API follow its token_lifetime_for_web (implicit), a proof required of public clients (the public client's code), allow_offline_access, token_lifetime at a refresh and user policy",
    declared(ROWS),
    async ({ run, rs, gate, anon, suite, flows }, info) => runRows(ROWS, { run, rs, gate, anon, suite, info, flows }),
  );
});
