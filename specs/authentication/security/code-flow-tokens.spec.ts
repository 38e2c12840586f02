// What a code-flow login gives, checked as a relying party would (the public client's shared
// login, flows.userTokens, which user info and the Bearer refusals use too): the ID
// token validates against the discovered keys (OIDC Core §3.1.3.7), user info speaks for the
// same user (§5.3.2), and a refresh never widens the grant (RFC 6749 §6: refused, or answered
// within the original scope, §3.3). Every token answer's
// Cache-Control is judged where it is received (lib/auth/token-cache.ts).
import { FLOW_GRANT, type Twin, type TwinGate } from '../../../lib/auth/twin-gate.ts';
import { decodeJwt } from 'jose';
import { test, USER_SCOPE, type TokenAnswer } from '../../../lib/auth/flow-fixtures.ts';
import type { Checks } from '../../../lib/checks.ts';
import { clauses, OPERATIONS, skipTest } from '../../../lib/declare.ts';
import { issuerKeys } from '../../../lib/auth/id-token.ts';
import { idTokenValid, sameSubject } from '../../../lib/auth/conditions.ts';
import { isObject } from '../../../lib/values.ts';
import { failureCause, issued } from '../../../lib/auth/acceptance.ts';
import { publicClient, userInfoWith } from '../flows/flow-checks.ts';
import { member } from './login.ts';
import { runSkip, clauseSkip, type SkipRecord } from '../../../lib/skip-record.ts';
import { notOfferedSkip } from '../../../lib/config.ts';

/** Scopes to ask beyond the grant: the first the grant does not hold is used. */
const WIDER = ['email', 'address', 'phone'];

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
  async ({ run, flows, check, anon, gate }) => {
    const { clientId } = publicClient(run.cfg);
    const user = await flows.userTokens(USER_SCOPE);
    skipTest(user.problem ?? (user.exchange === null && runSkip({}, `${user.source} gave no code exchange`)));
    const t = { ex: user.exchange!, accessToken: user.accessToken, refreshToken: user.refreshToken };
    const nonce = user.nonce ?? undefined;
    const skipped: SkipRecord[] = [];

    // OIDC Core §3.1.3.3: the answer to an openid code exchange carries an ID token.
    const idToken = member(t.ex.body, 'id_token');
    const keys = await issuerKeys(run.cfg, anon);
    const valid = await idTokenValid(check, 'the openid code exchange', idToken, keys, { clientId, nonce }, t.ex);
    if (valid === null) skipped.push(runSkip({}, `ID token not validated: ${keys}`));

    const sub = idToken === null ? null : subOf(idToken);
    const offUserinfo = notOfferedSkip(run.cfg, 'userinfo');
    const e = await flows.endpoint('userinfo');
    const info = offUserinfo ? null : await userInfoWith(flows, e.url, t.accessToken!);
    if (info === null) skipped.push(offUserinfo!);
    else if (sub === null) skipped.push(runSkip({}, 'user info sub not compared: no ID token sub'));
    else if (info.status !== 200 || !isObject(info.body))
      skipped.push(clauseSkip('auth.flow.userinfo', `user info answered ${info.status} — auth.flow.userinfo says why`));
    else sameSubject(check, info, sub);

    if (t.refreshToken === null)
      skipped.push(runSkip({}, 'no refresh_token for scope offline_access: refresh not exercised'));
    else {
      const granted = scopeSet(member(t.ex.body, 'scope') ?? USER_SCOPE);
      const extra = WIDER.find((s) => !granted.has(s)) ?? 'email';
      // A rotating tenant hands a new refresh token with each answer: the next request uses it.
      let refreshToken = t.refreshToken;
      const refresh = async (scope?: string) => {
        const a = await flows.token({
          grant_type: 'refresh_token',
          client_id: clientId,
          refresh_token: refreshToken,
          ...(scope === undefined ? {} : { scope }),
        });
        refreshToken = a.refreshToken ?? refreshToken;
        return a;
      };
      const wider = await refresh([...granted, extra].join(' '));
      const narrower = await refresh('openid');
      check.observe(
        'auth.sec.refresh.narrowing',
        `refresh asking for openid only answered ${narrower.ex.status}${narrower.accessToken ? ` with scope ${member(narrower.ex.body, 'scope') ?? '(not stated)'}` : ''}`,
        narrower.ex,
      );
      // The accepted twin: the same refresh without a scope (RFC 6749 §6: the grant as it was).
      const plain = await refresh();
      const twin = gate.given('auth.flow.refresh', issued(plain.ex), failureCause(plain.ex));
      judgeWidening(gate, twin, check, wider, granted, extra);
    }
    // Nothing failed but a part could not be judged: the reason is the test's.
    skipTest(check.failedCount() === 0 && skipped);
  },
);

// Helpers

/** RFC 6749 §3.3: a scope is a space-separated set. */
function scopeSet(scope: string): Set<string> {
  return new Set(scope.split(' ').filter((s) => s !== ''));
}

/**
 * RFC 6749 §6 forbids widening, not answering: a refusal passes as a refusal, and a token
 * passes when the scope it states (§5.1; none stated = the scope asked) is within the grant.
 */
function judgeWidening(
  gate: TwinGate,
  twin: Twin,
  check: Checks,
  wider: TokenAnswer,
  granted: Set<string>,
  extra: string,
): void {
  const what = `refresh asking for ${extra} beyond the grant`;
  if (!issued(wider.ex)) {
    check.observe('auth.sec.refresh.wider-answer', `${what}: refused with ${wider.ex.status}`, wider.ex);
    gate.refused(twin, 'auth.sec.refresh.no-widening', wider.ex, what, FLOW_GRANT);
    return;
  }
  const stated = member(wider.ex.body, 'scope');
  const answered = scopeSet(stated ?? [...granted, extra].join(' '));
  const beyond = [...answered].filter((s) => !granted.has(s));
  check.observe(
    'auth.sec.refresh.wider-answer',
    `${what}: answered ${wider.ex.status} with ${stated === null ? 'no scope member' : `scope "${stated}"`}`,
    wider.ex,
  );
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
