// A consent page declined (RFC 6749 §4.1.2.1; OIDC Core §3.1.2.6): the browser is sent back to
// the client with error=access_denied and the state it sent, never with a code. Exercised where
// the tenant shows a consent page: the shared login (flows.userTokens, which asks offline_access
// with prompt=consent) tells whether it does, and is the accepted twin — the same login with
// consent accepted gave a code that was exchanged for tokens.
import { test, USER_SCOPE } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../../../lib/declare.ts';
import { newState, pkcePair } from '../../../lib/auth/pkce.ts';
import { publicClient } from '../flows/flow-checks.ts';
import { runSkip, tenantSkip } from '../../../lib/skip-record.ts';

test(
  'a declined consent page sends error=access_denied and the state to the redirect URI, never a code',
  clauses(OPERATIONS.authFlow, 'auth.sec.consent.denied'),
  async ({ run, flows, gate }) => {
    const { clientId, redirectUri } = publicClient(run.cfg);
    const accepted = await flows.userTokens(USER_SCOPE);
    skipTest(accepted.consent === null && accepted.problem);
    skipTest(
      accepted.consent === null &&
        tenantSkip(
          {},
          `not applicable: the tenant showed no consent page to a login asking "${USER_SCOPE}" with prompt=consent`,
        ),
    );
    skipTest(accepted.problem);
    const twin = gate.given('auth.flow.code.pkce', true, '');
    const pair = pkcePair();
    const state = newState();
    const out = await flows.authorize(
      await flows.endpoint('authorize'),
      {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri,
        scope: USER_SCOPE,
        state,
        code_challenge: pair.challenge,
        code_challenge_method: pair.method,
      },
      [redirectUri],
      undefined,
      { consent: 'decline' },
    );
    // A consent page the walk finds no decline control on is the suite's gap (a link or a button no
    // selector names), not the tenant's choice.
    skipTest(
      out.consent === 'no decline control' &&
        runSkip(
          { setting: 'IDM_LOGIN_DECLINE_SELECTOR', ...(out.stoppedAt === null ? {} : { page: out.stoppedAt }) },
          `consent decline not driven: no control on the consent page matches IDM_LOGIN_DECLINE_SELECTOR (${out.pages.at(-1) ?? ''}); set it to the page's decline control`,
        ),
    );
    skipTest(
      out.consent === null &&
        tenantSkip({}, `not applicable: the second login was shown no consent page (${out.pages.join(' → ')})`),
    );
    const p = out.params;
    const ok = out.callback !== null && p.error === 'access_denied' && p.state === state && !p.code && !p.access_token;
    const seen = out.callback
      ? `the redirect URI received ${Object.keys(p).join(', ') || 'no parameters'}${p.error ? ` (error ${p.error})` : ''}${p.state !== undefined && p.state !== state ? ' (another state)' : ''}`
      : `the browser stayed at ${out.stoppedAt ?? 'the tenant'} (${out.problem ?? 'no redirect'})`;
    gate.holds(
      twin,
      'auth.sec.consent.denied',
      ok,
      `consent declined on ${out.pages.at(-1) ?? 'the consent page'}: ${seen}`,
    );
  },
);
