// A consent page declined (RFC 6749 §4.1.2.1; OIDC Core §3.1.2.6): the browser is sent back to the
// client with error=access_denied and the state it sent, never with a code. A tenant may show its
// page to some applications only, so the decline is tried on every code-flow client of the run, the
// first that meets a consent page judged and named; the login that met it, accepted, is the twin.
// A tenant may remember a consent (OIDC Core §3.1.2.1 only says it SHOULD ask again): before
// concluding a client is shown none, the decline asks for a scope no login of the run asks.
import { test, USER_SCOPE } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../../../lib/declare.ts';
import { codeRequest } from '../../../lib/auth/pkce.ts';
import type { Flows, UserTokens } from '../../../lib/auth/flow-types.ts';
import type { AuthorizeOutcome } from '../../../lib/auth/login-walk.ts';
import { metadataMember } from '../../../lib/auth/endpoints.ts';
import { notDrivenSkip } from '../../../lib/auth/flow-logins.ts';
import { describeStep, describeSteps } from '../../../lib/auth/walk-steps.ts';
import { NO_REDIRECT_URI } from '../../../lib/auth/needs.ts';
import { runSkip, tenantSkip, type SkipRecord } from '../../../lib/skip-record.ts';
import type { AuthConfig } from '../../../lib/config.ts';

/** The confidential client's login (the refresh/revoke test's login, shared). */
const CONFIDENTIAL_SCOPE = 'openid offline_access';
/** OIDC Core §5.4's scopes, asked anew where the server's metadata lists none the run's logins do not ask. */
const STANDARD_SCOPES = ['profile', 'email', 'address', 'phone'];

/** A code-flow client of the run: the scope of its shared login and the clause that judges that login (the twin). */
interface CodeFlowClient {
  id: string;
  kind: 'public' | 'confidential';
  setting: string;
  scope: string;
  twin: string;
}

/** What declining on one client came to: its consent page met, none shown (what was asked), or the run's gap. */
type Tried =
  | { client: CodeFlowClient; met: { out: AuthorizeOutcome; state: string } }
  | { client: CodeFlowClient; none: string }
  | { client: CodeFlowClient; gap: SkipRecord };

test(
  'a declined consent page sends error=access_denied and the state to the redirect URI, never a code',
  clauses(OPERATIONS.authFlow, 'auth.sec.consent.denied'),
  async ({ run, flows, gate, anon }) => {
    const { redirectUri } = run.cfg.auth;
    const clients = codeFlowClients(run.cfg.auth);
    skipTest(!redirectUri && NO_REDIRECT_URI);
    skipTest(
      clients.length === 0 &&
        runSkip(
          { setting: 'IDM_PUBLIC_CLIENT_ID' },
          'needs a client allowed the code flow: set IDM_PUBLIC_CLIENT_ID or IDM_POST_CLIENT_ID',
        ),
    );
    const logins = new Map<CodeFlowClient, UserTokens>();
    const loginOf = async (c: CodeFlowClient): Promise<UserTokens> => {
      const known = logins.get(c);
      if (known) return known;
      const user = await flows.userTokens(c.scope, { confidential: c.kind === 'confidential' });
      logins.set(c, user);
      return user;
    };
    // The shared logins in order, up to one that met a consent page: that client is tried first.
    let shown: CodeFlowClient | undefined;
    for (const c of clients) {
      if ((await loginOf(c)).consent === null) continue;
      shown = c;
      break;
    }
    const member = (m: string) => metadataMember(run.cfg, anon, m);
    const tried: Tried[] = [];
    for (const c of shown ? [shown, ...clients.filter((x) => x !== shown)] : clients) {
      const t = await tryDecline(flows, c, await loginOf(c), redirectUri!, member);
      tried.push(t);
      if ('met' in t) break;
    }
    const last = tried.at(-1)!;
    const nones = tried.flatMap((t) => ('none' in t ? [t] : []));
    if (!('met' in last)) {
      const asked = nones.map((t) => t.none).join('; nor to ');
      // A client whose login the run could not drive may show one: the run's gap, never "not applicable".
      const gap = tried.flatMap((t) => ('gap' in t ? [t.gap] : []))[0];
      skipTest(gap && { ...gap, text: `${gap.text}${asked ? `; no consent page shown to ${asked}` : ''}` });
      skipTest(tenantSkip({}, `not applicable: the tenant showed no consent page to ${asked}`));
    }
    const { client, met } = last as Extract<Tried, { met: unknown }>;
    const out = met.out;
    // A consent page the walk finds no decline control on is the suite's gap (a link or a button no
    // selector names), not the tenant's choice.
    skipTest(
      out.consent === 'no decline control' &&
        runSkip(
          { setting: 'IDM_LOGIN_DECLINE_SELECTOR', ...(out.stoppedAt === null ? {} : { page: out.stoppedAt }) },
          `consent decline not driven: no control on the consent page shown to ${name(client)} matches IDM_LOGIN_DECLINE_SELECTOR (${lastStep(out)}); set it to the page's decline control`,
        ),
    );
    const twin = gate.given(client.twin, true, '');
    const p = out.params;
    const ok =
      out.callback !== null && p.error === 'access_denied' && p.state === met.state && !p.code && !p.access_token;
    const where = out.callback
      ? `the redirect URI received ${Object.keys(p).join(', ') || 'no parameters'}${p.error ? ` (error ${p.error})` : ''}${p.state !== undefined && p.state !== met.state ? ' (another state)' : ''}`
      : `the browser stayed at ${out.stoppedAt ?? 'the tenant'} (${out.problem ?? 'no redirect'})`;
    const passedOver = nones.length ? ` (none shown to ${nones.map((t) => t.client.id).join(', ')})` : '';
    gate.holds(
      twin,
      'auth.sec.consent.denied',
      ok,
      `consent declined for ${name(client)}${passedOver} on ${lastStep(out)}: ${where}`,
    );
  },
);

