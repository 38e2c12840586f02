// Where the authentication API's endpoints are (§4.3 names the flows but shows no paths): an
// IDM_*_PATH setting, else the server's metadata, else the path real tenants of this kind use
// (AUTH_PATH_DEFAULTS); in what order the documents are read: lib/README.md, *Named flows*.
import { AUTH_PATH_DEFAULTS, AUTH_PATH_SETTINGS, type AuthPath, type Config } from '../config.ts';
import type { ApiClient } from '../http.ts';

/** The metadata member that names each endpoint (OpenID Connect Discovery 1.0 §3, RFC 8414 §2). */
const DISCOVERY_MEMBER: Partial<Record<AuthPath, string>> = {
  authorize: 'authorization_endpoint',
  userinfo: 'userinfo_endpoint',
  revoke: 'revocation_endpoint',
  logout: 'end_session_endpoint',
};

export interface Endpoint {
  which: AuthPath;
  url: string;
  /** 'discovery': listed in the server's metadata (`document` says which). */
  source: 'setting' | 'discovery' | 'default';
  /** The setting that moves it. */
  setting: string;
  /** The metadata document that listed it. */
  document?: MetadataDocument;
}

/** The two metadata documents a server publishes: OpenID Connect Discovery 1.0, RFC 8414. */
export type MetadataDocument = 'openid' | 'oauth';

const documents = new Map<string, Promise<Record<string, unknown> | null>>();

/**
 * Where each metadata document is: OpenID Connect Discovery 1.0 §4 appends its well-known path to
 * the issuer; RFC 8414 §3.1 inserts its own between the host and the issuer's path (without a
 * terminating "/").
 */
export function metadataUrl(cfg: Config, which: MetadataDocument): string {
  if (which === 'openid') return `${cfg.auth.url}/.well-known/openid-configuration`;
  const u = new URL(cfg.auth.url);
  return `${u.origin}/.well-known/oauth-authorization-server${u.pathname.replace(/\/+$/, '')}`;
}

/** The OpenID Connect discovery document of the authentication API, or null when there is none (memoised per worker). */
export function discovery(cfg: Config, client: ApiClient): Promise<Record<string, unknown> | null> {
  return metadataOf(cfg, client, 'openid');
}

/**
 * A member of the server's metadata, and the document that has it: the discovery document first,
 * then RFC 8414's (read only when the first does not have it). Null when neither has it.
 */
export async function metadataMember(
  cfg: Config,
  client: ApiClient,
  member: string,
): Promise<{ value: unknown; document: MetadataDocument } | null> {
  for (const document of ['openid', 'oauth'] as const) {
    const value = (await metadataOf(cfg, client, document))?.[member];
    if (value !== undefined) return { value, document };
  }
  return null;
}

function metadataOf(cfg: Config, client: ApiClient, which: MetadataDocument): Promise<Record<string, unknown> | null> {
  const url = metadataUrl(cfg, which);
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
    const listed = await metadataMember(cfg, client, member);
    if (typeof listed?.value === 'string' && /^https?:\/\//.test(listed.value))
      return { which, url: listed.value, source: 'discovery', setting, document: listed.document };
  }
  return { which, url: `${cfg.auth.url}${AUTH_PATH_DEFAULTS[which]}`, source: 'default', setting };
}

/** An answer from an endpoint is classified knowing where the suite found it (lib/answer-class.ts, rule endpoint-absent). */
export const contextOf = (to: string | Endpoint): { context?: { endpoint: Endpoint } } =>
  typeof to === 'string' ? {} : { context: { endpoint: to } };

/** One line for reports: where the endpoint is and how the suite knew. */
export function describeEndpoint(e: Endpoint): string {
  const how =
    e.source === 'setting'
      ? `from ${e.setting}`
      : e.source === 'discovery'
        ? e.document === 'oauth'
          ? 'from the authorization server metadata, RFC 8414'
          : 'from the discovery document'
        : `default path; ${e.setting} moves it`;
  return `${new URL(e.url).pathname} (${how})`;
}
