// The settings that govern a user's tokens for the API (§2.1, §2.3): token_lifetime_for_web on the
// implicit flow's token, a DPoP proof required of public clients on the public client's code
// exchange, allow_offline_access on the refresh token a user's grant may carry, token_lifetime at
// the moment of a refresh, and the user policy of subject_type_authorization.
// The user's grant is the password grant of the confidential client (IDM_POST_CLIENT_*, the test
// user), or where the tenant does not offer it the same client's code flow through the hosted
// login; each refusal beside the same grant accepted for the same API before. Where the
// authentication API is another server than the tenant holding the resource server, no user flow
// reaches that API: these rows are not applicable.
import { test, type Flows } from '../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../../lib/declare.ts';
import { clausesOf } from '../../lib/condition.ts';
import { notOfferedSkip, separateAuthUrl } from '../../lib/config.ts';
import { runSkip, tenantSkip } from '../../lib/skip-record.ts';
import { newState } from '../../lib/auth/pkce.ts';
import { onLiveCredentials } from '../../lib/auth/live-credential.ts';
import { describeAnswer } from '../../lib/answer-words.ts';
import { classify } from '../../lib/answer-class.ts';
import type { ApiToken, ApiTokens, PublicCode, UserGrant } from '../../lib/api-tokens/requests.ts';
import type { Twin, TwinGate } from '../../lib/twin-gate.ts';
import { confirmed, issuedTwin, rowsOf, lifetimeAbove, writeSetting, type Row } from '../../lib/api-tokens/rows.ts';
import {
  apiTokenIssued,
  lifetimeOf,
  offlineAccessAs,
  tokenLifetime,
  webLifetime,
} from '../../lib/api-tokens/conditions.ts';
import { recorded } from '../../lib/management/recorded.ts';

const REFUSAL_STATUS = recorded('rs.settings.refusal.status');
const OFFLINE = 'rs.settings.allow_offline_access';
const USER_DENY = 'rs.settings.subject_type.user.deny_all';
const WEB = 'rs.settings.token_lifetime_for_web';
const REQUIRED_FOR = 'rs.settings.pop.required_for';

test.describe('resource-server settings in effect: user tokens', () => {
  test(
    "a user's tokens for the API follow its token_lifetime_for_web (implicit), a proof required of public clients (the public client's code), allow_offline_access, token_lifetime at a refresh and user policy",
    clauses(
      OPERATIONS.settings,
      ...clausesOf(
        webLifetime,
        REQUIRED_FOR,
        apiTokenIssued,
        offlineAccessAs,
        tokenLifetime,
        USER_DENY,
        REFUSAL_STATUS,
      ),
    ),
    async ({ run, rs, gate, anon, suite, flows }, info) => {
      const { cfg } = run;
      const { x, tokens } = rowsOf({ run, rs, gate, anon, suite, info });
      skipTest(
        separateAuthUrl(cfg) !== null &&
          tenantSkip(
            {},
            `not applicable: the authentication API (${cfg.auth.url}) is another server than the tenant holding the resource server`,
          ),
      );

      await implicitLifetime(x, flows, tokens);
      const pop = await publicProofRequired(x, flows, tokens);
      if (pop === 'lost') return;
      const popWritten = pop === 'written';

      const post = cfg.auth.post;
      const missing = !post
        ? runSkip(
            { setting: 'IDM_POST_CLIENT_ID' },
            'needs a confidential client: set IDM_POST_CLIENT_ID and IDM_POST_CLIENT_SECRET',
          )
        : !cfg.auth.user
          ? runSkip({ setting: 'IDM_TEST_USERNAME' }, 'needs a test user: set IDM_TEST_USERNAME and IDM_TEST_PASSWORD')
          : null;
      // The password grant where the tenant offers it, else the code flow through the hosted login;
      // a password grant that gives no token (a tenant that stopped offering it undeclared) gives way
      // to the code flow too, so no row leans on a grant the tenant may not have.
      const password = !notOfferedSkip(cfg, 'password');
      const code = cfg.auth.redirectUri !== null;
      if (missing || (!password && !code))
        return skipClauses(
          info,
          (missing ?? notOfferedSkip(cfg, 'password'))!,
          OFFLINE,
          USER_DENY,
          'rs.settings.token_lifetime',
        );

      // The user's grant for the API, with refresh tokens allowed and a lifetime of the run's (and
      // no proof required of anyone: the rows below are not the proof's).
      const first = await writeSetting(
        x,
        {
          allow_offline_access: true,
          token_lifetime: lifetimeAbove(rs, 29),
          ...(popWritten ? { proof_of_possession: null } : {}),
        },
        [OFFLINE, USER_DENY],
      );
      if (!first || (!popWritten && !(await confirmed(x, first, [OFFLINE, USER_DENY, 'rs.settings.token_lifetime']))))
        return;
      let byCode = !password;
      const grant = async (): Promise<UserGrant> =>
        byCode
          ? tokens.codeFlow(flows, post!, SCOPE)
          : { t: await tokens.password(flows, post!, SCOPE), refusedAtLogin: null };
      let granted = await grant();
      if (!byCode && !granted.t?.access && code) {
        byCode = true;
        granted = await grant();
      }
      const twin = granted.t
        ? await issuedTwin(x, granted.t, [OFFLINE, USER_DENY])
        : gate.accepted(
            'rs.settings.token.issued',
            false,
            `the user's grant for the API: ${granted.refusedAtLogin}`,
            granted.refusedAtLogin ?? '',
          );
      if (!granted.t) gate.skip(twin, OFFLINE, USER_DENY);
      if (!twin.ok || !granted.t) return;
      await gate.call(offlineAccessAs, null, { t: granted.t, allowed: true });
      await gate.call(tokenLifetime, null, lifetimeOf(granted.t, first.token_lifetime as number));

      // A refresh issues its access token under the settings of its own moment.
      const rt = granted.t.refresh;
      const later = rt ? await writeSetting(x, { token_lifetime: lifetimeAbove(rs, 31) }, []) : null;
      if (later && rt) {
        const refreshed = await tokens.refresh(flows, post!, rt);
        if ((await issuedTwin(x, refreshed, [])).ok)
          await gate.call(tokenLifetime, null, lifetimeOf(refreshed, later.token_lifetime as number));
      }

      // No refresh token for the API once allow_offline_access is false: dropped, or the grant refused.
      if (await writeSetting(x, { allow_offline_access: false }, [OFFLINE])) {
        const g = await grant();
        if (g.t?.access) await gate.call(offlineAccessAs, null, { t: g.t, allowed: false });
        else refusedUnder(gate, twin, OFFLINE, g);
        if (g.t && !g.t.access) await gate.call(REFUSAL_STATUS, null, { what: `${OFFLINE}: ${g.t.what}`, ex: g.t.ex });
      }

      if (await writeSetting(x, { subject_type_authorization: { user: { policy: 'deny_all' } } }, [USER_DENY])) {
        const g = await grant();
        refusedUnder(gate, twin, USER_DENY, g);
        if (g.t) await gate.call(REFUSAL_STATUS, null, { what: `${USER_DENY}: ${g.t.what}`, ex: g.t.ex });
      }
    },
  );
});

