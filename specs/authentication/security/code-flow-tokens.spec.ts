// What a code-flow login gives, checked as a relying party would (the public client's shared login,
// flows.userTokens): the ID token validates against the discovered keys (OIDC Core §3.1.3.7), user
// info speaks for the same user (§5.3.2), and a refresh never widens the grant (RFC 6749 §6, §3.3),
// tried on every client that holds a refresh token. Every token answer's Cache-Control is judged
// where it is received (lib/auth/token-cache.ts).
import { FLOW_GRANT, type Twin, type TwinGate } from '../../../lib/twin-gate.ts';
import { decodeJwt } from 'jose';
import { test, USER_SCOPE } from '../../../lib/auth/flow-fixtures.ts';
import type { Flows, TokenAnswer } from '../../../lib/auth/flow-types.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../../../lib/declare.ts';
import { issuerKeys } from '../../../lib/auth/id-token.ts';
import { idTokenValid, narrowingRecorded, sameSubject, widerRecorded } from '../../../lib/auth/conditions.ts';
import { productsSkip, tokenGave, userInfoGave } from '../../../lib/auth/flow-products.ts';
import { publicClient, userInfoWith } from '../flows/flow-checks.ts';
import { member } from './login.ts';
import { clauseSkip, runSkip, type SkipRecord } from '../../../lib/skip-record.ts';
import { notOfferedSkip } from '../../../lib/config.ts';

/** Scopes to ask beyond the grant: the first the grant does not hold is used. */
const WIDER = ['email', 'address', 'phone'];
/** The confidential client's login for the widening tries: a scope no other test asks, as it spends its refresh token. */
const WIDENING_SCOPE = 'openid profile offline_access';

/** A client holding a refresh token, and what authenticates it at the token endpoint. */
interface RefreshHolder {
  who: string;
  token: string;
  /** The scope its grant states (null: the scope asked). */
  scope: string | null;
  auth: Record<string, string>;
}

test(
  'code flow with PKCE: the ID token validates, user info speaks for its user, a refresh never widens',
  clauses(
    OPERATIONS.authFlow,
    'auth.sec.id-token.valid',
    'auth.sec.userinfo.sub',
    'auth.sec.refresh.no-widening',
    'auth.sec.refresh.wider-answer',
    'auth.sec.refresh.narrowing',
    'auth.sec.token.no-store',
    'auth.sec.token.pragma',
    'auth.flow.refusals',
  ),
  async ({ run, flows, anon, gate }, testInfo) => {
    const { clientId } = publicClient(run.cfg);
    const user = await flows.userTokens(USER_SCOPE);
    skipTest(user.problem ?? (user.exchange === null && runSkip({}, `${user.source} gave no code exchange`)));
    const t = { ex: user.exchange!, accessToken: user.accessToken, refreshToken: user.refreshToken };
    const nonce = user.nonce ?? undefined;
    const skipped: SkipRecord[] = [];

    // OIDC Core §3.1.3.3: the answer to an openid code exchange carries an ID token.
    const idToken = member(t.ex.body, 'id_token');
    const keys = await issuerKeys(run.cfg, anon);
    const of = 'the openid code exchange';
    const valid = await gate.call(idTokenValid, null, { of, idToken, keys, expect: { clientId, nonce }, ex: t.ex });
    if (valid === null) skipped.push(runSkip({}, `ID token not validated: ${keys}`));

    const sub = idToken === null ? null : subOf(idToken);
    const offUserinfo = notOfferedSkip(run.cfg, 'userinfo');
    const e = await flows.endpoint('userinfo');
    const info = offUserinfo ? null : await userInfoWith(flows, e, t.accessToken!);
    // Judged only where both products are there: an ID token with its sub (else auth.sec.id-token.valid
    // failed) and user info as auth.flow.userinfo requires it (one cause, one failure).
    const notCompared =
      info === null
        ? offUserinfo
        : sub === null
          ? clauseSkip('auth.sec.id-token.valid', 'user info sub not compared: no ID token sub')
          : productsSkip(userInfoGave(info));
    if (notCompared) skipClauses(testInfo, notCompared, 'auth.sec.userinfo.sub');
    else await gate.call(sameSubject, null, { info: info!, sub: sub! });

    // RFC 6749 §6 binds every client's refresh: each client that holds a refresh token is
    // tried, the public one from the shared login and the confidential one from its own (a
    // tenant may rightly give public clients none, OAuth 2.1 §4.3.1).
    const holders: RefreshHolder[] = [];
    if (t.refreshToken !== null)
      holders.push({
        who: `the public client ${clientId}`,
        token: t.refreshToken,
        scope: member(t.ex.body, 'scope'),
        auth: { client_id: clientId },
      });
    const post = run.cfg.auth.post;
    if (post) {
      const conf = await flows.userTokens(WIDENING_SCOPE, { confidential: true });
      if (conf.problem === null && conf.refreshToken !== null && conf.exchange !== null)
        holders.push({
          who: `the confidential client ${post.id}`,
          token: conf.refreshToken,
          scope: member(conf.exchange.body, 'scope') ?? WIDENING_SCOPE,
          auth: { client_id: post.id, client_secret: post.secret },
        });
    }
    if (holders.length === 0)
      skipped.push(
        runSkip(
          { setting: 'IDM_POST_CLIENT_ID' },
          'no client got a refresh_token for scope offline_access with prompt=consent: allow offline access for the Post client (IDM_POST_CLIENT_ID) on the tenant',
        ),
      );
    for (const h of holders) await judgeRefreshOf(h, flows, gate);
    // A part that could not be judged keeps its reason, whatever else failed (a failed check
    // stops nothing: the test stays failed, its record is kept for the clauses it left).
    skipTest(skipped);
  },
);

