// A consent page declined (RFC 6749 §4.1.2.1; OIDC Core §3.1.2.6): the browser is sent back to
// the client with error=access_denied and the state it sent, never with a code. Exercised where
// the tenant shows a consent page: the shared logins (flows.userTokens, which asks offline_access
// with prompt=consent), the public client's and else the confidential client's, tell whether
// it does; the one that met it is the accepted twin — the same login with consent accepted gave
// a code that was exchanged for tokens — and the decline is tried with that client.
import { test, USER_SCOPE } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../../../lib/declare.ts';
import { newState, pkcePair } from '../../../lib/auth/pkce.ts';
import type { UserTokens } from '../../../lib/auth/flow-types.ts';
import { NO_REDIRECT_URI } from '../../../lib/auth/needs.ts';
import { runSkip, tenantSkip } from '../../../lib/skip-record.ts';

/** The confidential client's login when the public one met no consent page (the refresh/revoke test's login, shared). */
const CONFIDENTIAL_SCOPE = 'openid offline_access';

test(
  'a declined consent page sends error=access_denied and the state to the redirect URI, never a code',
  clauses(OPERATIONS.authFlow, 'auth.sec.consent.denied'),
  async ({ run, flows, gate }) => {
    // The decline is tried on whichever login met a consent page: the public client's, else the
    // confidential client's (a server may show its page to one kind of client only).
    const logins: Array<{ clientId: string; scope: string; twin: string; user: UserTokens }> = [];
    const { publicClientId, post, redirectUri } = run.cfg.auth;
    skipTest(!redirectUri && NO_REDIRECT_URI);
    if (publicClientId)
      logins.push({
        clientId: publicClientId,
        scope: USER_SCOPE,
        twin: 'auth.flow.code.pkce',
        user: await flows.userTokens(USER_SCOPE),
      });
    const met = () => logins.find((l) => l.user.consent !== null);
    if (!met() && post)
      logins.push({
        clientId: post.id,
        scope: CONFIDENTIAL_SCOPE,
        twin: 'auth.flow.code.confidential',
        user: await flows.userTokens(CONFIDENTIAL_SCOPE, { confidential: true }),
      });
    skipTest(
      logins.length === 0 &&
        runSkip(
          { setting: 'IDM_PUBLIC_CLIENT_ID' },
          'needs a client allowed the code flow: set IDM_PUBLIC_CLIENT_ID or IDM_POST_CLIENT_ID',
        ),
    );
    const shown = met();
    // A login that failed before any consent page leaves nothing to say about one: its flow's clause says why.
    skipTest(!shown && logins.find((l) => l.user.problem !== null)?.user.problem);
    skipTest(
      !shown &&
        tenantSkip(
          {},
          `not applicable: the tenant showed no consent page to ${logins.map((l) => `${l.clientId} asking "${l.scope}"`).join(' nor ')} with prompt=consent`,
        ),
    );
    const { clientId, scope, twin: flow, user } = shown!;
    skipTest(user.problem);
    const twin = gate.given(flow, true, '');
    const pair = pkcePair();
    const state = newState();
    const out = await flows.authorize(
      await flows.endpoint('authorize'),
      {
        response_type: 'code',
        client_id: clientId,
        redirect_uri: redirectUri!,
        scope,
        state,
        code_challenge: pair.challenge,
        code_challenge_method: pair.method,
      },
      [redirectUri!],
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
