// What the flow specs share: when a token answer counts as issued, how a refusal is described,
// the public client they log in with.
import { test, type TokenAnswer } from '../../../lib/flow-fixtures.ts';
import type { Config } from '../../../lib/config.ts';
import type { Exchange } from '../../../lib/http.ts';
import { isObject } from '../../../lib/expectations.ts';

/** RFC 6749 §5.1: a 2xx carrying access_token and token_type. */
export function tokenIssued(t: TokenAnswer): boolean {
  return t.ex.status >= 200 && t.ex.status < 300 && t.accessToken !== null && t.tokenType !== null;
}

/** A refusal: 4xx and no access token (the exact status and error code are recorded apart). */
export function refused(t: TokenAnswer): boolean {
  return t.ex.status >= 400 && t.ex.status < 500 && t.accessToken === null;
}

/** "400 invalid_grant" — the status and the error code, for auth.flow.refusals. */
export function describeRefusal(ex: Exchange): string {
  const code = isObject(ex.body) && typeof ex.body.error === 'string' ? ex.body.error : '(no error member)';
  return `${ex.status} ${code}${ex.status === 400 && code === 'invalid_grant' ? ' (as RFC 6749 §5.2)' : ''}`;
}

/** The public client and its redirect URI; skips the test naming the setting that is missing. */
export function publicClient(cfg: Config): { clientId: string; redirectUri: string } {
  const { publicClientId, redirectUri } = cfg.auth;
  test.skip(!publicClientId, 'needs a public client (auth method none; PKCE, implicit allowed): set IDM_PUBLIC_CLIENT_ID');
  test.skip(!redirectUri, 'needs a redirect URI registered for the clients: set IDM_REDIRECT_URI');
  return { clientId: publicClientId!, redirectUri: redirectUri! };
}
