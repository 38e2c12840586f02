// The interface of one leg of the interop matrix (`npm run interop`, docs/interop.md): an
// open-source authorization server fetched from a package registry, started on loopback and
// configured as a tenant admin would, so that the suite's authentication half runs against it.
// Each leg lives in interop/<name>/: leg.ts (default export: an InteropLeg) and expected.json
// (the server's real deviations). Nothing of the server's own code is committed.

export interface InteropLeg {
  /** 'oidc-provider' | 'keycloak' | 'hydra' | 'django-oauth-toolkit' */
  readonly name: string;
  /** Fetch and build the server from the package registries into interop/.cache/<name>/ (git-ignored); idempotent, fast when already there. */
  prepare(log: (line: string) => void): Promise<void>;
  /** Start it on loopback ports from `portBase` (use portBase..portBase+9), configure it as a tenant admin would
   *  (clients for each way to authenticate it offers, the two test users, its own login/consent pages as shipped),
   *  and return the IDM_* settings that point the suite's authentication half at it. */
  start(portBase: number, log: (line: string) => void): Promise<RunningServer>;
}

export interface RunningServer {
  /** IDM_* settings for the suite (IDM_AUTH_URL, client ids/secrets, users, login selectors, IDM_NOT_OFFERED, ...). Secrets are made up per start. */
  readonly env: Record<string, string>;
  /** Stop it and everything it started; must be safe to call twice and on a half-started server. */
  stop(): Promise<void>;
}

/** What a leg set up on its server for the suite: every leg hands the suite the same settings. */
export interface LegTenant {
  /** IDM_AUTH_URL: the issuer, or whatever base its discovery document is under. */
  authUrl: string;
  post: { id: string; secret: string };
  /** Its secret has characters RFC 6749 §2.3.1's form-encoding changes. */
  basic: { id: string; secret: string };
  /** A private_key_jwt client and its key file; absent where the server has no client assertion. */
  pkjwt?: { id: string; keyFile: string };
  publicClientId: string;
  user: { username: string; password: string };
  lockout: { username: string; password: string };
  redirectUri: string;
  logoutReturnTo: string;
  notOffered: readonly string[];
}

/** The IDM_* settings that point the suite's authentication half at a leg's server. */
export function suiteEnv(t: LegTenant): Record<string, string> {
  return {
    IDM_AUTH_URL: t.authUrl,
    IDM_POST_CLIENT_ID: t.post.id,
    IDM_POST_CLIENT_SECRET: t.post.secret,
    IDM_BASIC_CLIENT_ID: t.basic.id,
    IDM_BASIC_CLIENT_SECRET: t.basic.secret,
    ...(t.pkjwt ? { IDM_PKJWT_CLIENT_ID: t.pkjwt.id, IDM_PKJWT_KEY_FILE: t.pkjwt.keyFile } : {}),
    IDM_PUBLIC_CLIENT_ID: t.publicClientId,
    IDM_TEST_USERNAME: t.user.username,
    IDM_TEST_PASSWORD: t.user.password,
    IDM_LOCKOUT_USERNAME: t.lockout.username,
    IDM_LOCKOUT_PASSWORD: t.lockout.password,
    IDM_REDIRECT_URI: t.redirectUri,
    IDM_LOGOUT_RETURN_TO: t.logoutReturnTo,
    IDM_NOT_OFFERED: t.notOffered.join(','),
  };
}