// Helpers

/** The run's code-flow clients, the public client first (its login is the one most tests share). */
function codeFlowClients(auth: Pick<AuthConfig, 'publicClientId' | 'post'>): CodeFlowClient[] {
  const rows: Array<CodeFlowClient | null> = [
    auth.publicClientId === null
      ? null
      : {
          id: auth.publicClientId,
          kind: 'public',
          setting: 'IDM_PUBLIC_CLIENT_ID',
          scope: USER_SCOPE,
          twin: 'auth.flow.code.pkce',
        },
    auth.post === null
      ? null
      : {
          id: auth.post.id,
          kind: 'confidential',
          setting: 'IDM_POST_CLIENT_ID',
          scope: CONFIDENTIAL_SCOPE,
          twin: 'auth.flow.code.confidential',
        },
  ];
  return rows.filter((c): c is CodeFlowClient => c !== null);
}

/**
 * The decline on one client: asking its shared login's scope when that login met a consent page,
 * else (or when that page is remembered now) a scope besides that no login of the run asks.
 */
async function tryDecline(
  flows: Flows,
  client: CodeFlowClient,
  user: UserTokens,
  redirectUri: string,
  member: (name: string) => Promise<{ value: unknown } | null>,
): Promise<Tried> {
  // A login that failed before any consent page leaves nothing to say about one: its flow's clause says why.
  if (user.problem !== null) return { client, gap: user.problem };
  const asked = [`"${client.scope}" with prompt=consent`];
  let seen = user.consent === null ? null : await declined(flows, client.id, redirectUri, client.scope);
  let steps = seen?.out.steps ?? [];
  if (seen !== null && seen.out.notDriven !== null) return { client, gap: notDrivenSkip(seen.out)! };
  if (seen === null || seen.out.consent === null) {
    const anew = await scopeNotAsked(`${USER_SCOPE} ${client.scope}`, member);
    if (anew !== null) {
      seen = await declined(flows, client.id, redirectUri, `${client.scope} ${anew}`);
      steps = seen.out.steps;
      asked.push(`"${anew}" besides`);
      if (seen.out.notDriven !== null) return { client, gap: notDrivenSkip(seen.out)! };
    }
  }
  if (seen !== null && seen.out.consent !== null) return { client, met: seen };
  return {
    client,
    none: `${name(client)} asking ${asked.join(', nor asking ')}${steps.length ? ` (${describeSteps(steps)})` : ''}`,
  };
}

/** The client's login asking `scope`, its consent page declined: the walk and the state it sent. */
async function declined(
  flows: Flows,
  clientId: string,
  redirectUri: string,
  scope: string,
): Promise<{ out: AuthorizeOutcome; state: string }> {
  const { params, state } = codeRequest(clientId, redirectUri, scope);
  const out = await flows.walk(await flows.endpoint('authorize'), params, [redirectUri], undefined, {
    consent: 'decline',
  });
  return { out, state };
}

/**
 * A scope no login of the run asks (`asked`), so none its consents granted: the first the server's
 * metadata lists (scopes_supported, RFC 8414 §2), else one of OIDC Core §5.4's; null when none is left.
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

/** The client as the evidence names it: its id and the setting that names it. */
function name(c: CodeFlowClient): string {
  return `the ${c.kind} client ${c.id} (${c.setting})`;
}

function lastStep(out: AuthorizeOutcome): string {
  const last = out.steps.at(-1);
  return last ? describeStep(last) : 'the consent page';
}