// Helpers

/** A refresh asking wider, one asking narrower, and the plain one (the twin), for one client. */
async function judgeRefreshOf(h: RefreshHolder, flows: Flows, gate: TwinGate): Promise<void> {
  const granted = scopeSet(h.scope ?? USER_SCOPE);
  const extra = WIDER.find((s) => !granted.has(s)) ?? 'email';
  // A rotating tenant hands a new refresh token with each answer: the next request uses it.
  let refreshToken = h.token;
  const refresh = async (scope?: string) => {
    const a = await flows.token({
      grant_type: 'refresh_token',
      ...h.auth,
      refresh_token: refreshToken,
      ...(scope === undefined ? {} : { scope }),
    });
    refreshToken = a.refreshToken ?? refreshToken;
    return a;
  };
  const wider = await refresh([...granted, extra].join(' '));
  const narrower = await refresh('openid');
  await gate.call(narrowingRecorded, null, { who: h.who, narrower: narrower.ex });
  // The accepted twin: the same refresh without a scope (RFC 6749 §6: the grant as it was).
  const plain = await refresh();
  const twin = gate.gave(tokenGave('auth.flow.refresh', plain.ex));
  await judgeWidening(gate, twin, wider, granted, extra, h.who);
}

/** RFC 6749 §3.3: a scope is a space-separated set. */
function scopeSet(scope: string): Set<string> {
  return new Set(scope.split(' ').filter((s) => s !== ''));
}

/**
 * RFC 6749 §6 forbids widening, not answering: a refusal passes as a refusal, and a token
 * passes when the scope it states (§5.1; none stated = the scope asked) is within the grant.
 */
async function judgeWidening(
  gate: TwinGate,
  twin: Twin,
  wider: TokenAnswer,
  granted: Set<string>,
  extra: string,
  who: string,
): Promise<void> {
  const what = `${who}: refresh asking for ${extra} beyond the grant`;
  await gate.call(widerRecorded, null, { what, wider: wider.ex });
  if (wider.ex.answer.issued === null) {
    gate.refused(twin, 'auth.sec.refresh.no-widening', wider.ex, what, FLOW_GRANT);
    return;
  }
  const stated = member(wider.ex.body, 'scope');
  const answered = scopeSet(stated ?? [...granted, extra].join(' '));
  const beyond = [...answered].filter((s) => !granted.has(s));
  // A widened grant fails the clause whatever the twin did.
  gate.holds(
    twin,
    'auth.sec.refresh.no-widening',
    beyond.length === 0,
    beyond.length === 0
      ? `${what}: answered ${wider.ex.status} granting no more than the original scope ("${stated}")`
      : `${what}: answered ${wider.ex.status} granting ${beyond.join(' ')} beyond the original scope (${stated === null ? 'no scope member: the scope asked is granted, RFC 6749 §5.1' : `scope "${stated}"`})`,
    wider.ex,
    true,
  );
}

function subOf(token: string): string | null {
  try {
    const sub = decodeJwt(token).sub;
    return typeof sub === 'string' ? sub : null;
  } catch {
    return null;
  }
}
