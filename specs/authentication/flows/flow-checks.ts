// What the flow specs share: when a token answer counts as issued, the public client they log in with.
import { test, type TokenAnswer } from '../../../lib/auth/flow-fixtures.ts';
import type { Config } from '../../../lib/config.ts';

/** RFC 6749 §5.1: a 2xx carrying access_token and token_type. */
export function tokenIssued(t: TokenAnswer): boolean {
  return t.ex.status >= 200 && t.ex.status < 300 && t.accessToken !== null && t.tokenType !== null;
}

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
