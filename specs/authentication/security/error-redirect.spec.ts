// An error the tenant reports to the client by redirect carries the state the request sent (RFC
// 6749 §4.1.2.1). Judged on every error redirect to a client the run meets (lib/answer-rules.ts);
// this test makes one that needs no consent page and no login: a response_type the tenant cannot
// support, for a registered client and redirect URI.
import { BROWSER_ACCEPT } from '../../../lib/auth/login-page.ts';
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipClauses } from '../../../lib/declare.ts';
import { newState, pkcePair } from '../../../lib/auth/pkce.ts';
import { errorRedirect } from '../../../lib/answer-rules.ts';
import { answerOf } from '../../../lib/auth/conditions.ts';
import { publicClient } from '../flows/flow-checks.ts';
import { tenantSkip } from '../../../lib/skip-record.ts';

const STATE_KEPT = 'auth.sec.error-redirect.state';

test(
  'an unsupported response_type is reported to the client by a redirect carrying the state sent',
  clauses(OPERATIONS.authFlow, STATE_KEPT, 'auth.sec.redirect-uri.answer'),
  async ({ run, flows, check, anon }, info) => {
    const { clientId, redirectUri } = publicClient(run.cfg);
    const e = await flows.endpoint('authorize');
    const u = new URL(e.url);
    const pair = pkcePair();
    for (const [k, v] of Object.entries({
      response_type: 'idm_conformance_unsupported',
      client_id: clientId,
      redirect_uri: redirectUri,
      scope: 'openid',
      state: newState(),
      code_challenge: pair.challenge,
      code_challenge_method: pair.method,
    }))
      u.searchParams.set(k, v);
    // The answer passes through the rule about every error redirect, which judges its state.
    const ex = await anon.send('GET', u.toString(), { headers: { accept: BROWSER_ACCEPT } });
    flows.stopIfAbsent(e, ex);
    if (errorRedirect(ex) === null) {
      answerOf(check, 'auth.sec.redirect-uri.answer', 'an unsupported response_type', ex);
      skipClauses(
        info,
        tenantSkip(
          { answer: 'refused' },
          `not applicable: an unsupported response_type was answered ${ex.status} without an error redirect to the client (judged on every error redirect the run meets)`,
        ),
        STATE_KEPT,
      );
    }
  },
);
