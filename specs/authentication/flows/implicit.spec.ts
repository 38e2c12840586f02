// Implicit grant authorization (§4.3: "client ID only"), through the login page in Chromium:
// the token comes back in the redirect URI's fragment with the state sent (RFC 6749 §4.2.2),
// and a redirect URI the client did not register is never redirected to (§4.2.2.1).
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../../../lib/declare.ts';
import { endpointOf } from '../../../lib/auth/conditions.ts';
import { newState } from '../../../lib/auth/pkce.ts';
import { notOfferedSkip } from '../../../lib/config.ts';
import type { Flows } from '../../../lib/auth/flow-fixtures.ts';
import type { AuthorizeOutcome } from '../../../lib/auth/login-walk.ts';
import { publicClient } from './flow-checks.ts';
import { implicitGave } from '../../../lib/auth/flow-products.ts';

/** A URI no tenant has registered for the suite's clients (never resolved: the browser route answers it). */
const UNREGISTERED = 'https://unregistered.conformance.test/callback';

test(
  'implicit grant: the access token, its type and the state come back in the fragment; an unregistered redirect URI is never redirected to',
  clauses(OPERATIONS.authFlow, 'auth.flow.implicit', 'auth.api.named-flows', 'auth.flow.implicit.redirect-uri'),
  async ({ run, flows, gate }) => {
    skipTest(notOfferedSkip(run.cfg, 'implicit'));
    const { clientId, redirectUri } = publicClient(run.cfg);
    const e = await flows.endpoint('authorize');
    const { ok, seen } = await implicitGrant(flows, clientId, redirectUri);
    await gate.call(endpointOf, null, { flow: 'implicit grant', at: e });
    // The refusal beside its accepted twin: the same request with the registered URI gave a token.
    const twin = gate.accepted('auth.flow.implicit', ok, `implicit grant for client ${clientId}: ${seen}`, seen);
    if (!twin.ok) {
      gate.skip(twin, 'auth.flow.implicit.redirect-uri');
      return;
    }
    const out = await flows.authorize(
      e,
      { response_type: 'token', client_id: clientId, redirect_uri: UNREGISTERED, scope: 'openid', state: newState() },
      [UNREGISTERED, redirectUri],
    );
    const there = out.callback !== null && out.callback.host === new URL(UNREGISTERED).host;
    const what = there
      ? `the browser was sent to the unregistered ${UNREGISTERED}${out.carriedIn.fragment.includes('access_token') || out.carriedIn.query.includes('access_token') ? ' with an access_token' : ''}`
      : out.callback
        ? `the browser was sent to the registered redirect URI instead`
        : `the browser stayed on the tenant (${out.stoppedAt ?? 'no redirect'}${out.loggedIn ? ', after the login form' : ', no login form'})`;
    gate.holds(
      twin,
      'auth.flow.implicit.redirect-uri',
      !there,
      `implicit grant with an unregistered redirect URI: ${what}`,
    );
  },
);

/** The implicit grant with the registered redirect URI; whether it gave the token, and what was seen. */
async function implicitGrant(
  flows: Flows,
  clientId: string,
  redirectUri: string,
): Promise<{ ok: boolean; seen: string; out: AuthorizeOutcome }> {
  const state = newState();
  const out = await flows.authorize(
    await flows.endpoint('authorize'),
    { response_type: 'token', client_id: clientId, redirect_uri: redirectUri, scope: 'openid profile', state },
    [redirectUri],
  );
  // The one verdict on what the flow gave: the ID-token rules of an implicit login are judged only where it holds.
  const { ok, seen } = implicitGave(out, state);
  return { ok, seen, out };
}
