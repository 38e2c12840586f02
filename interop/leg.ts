// The interop leg interface (shared by the interop helpers; owner of interop/leg.ts: the i31interop branch)
export interface InteropLeg {
  /** 'oidc-provider' | 'keycloak' | 'hydra' */
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
