// What the flow specs share: the public client they log in with.
import { test } from '../../../lib/auth/flow-fixtures.ts';
import type { Config } from '../../../lib/config.ts';

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
