// What the flow specs share: the public client they log in with, a login for a code, the wrong
// presentations of a code judged where they met a live one, and logout to the registered return URL.
import type { Flows, LogoutAnswer } from '../../../lib/auth/flow-fixtures.ts';
import type { Config } from '../../../lib/config.ts';
import { FLOW_GRANT, type Twin, type TwinGate } from '../../../lib/twin-gate.ts';
import type { Endpoint } from '../../../lib/auth/endpoints.ts';
import { endpointOf } from '../../../lib/auth/conditions.ts';
import type { Exchange } from '../../../lib/http.ts';
import { newState, type PkcePair } from '../../../lib/auth/pkce.ts';
import { skipClauses, skipTest } from '../../../lib/declare.ts';
import type { LiveAttempt, LiveRun } from '../../../lib/auth/live-credential.ts';
import type { AttackRow } from '../../../lib/auth/attacks/catalogue.ts';
import { runSkip } from '../../../lib/skip-record.ts';
import { notOfferedSkip } from '../../../lib/config.ts';
import { NO_REDIRECT_URI } from '../../../lib/auth/needs.ts';

/** The public client and its redirect URI; skips the test naming the setting that is missing. */
export function publicClient(cfg: Config): { clientId: string; redirectUri: string } {
  const { publicClientId, redirectUri } = cfg.auth;
  skipTest(
    !publicClientId &&
      runSkip(
        { setting: 'IDM_PUBLIC_CLIENT_ID' },
        'needs a public client (auth method none; PKCE, implicit allowed): set IDM_PUBLIC_CLIENT_ID',
      ),
  );
  skipTest(!redirectUri && NO_REDIRECT_URI);
  return { clientId: publicClientId!, redirectUri: redirectUri! };
}

/**
 * Logs in through the login page for a code (RFC 6749 §4.1.1); the code when the redirect
 * carries it and the state sent (§4.1.2), else what happened instead (the redirect chain).
 */
export async function codeFor(
  flows: Flows,
  gate: TwinGate,
  clientId: string,
  redirectUri: string,
  pair: PkcePair | null,
): Promise<{ code: string; problem: null } | { code: null; problem: string }> {
  const e = await flows.endpoint('authorize');
  const state = newState();
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'openid profile',
    state,
  };
  if (pair) Object.assign(params, { code_challenge: pair.challenge, code_challenge_method: pair.method });
  const out = await flows.authorize(e, params, [redirectUri]);
  await gate.call(endpointOf, null, { flow: `authorization code${pair ? ' with PKCE' : ''}`, at: e });
  const code = out.params.code ?? null;
  if (out.callback !== null && code !== null && out.params.state === state) return { code, problem: null };
  const seen = out.callback
    ? `the redirect URI received ${['code', 'state', 'error'].filter((k) => k in out.params).join(', ') || 'no parameters'}${out.params.state !== undefined && out.params.state !== state ? ' (another state)' : ''}${out.params.error ? ` (error ${out.params.error})` : ''}`
    : (out.problem ?? 'no redirect');
  return { code: null, problem: `authorization request for client ${clientId}: ${seen}` };
}

/**
 * Logout's URL as tenants of this kind take it: the client ID and the return URL in the query;
 * a discovered end_session_endpoint (OpenID Connect RP-Initiated Logout) names the return URL
 * post_logout_redirect_uri, so both names are sent and each side ignores the other's.
 */
export function logoutUrl(e: Endpoint, clientId: string, returnTo: string, extra: Record<string, string> = {}): string {
  const u = new URL(e.url);
  u.searchParams.set('client_id', clientId);
  u.searchParams.set('returnTo', returnTo);
  if (e.source === 'discovery') u.searchParams.set('post_logout_redirect_uri', returnTo);
  for (const [k, v] of Object.entries(extra)) u.searchParams.set(k, v);
  return u.toString();
}

