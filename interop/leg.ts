// The interface of one leg of the interop matrix (`npm run interop`, docs/interop.md): an
// open-source authorization server fetched from a package registry, started on loopback and
// configured as a tenant admin would, so that the suite's authentication half runs against it.
// Each leg lives in interop/<name>/: leg.ts (default export: an InteropLeg) and expected.json
// (the server's real deviations). Nothing of the server's own code is committed.
import {
  clientsOf,
  METHOD_IDS,
  type ClientName,
  type MethodClients,
  type MethodId,
} from '../lib/auth/methods/clients.ts';
import type { NamedFlow } from '../lib/config/declarations.ts';

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

/** A configured client of each way to authenticate, by its name in the configuration (lib/auth/methods/clients.ts). */
type LegClients = { [C in ClientName]: NonNullable<MethodClients[C]> };

/** What a leg set up on its server for the suite: every leg hands the suite the same settings. */
export interface LegTenant {
  /** IDM_AUTH_URL: the issuer, or whatever base its discovery document is under. */
  authUrl: string;
  /**
   * The client of each way to authenticate it offers (post; basic, its secret with characters RFC
   * 6749 §2.3.1's form-encoding changes; pkjwt where it has a client assertion): a way with no
   * client here is declared not offered.
   */
  clients: Partial<LegClients>;
  publicClientId: string;
  user: { username: string; password: string };
  lockout: { username: string; password: string };
  redirectUri: string;
  logoutReturnTo: string;
  /** The named flows it does not offer, the ways to authenticate aside (`clients` says those). */
  notOffered: readonly NamedFlow[];
}

/** The IDM_* settings that point the suite's authentication half at a leg's server. */
export function suiteEnv(t: LegTenant): Record<string, string> {
  const offers = (m: MethodId) => clientsOf(m).some(([name]) => t.clients[name] !== undefined);
  return {
    IDM_AUTH_URL: t.authUrl,
    ...Object.fromEntries(
      METHOD_IDS.flatMap((m) => clientsOf(m)).flatMap(([name, fields]) => settingsOf(t.clients[name], fields)),
    ),
    IDM_PUBLIC_CLIENT_ID: t.publicClientId,
    IDM_TEST_USERNAME: t.user.username,
    IDM_TEST_PASSWORD: t.user.password,
    IDM_LOCKOUT_USERNAME: t.lockout.username,
    IDM_LOCKOUT_PASSWORD: t.lockout.password,
    IDM_REDIRECT_URI: t.redirectUri,
    IDM_LOGOUT_RETURN_TO: t.logoutReturnTo,
    IDM_NOT_OFFERED: [...t.notOffered, ...METHOD_IDS.filter((m) => !offers(m))].join(','),
  };
}

/** A client's fields as the settings that hold them (none for a client the leg has not). */
function settingsOf(
  client: Record<string, string> | undefined,
  fields: Record<string, { name: string }>,
): Array<[string, string]> {
  return client ? Object.entries(fields).map(([field, setting]) => [setting.name, client[field] as string]) : [];
}
