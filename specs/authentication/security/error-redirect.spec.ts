// An error the tenant reports to the client by redirect carries the state the request sent (RFC
// 6749 §4.1.2.1). Judged on every error redirect to a client the run meets (lib/answer-rules.ts);
// this test makes one that needs no consent page: a response_type the tenant cannot support, else
// a scope it does not know (invalid_scope), for a registered client and redirect URI. A server that
// logs the user in before it reads the request answers with its login page: the probe then goes
// through the login, and the redirect the browser is sent after it is judged (issue 40, item 3).
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipClauses } from '../../../lib/declare.ts';
import { newState, pkcePair } from '../../../lib/auth/pkce.ts';
import { errorRedirect, stateKept, type ErrorRedirect } from '../../../lib/answer-rules.ts';
import { describeProbe, probeAuthorize, type ProbeAnswer } from '../../../lib/auth/probe.ts';
import { publicClient } from '../flows/flow-checks.ts';
import { probeRecorded } from '../../../lib/auth/conditions.ts';
import { tenantSkip } from '../../../lib/skip-record.ts';

const STATE_KEPT = 'auth.sec.error-redirect.state';

/** The requests that are refused at the client's redirect URI, each a fault only the tenant's reading finds. */
const FAULTS = [
  { what: 'an unsupported response_type', params: { response_type: 'idm_conformance_unsupported', scope: 'openid' } },
  { what: 'an unknown scope', params: { response_type: 'code', scope: 'openid idm_conformance_unknown_scope' } },
] as const;

test(
  'an unsupported response_type is reported to the client by a redirect carrying the state sent',
  clauses(OPERATIONS.authFlow, STATE_KEPT, 'auth.sec.redirect-uri.answer'),
  async ({ run, flows, gate, anon }, info) => {
    const { clientId, redirectUri } = publicClient(run.cfg);
    const e = await flows.endpoint('authorize');
    const seen: string[] = [];
    for (const fault of FAULTS) {
      const pair = pkcePair();
      const state = newState();
      const params = {
        ...fault.params,
        client_id: clientId,
        redirect_uri: redirectUri,
        state,
        code_challenge: pair.challenge,
        code_challenge_method: pair.method,
      };
      // The anonymous answer passes through the rule about every error redirect, which judges its state.
      const p = await probeAuthorize(flows, anon, e, params, [redirectUri]);
      if (errorRedirect(p.anonymous) !== null) return;
      const after = errorAfterLogin(p, state);
      if (after !== null) return void (await gate.call(stateKept, null, { r: after }));
      await gate.call(probeRecorded('auth.sec.redirect-uri.answer'), null, { what: fault.what, probe: p });
      seen.push(`${fault.what}: ${describeProbe(p)}`);
    }
    skipClauses(
      info,
      tenantSkip(
        { answer: 'refused' },
        `not applicable: no error redirect to the client (${seen.join('; ')}); judged on every error redirect the run meets`,
      ),
      STATE_KEPT,
    );
  },
);

// Helpers

/** The error the browser was sent to the client with after the login, and the state it carried. */
function errorAfterLogin(p: ProbeAnswer, sent: string): ErrorRedirect | null {
  const out = p.afterLogin;
  if (!out?.callback || out.params.error === undefined) return null;
  return { error: out.params.error, state: out.params.state ?? null, sent };
}