/**
 * The client a logout names and its registered return URL; skips the test naming the setting
 * that is missing (the public client, else the Post client).
 */
export function logoutClient(cfg: Config): { clientId: string; returnTo: string; confidential: boolean } {
  const { auth } = cfg;
  skipTest(notOfferedSkip(cfg, 'logout'));
  const clientId = auth.publicClientId ?? auth.post?.id;
  skipTest(
    !clientId &&
      runSkip(
        { setting: 'IDM_PUBLIC_CLIENT_ID' },
        'needs a client with a registered logout return URL: set IDM_PUBLIC_CLIENT_ID (or IDM_POST_CLIENT_ID)',
      ),
  );
  skipTest(
    !auth.logoutReturnTo &&
      runSkip(
        { setting: 'IDM_LOGOUT_RETURN_TO' },
        'needs a logout return URL registered for that client: set IDM_LOGOUT_RETURN_TO',
      ),
  );
  return { clientId: clientId!, returnTo: auth.logoutReturnTo!, confidential: !auth.publicClientId };
}

/** A wrong presentation of a code: a row of the attack catalogue (its clause), said as `what`. */
export interface WrongCode<C = string> extends LiveAttempt<C> {
  what: string;
  row: AttackRow;
}

/**
 * Each wrong presentation refused beside the code's right exchange, where it met a live code
 * (lib/auth/live-credential.ts); one no fresh code was had for is not judged: the login that would
 * have given one failed.
 */
export function refusedOnLiveCodes<C>(
  gate: TwinGate,
  twin: Twin,
  live: LiveRun<C>,
  wrong: readonly WrongCode<C>[],
): void {
  for (const w of wrong) {
    const answer = live.answers.get(w.id);
    if (answer !== undefined) gate.refused(twin, w.row.clause, answer.ex, w.what, { ...FLOW_GRANT, attack: w.row });
    else
      skipClauses(
        gate.info,
        runSkip({ answer: 'refused' }, `not judged: no live code to present ${w.what} on (a fresh login gave none)`),
        w.row.clause,
      );
  }
}

/**
 * An ID token of the logout's client from a login of its own, for `id_token_hint` (OIDC
 * RP-Initiated Logout 1.0 §2 RECOMMENDS it; some servers return to post_logout_redirect_uri only
 * when it names the session). Fresh: the logout ends that session. Null when there is none.
 */
export async function logoutHint(flows: Flows, confidential: boolean): Promise<string | null> {
  const user = await flows.userTokens('openid', { confidential, fresh: true });
  return user.problem === null ? user.idToken : null;
}

const registeredLogouts = new Map<string, Promise<LogoutAnswer>>();

/**
 * Logout to the registered return URL (through a confirmation page when the tenant shows one),
 * sent once per worker: the logout flow records its answer, and every near miss of the return
 * URL takes it as its accepted twin.
 */
export function registeredLogout(flows: Flows, e: Endpoint, url: string, returnTo: string): Promise<LogoutAnswer> {
  let answer = registeredLogouts.get(url);
  if (!answer) {
    answer = flows.logout(e, url, [returnTo]);
    registeredLogouts.set(url, answer);
    answer.catch(() => registeredLogouts.delete(url));
  }
  return answer;
}

const userInfos = new Map<string, Promise<Exchange>>();

/**
 * Get user info with a user's access token as Bearer, once per token in a worker: the flow
 * judges it, the Bearer refusals take it as their accepted twin, the ID-token check reads its sub.
 */
export function userInfoWith(flows: Flows, e: Endpoint, accessToken: string): Promise<Exchange> {
  const key = `${e.url} ${accessToken}`;
  let answer = userInfos.get(key);
  if (!answer) {
    answer = flows.get(e, {}, { authorization: `Bearer ${accessToken}` });
    userInfos.set(key, answer);
    answer.catch(() => userInfos.delete(key));
  }
  return answer;
}
