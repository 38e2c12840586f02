// The interface of one leg of the interop matrix (`npm run interop`, docs/interop.md): an
// open-source authorization server fetched from a package registry, started on loopback and
// configured as a tenant admin would, so that the suite's authentication half runs against it.
// Each leg lives in interop/<name>/: leg.ts (default export: an InteropLeg) and expected.json
// (the server's real deviations). Nothing of the server's own code is committed.

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