// Helpers

const SCOPE = 'openid offline_access';

/**
 * A user's grant refused under a setting, beside the same grant accepted before it: at the token
 * endpoint a 4xx (the gate), or at the login itself an error sent back instead of a code.
 */
function refusedUnder(gate: TwinGate, twin: Twin, clause: string, g: UserGrant): void {
  if (g.t) gate.refusedWith(twin, clause, g.t.ex, '4xx', `${g.t.what} under the setting`);
  else gate.holds(twin, clause, true, `refused at the login: ${g.refusedAtLogin}`);
}

/**
 * §2.3 required_for public_clients, its public side (the confidential side is proof-of-possession.ts):
 * the public client's code for the API exchanged without a DPoP proof is refused (RFC 9449 §5),
 * beside a code exchanged with one and accepted — each refusal on a live code (its exchange with
 * the proof after it, else a fresh login's: lib/auth/live-credential.ts). The row's write is the
 * test's first, read back once: 'lost' when it did not read back (the test's rows skipped naming
 * that), 'written' when the next write must lift it.
 */
async function publicProofRequired(
  x: Row,
  flows: Flows,
  tokens: ApiTokens,
): Promise<'written' | 'not written' | 'lost'> {
  const { cfg, gate, info } = x;
  const clientId = cfg.auth.publicClientId;
  const missing = !clientId
    ? runSkip({ setting: 'IDM_PUBLIC_CLIENT_ID' }, 'needs a public client for its code flow: set IDM_PUBLIC_CLIENT_ID')
    : !cfg.auth.redirectUri
      ? runSkip({ setting: 'IDM_REDIRECT_URI' }, 'needs the redirect URI of the public client: set IDM_REDIRECT_URI')
      : !cfg.auth.user
        ? runSkip({ setting: 'IDM_TEST_USERNAME' }, 'needs a test user: set IDM_TEST_USERNAME and IDM_TEST_PASSWORD')
        : null;
  if (missing) {
    skipClauses(info, missing, REQUIRED_FOR);
    return 'not written';
  }
  const pop = await writeSetting(
    x,
    { proof_of_possession: { mechanism: 'dpop', required: true, required_for: 'public_clients' } },
    [REQUIRED_FOR],
  );
  if (!pop) return 'not written';
  if (!(await confirmed(x, pop, [REQUIRED_FOR, OFFLINE, USER_DENY, 'rs.settings.token_lifetime']))) return 'lost';

  let notCode: { problem: string; notDriven: boolean } | null = null;
  const fresh = async (): Promise<PublicCode | null> => {
    const c = await tokens.publicCode(flows, clientId!);
    if ('code' in c) return c;
    notCode = c;
    return null;
  };
  const first = await fresh();
  const live = first
    ? await onLiveCredentials<PublicCode, ApiToken>({
        first,
        fresh,
        genuine: (c) => tokens.exchangePublic(flows, c, { dpop: true }),
        attempts: [{ id: REQUIRED_FOR, send: (c) => tokens.exchangePublic(flows, c, { dpop: false }) }],
      })
    : null;
  const without = live?.answers.get(REQUIRED_FOR);
  const withProof = live?.twin ?? null;
  const issued = live?.twinCredential != null;
  // A token issued without the proof fails whatever its twin did, and a fault is the fault clause's:
  // a refusal counts only beside the twin.
  if (without && (issued || classify(without.ex).class !== 'refused')) {
    const twin = gate.given('rs.settings.token.issued', true, '');
    if (gate.refusedWith(twin, REQUIRED_FOR, without.ex, '4xx', `${without.what}, a proof required of public clients`))
      await gate.call(REFUSAL_STATUS, null, { what: `${REQUIRED_FOR}: ${without.what}`, ex: without.ex });
    return 'written';
  }
  if (withProof && gate.faultedFor(withProof.ex, [REQUIRED_FOR], withProof.what)) return 'written';
  const why = notCode as { problem: string; notDriven: boolean } | null;
  skipClauses(
    info,
    why?.notDriven
      ? runSkip({}, why.problem)
      : tenantSkip(
          { answer: 'refused' },
          `not judged: the public client's code for the API gave no token with a proof beside it (${why?.problem ?? (withProof ? describeAnswer(withProof.ex) : 'no code')})`,
        ),
    REQUIRED_FOR,
  );
  return 'written';
}

