// Where the authentication API's endpoints are (§4.3 names the flows but shows no paths): an
// IDM_*_PATH setting wins, else the OpenID Connect discovery document when it lists the
// endpoint, else the path real tenants of this kind use (AUTH_PATH_DEFAULTS). The discovery
// document is read once per worker, through the paced client like every other request.
import { AUTH_PATH_DEFAULTS, AUTH_PATH_SETTINGS, type AuthPath, type Config } from '../config.ts';
import type { ApiClient } from '../http.ts';

/** The discovery member that names each endpoint (OpenID Connect Discovery 1.0 §3, RFC 8414). */
const DISCOVERY_MEMBER: Partial<Record<AuthPath, string>> = {
  authorize: 'authorization_endpoint',
  userinfo: 'userinfo_endpoint',
  revoke: 'revocation_endpoint',
  logout: 'end_session_endpoint',
};

export interface Endpoint {
  which: AuthPath;
  url: string;
  source: 'setting' | 'discovery' | 'default';
  /** The setting that moves it. */
  setting: string;
}

const documents = new Map<string, Promise<Record<string, unknown> | null>>();

/** Where the authentication API's discovery document is (OpenID Connect Discovery 1.0 §4). */
export function discoveryUrl(cfg: Config): string {
  return `${cfg.auth.url}/.well-known/openid-configuration`;
}

/** The discovery document of the authentication API, or null when there is none (memoised per worker). */
export function discovery(cfg: Config, client: ApiClient): Promise<Record<string, unknown> | null> {
  const url = discoveryUrl(cfg);
  let doc = documents.get(url);
  if (!doc) {
    doc = client.send('GET', url).then(
      (ex) =>
        ex.status === 200 && typeof ex.body === 'object' && ex.body !== null && !Array.isArray(ex.body)
          ? (ex.body as Record<string, unknown>)
          : null,
      () => null,
    );
    documents.set(url, doc);
  }
  return doc;
}

export async function endpoint(cfg: Config, client: ApiClient, which: AuthPath): Promise<Endpoint> {
  const setting = AUTH_PATH_SETTINGS[which];
  const configured = cfg.auth.paths[which];
  if (configured) return { which, url: `${cfg.auth.url}${configured}`, source: 'setting', setting };
  const member = DISCOVERY_MEMBER[which];
  if (member) {
    const listed = (await discovery(cfg, client))?.[member];
    if (typeof listed === 'string' && /^https?:\/\//.test(listed))
      return { which, url: listed, source: 'discovery', setting };
  }
  return { which, url: `${cfg.auth.url}${AUTH_PATH_DEFAULTS[which]}`, source: 'default', setting };
}

/** One line for reports: where the endpoint is and how the suite knew. */
export function describeEndpoint(e: Endpoint): string {
  const how =
    e.source === 'setting'
      ? `from ${e.setting}`
      : e.source === 'discovery'
        ? 'from the discovery document'
        : `default path; ${e.setting} moves it`;
  return `${new URL(e.url).pathname} (${how})`;
}
