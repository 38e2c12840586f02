// A consent page declined (RFC 6749 §4.1.2.1; OIDC Core §3.1.2.6): the browser is sent back to the
// client with error=access_denied and the state it sent, never with a code. Exercised where the
// tenant shows a consent page (the shared logins, the public client's, else the confidential
// client's tell whether it does); the login that met it, accepted, is the twin. A tenant may remember
// a consent (OIDC Core §3.1.2.1 only says it SHOULD ask again): before concluding it shows none, the
// decline asks for a scope that client was not granted yet.
import { test, USER_SCOPE } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../../../lib/declare.ts';
import { codeRequest } from '../../../lib/auth/pkce.ts';
import type { Flows, UserTokens } from '../../../lib/auth/flow-types.ts';
import type { AuthorizeOutcome } from '../../../lib/auth/login-walk.ts';
import { metadataMember } from '../../../lib/auth/endpoints.ts';
import { describeStep, describeSteps } from '../../../lib/auth/walk-steps.ts';
import { NO_REDIRECT_URI } from '../../../lib/auth/needs.ts';
import { runSkip, tenantSkip } from '../../../lib/skip-record.ts';

/** The confidential client's login when the public one met no consent page (the refresh/revoke test's login, shared). */
const CONFIDENTIAL_SCOPE = 'openid offline_access';
/** OIDC Core §5.4's scopes, asked anew where the server's metadata lists none the login did not ask. */
const STANDARD_SCOPES = ['profile', 'email', 'address', 'phone'];

interface Login {
  clientId: string;
  scope: string;
  twin: string;
  user: UserTokens;
}

test(
  'a declined consent page sends error=access_denied and the state to the redirect URI, never a code',
  clauses(OPERATIONS.authFlow, 'auth.sec.consent.denied'),
  async ({ run, flows, gate, anon }) => {
    // The decline is tried on whichever login met a consent page: the public client's, else the
    // confidential client's (a server may show its page to one kind of client only).
    const logins: Login[] = [];
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
    // The twin: the login that met a consent page, else one that gave a code (its consent remembered).
    const login = met() ?? logins.find((l) => l.user.problem === null);
    // A login that failed before any consent page leaves nothing to say about one: its flow's clause says why.
    skipTest(!login && logins.find((l) => l.user.problem !== null)?.user.problem);
    skipTest(login!.user.problem);
    const twin = gate.given(login!.twin, true, '');
    const decline = (scope: string) => declined(flows, login!.clientId, redirectUri!, scope);
    let seen = login!.user.consent === null ? null : await decline(login!.scope);
    let anew: string | null = null;
    if (seen === null || seen.out.consent === null) {
      anew = await scopeNotAsked(login!.scope, (m) => metadataMember(run.cfg, anon, m));
      if (anew !== null) seen = await decline(`${login!.scope} ${anew}`);
    }
    // A consent page the walk finds no decline control on is the suite's gap (a link or a button no
    // selector names), not the tenant's choice.
    const out = seen?.out ?? null;
    skipTest(
      out?.consent === 'no decline control' &&
        runSkip(
          { setting: 'IDM_LOGIN_DECLINE_SELECTOR', ...(out.stoppedAt === null ? {} : { page: out.stoppedAt }) },
          `consent decline not driven: no control on the consent page matches IDM_LOGIN_DECLINE_SELECTOR (${lastStep(out)}); set it to the page's decline control`,
        ),
    );
    skipTest(
      (out === null || out.consent === null) &&
        tenantSkip(
          {},
          `not applicable: the tenant showed no consent page to ${login!.clientId} asking "${login!.scope}" with prompt=consent${anew === null ? '' : `, nor asking "${anew}" besides`}${out ? ` (${describeSteps(out.steps)})` : ''}`,
        ),
    );
    const p = out!.params;
    const ok =
      out!.callback !== null && p.error === 'access_denied' && p.state === seen!.state && !p.code && !p.access_token;
    const where = out!.callback
      ? `the redirect URI received ${Object.keys(p).join(', ') || 'no parameters'}${p.error ? ` (error ${p.error})` : ''}${p.state !== undefined && p.state !== seen!.state ? ' (another state)' : ''}`
      : `the browser stayed at ${out!.stoppedAt ?? 'the tenant'} (${out!.problem ?? 'no redirect'})`;
    gate.holds(twin, 'auth.sec.consent.denied', ok, `consent declined on ${lastStep(out!)}: ${where}`);
  },
);

// Helpers

/** The client's login asking `scope`, its consent page declined: the walk and the state it sent. */
async function declined(
  flows: Flows,
  clientId: string,
  redirectUri: string,
  scope: string,
): Promise<{ out: AuthorizeOutcome; state: string }> {
  const { params, state } = codeRequest(clientId, redirectUri, scope);
  const out = await flows.authorize(await flows.endpoint('authorize'), params, [redirectUri], undefined, {
    consent: 'decline',
  });
  return { out, state };
}

/**
 * A scope the login did not ask, so none its consent granted: the first the server's metadata
 * lists (scopes_supported, RFC 8414 §2), else one of OIDC Core §5.4's; null when none is left.
 */
async function scopeNotAsked(
  asked: string,
  member: (name: string) => Promise<{ value: unknown } | null>,
): Promise<string | null> {
  const have = new Set(asked.split(' '));
  const listed = (await member('scopes_supported'))?.value;
  const supported = Array.isArray(listed) ? listed.filter((s): s is string => typeof s === 'string') : [];
  return [...supported, ...STANDARD_SCOPES].find((s) => s !== '' && !have.has(s) && !/\s/.test(s)) ?? null;
}

function lastStep(out: AuthorizeOutcome): string {
  const last = out.steps.at(-1);
  return last ? describeStep(last) : 'the consent page';
}