/**
 * §2.1: a token for the API through the implicit flow (the public client, the hosted login) lives
 * token_lifetime_for_web, as the state this test starts from holds it (§2.2 gives no way to write it).
 */
async function implicitLifetime(x: Row, flows: Flows, tokens: ApiTokens): Promise<void> {
  const { cfg, rs, gate, info } = x;
  const off = notOfferedSkip(cfg, 'implicit');
  // The state of the moment: a lower token_lifetime written earlier may have clamped it (§2.1).
  const now = off ? null : await rs.read();
  // A fault is no state: mgmt.error.server-fault's, never a resource server without the field.
  if (now && gate.faultedFor(now, [WEB], 'PATCH {} reading token_lifetime_for_web')) return;
  const web = (now?.body as { token_lifetime_for_web?: unknown } | undefined)?.token_lifetime_for_web;
  const missing = !cfg.auth.publicClientId || !cfg.auth.redirectUri;
  if (off || missing || typeof web !== 'number')
    return skipClauses(
      info,
      off ??
        (missing
          ? runSkip(
              { setting: 'IDM_PUBLIC_CLIENT_ID' },
              'needs a public client and its redirect URI: set IDM_PUBLIC_CLIENT_ID and IDM_REDIRECT_URI',
            )
          : tenantSkip({}, 'not applicable: the resource server shows no token_lifetime_for_web')),
      WEB,
    );
  const out = await flows.walk(
    await flows.endpoint('authorize'),
    {
      response_type: 'token',
      client_id: cfg.auth.publicClientId!,
      redirect_uri: cfg.auth.redirectUri!,
      scope: 'openid',
      state: newState(),
      audience: tokens.audience,
    },
    [cfg.auth.redirectUri!],
  );
  const access = out.params.access_token;
  if (!access) {
    const why =
      out.notDriven ??
      out.problem ??
      `the browser came back without an access token (${out.stoppedAt ?? 'no redirect'})`;
    return skipClauses(
      info,
      out.notDriven
        ? runSkip({ page: out.stoppedAt ?? undefined }, `login not driven: ${why}`)
        : tenantSkip({ answer: 'refused' }, `not judged: the implicit flow for the API gave no token: ${why}`),
      WEB,
    );
  }
  const read = await tokens.readAccess(access);
  await gate.call(webLifetime, null, {
    what: `the implicit flow of ${cfg.auth.publicClientId} for ${tokens.audience}`,
    read,
    expiresIn: out.params.expires_in,
    seconds: web,
  });
}
