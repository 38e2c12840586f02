// What the flow specs share: the public client they log in with, and a login for a code.
import { test, type Flows } from '../../../lib/auth/flow-fixtures.ts';
import type { Config } from '../../../lib/config.ts';
import type { Checks } from '../../../lib/checks.ts';
import { describeEndpoint } from '../../../lib/auth/endpoints.ts';
import { newState, type PkcePair } from '../../../lib/auth/pkce.ts';

/** The public client and its redirect URI; skips the test naming the setting that is missing. */
export function publicClient(cfg: Config): { clientId: string; redirectUri: string } {
  const { publicClientId, redirectUri } = cfg.auth;
  test.skip(
    !publicClientId,
    'needs a public client (auth method none; PKCE, implicit allowed): set IDM_PUBLIC_CLIENT_ID',
  );
  test.skip(!redirectUri, 'needs a redirect URI registered for the clients: set IDM_REDIRECT_URI');
  return { clientId: publicClientId!, redirectUri: redirectUri! };
}

/**
 * Logs in through the login page for a code (RFC 6749 §4.1.1); the code when the redirect
 * carries it and the state sent (§4.1.2), else what happened instead (the redirect chain).
 */
export async function codeFor(
  flows: Flows,
  check: Checks,
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
  check.observe('auth.api.named-flows', `authorization code${pair ? ' with PKCE' : ''}: ${describeEndpoint(e)}`);
  const code = out.params.code ?? null;
  if (out.callback !== null && code !== null && out.params.state === state) return { code, problem: null };
  const seen = out.callback
    ? `the redirect URI received ${['code', 'state', 'error'].filter((k) => k in out.params).join(', ') || 'no parameters'}${out.params.state !== undefined && out.params.state !== state ? ' (another state)' : ''}${out.params.error ? ` (error ${out.params.error})` : ''}`
    : (out.problem ?? 'no redirect');
  return { code: null, problem: `authorization request for client ${clientId}: ${seen}` };
}
