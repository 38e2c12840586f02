// Client authentication (§5.2) at every endpoint that takes it: one row per way, in the order
// discovery lists them. A way a request presents (a secret in the body, HTTP Basic, a client
// assertion) is read from the request; a way that presents nothing of its own (a public client's
// ID alone, mTLS through the edge) is the one the named client is registered for. A client
// registered for one way is refused with another (a real tenant keeps one token endpoint auth
// method per application); the management clients, registered before methods existed, accept
// post and Basic. Each row names the dev client the tenant seeds for it (config.ts); discovery
// (routes/well-known.ts) and the type of a way's name (types.ts) read the rows' names.
import { decodeJwt } from 'jose';
import { timingSafeEqual, createHash } from 'node:crypto';
import type {
  ClientAuthInput,
  ClientAuthMethod,
  ClientAuthVerdict,
  ClientAuthenticator,
  ClientConfig,
  JtiCache,
  TenantParts,
} from '../types.ts';
import { PASSWORDLESS_OTP_GRANT } from './one-time-code.ts';

export const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** The ways, by the names OIDC / RFC 8705 discovery gives them, in the order discovery lists them. */
export const CLIENT_AUTH_METHODS = [
  'client_secret_post',
  'client_secret_basic',
  'private_key_jwt',
  'none',
  'tls_client_auth',
  'self_signed_tls_client_auth',
] as const;

/** The tenant's shared dev values a way's dev client is made of (config.ts). */
export interface DevValues {
  redirectUri: string;
  logoutUrl: string;
  /** The grants of a confidential client that signs users in. */
  userGrants: string[];
  /** A dev key or certificate file of reference/dev-keys/, read. */
  pem(file: string): string;
}

/** What a way reads a request with. */
interface At {
  deps: ClientAuthDeps;
  parts: TenantParts;
  find(id: string | undefined): ClientConfig | undefined;
}

/** A way the request presents a credential for (a secret in the body, HTTP Basic, a client assertion). */
interface Presented {
  presents(input: ClientAuthInput): boolean;
  /** A refusal due before any other check: what the request presents for this way cannot be read. */
  unreadable?(input: ClientAuthInput): ClientAuthVerdict | null;
  authenticate(input: ClientAuthInput, at: At): Promise<ClientAuthVerdict> | ClientAuthVerdict;
}

/** A way that presents nothing of its own: the verdict on a request naming a client registered for it. */
interface Registered {
  registered(input: ClientAuthInput, at: At, client: ClientConfig): ClientAuthVerdict;
}

type Way = (Presented | Registered) & {
  /** The dev client the tenant seeds for it (the management clients of config.ts aside). */
  devClient?(dev: DevValues): ClientConfig;
};

/**
 * mTLS through the edge (RFC 8705 §2.1 CA-verified, §2.2 self-signed): the forwarded headers checked
 * for the client by the edge check (mtls.ts, a replaceable part), which tells the two apart.
 */
function viaEdge(method: ClientAuthMethod, clientId: string, certificateFile: string): Way {
  return {
    registered({ headers }, { deps, parts }, client) {
      const edge = parts.checkMtlsEdge(headers, client, deps.edgeApiKey);
      if (!edge.ok)
        return fail(401, 'invalid_client', `mTLS client authentication failed: ${edge.description}`, client);
      return { ok: true, client, method, x5tS256: edge.x5tS256 };
    },
    devClient: (dev) => ({
      clientId,
      tokenEndpointAuthMethod: method,
      certificatePem: dev.pem(certificateFile),
      scopes: ['read:resource_servers'],
    }),
  };
}

const WAYS: Record<ClientAuthMethod, Way> = {
  client_secret_post: {
    presents: ({ params }) => params.client_secret !== undefined,
    authenticate({ params }, at) {
      if (params.client_id === undefined) return fail(400, 'invalid_request', 'Missing required parameter: client_id');
      return bySecret(at, params.client_id, params.client_secret ?? '', 'client_secret_post');
    },
    devClient: (dev) => ({
      clientId: 'conformance-post',
      secret: 'dev-secret-post-0123456789',
      tokenEndpointAuthMethod: 'client_secret_post',
      scopes: ['read:resource_servers'],
      grantTypes: dev.userGrants,
      redirectUris: [dev.redirectUri],
      logoutUrls: [dev.logoutUrl],
    }),
  },
  client_secret_basic: {
    presents: ({ headers }) => parseBasic(headers.authorization) !== undefined,
    unreadable: ({ headers }) =>
      parseBasic(headers.authorization) === 'malformed'
        ? fail(401, 'invalid_client', 'Malformed HTTP Basic credentials')
        : null,
    authenticate({ params, headers }, at) {
      const basic = parseBasic(headers.authorization) as { id: string; secret: string };
      if (params.client_id !== undefined && params.client_id !== basic.id) {
        return fail(400, 'invalid_request', 'client_id in the body does not match the Basic credentials');
      }
      return bySecret(at, basic.id, basic.secret, 'client_secret_basic');
    },
    devClient: () => ({
      clientId: 'conformance-basic',
      // Characters that RFC 6749 §2.3.1 form-encoding changes (":", "+", " ", "%", "&", "=").
      secret: 'dev-secret:basic+0123456789 %&=',
      tokenEndpointAuthMethod: 'client_secret_basic',
      scopes: ['read:resource_servers'],
      grantTypes: ['client_credentials', 'password', 'refresh_token'],
    }),
  },
  // The dev client of this way is a management client (config.ts: conformance-pkjwt).
  private_key_jwt: {
    presents: ({ params }) => params.client_assertion !== undefined || params.client_assertion_type !== undefined,
    authenticate: ({ params }, at) => byAssertion(params, at),
  },
  none: {
    registered: (_input, _at, client) => ({ ok: true, client, method: 'none' }),
    devClient: (dev) => ({
      clientId: 'conformance-spa',
      tokenEndpointAuthMethod: 'none',
      scopes: [],
      grantTypes: ['authorization_code', 'implicit', 'refresh_token', PASSWORDLESS_OTP_GRANT],
      redirectUris: [dev.redirectUri],
      logoutUrls: [dev.logoutUrl],
    }),
  },
  tls_client_auth: viaEdge('tls_client_auth', 'conformance-mtls-ca', 'conformance-mtls-ca.cert.pem'),
  self_signed_tls_client_auth: viaEdge('self_signed_tls_client_auth', 'conformance-mtls', 'conformance-mtls.cert.pem'),
};

/** The dev client of every way that seeds one, in the rows' order. */
export function devClients(dev: DevValues): ClientConfig[] {
  return CLIENT_AUTH_METHODS.flatMap((m) => WAYS[m].devClient?.(dev) ?? []);
}

export function memoryJtiCache(): JtiCache {
  const seen = new Map<string, number>();
  return {
    consume(clientId, jti, expSeconds, nowMs) {
      const nowS = nowMs / 1000;
      for (const [k, exp] of seen) if (exp < nowS - 60) seen.delete(k);
      const key = `${clientId}\u0000${jti}`;
      if (seen.has(key)) return false;
      seen.set(key, expSeconds);
      return true;
    },
  };
}

export interface ClientAuthDeps {
  /** The final parts (read per request, so replaced sub-parts take effect). */
  parts: () => TenantParts;
  clients: ClientConfig[];
  /** Audiences a client assertion may name: the tenant URL with trailing slash, and the token endpoint URL. */
  assertionAudiences: string[];
  edgeApiKey: string;
}

export function clientAuthenticator(deps: ClientAuthDeps): ClientAuthenticator {
  const find = (id: string | undefined) => (id === undefined ? undefined : deps.clients.find((c) => c.clientId === id));
  const ways = CLIENT_AUTH_METHODS.map((m) => WAYS[m]);
  const presenting = ways.filter((w): w is Way & Presented => 'presents' in w);

  return async (input) => {
    const at: At = { deps, parts: deps.parts(), find };
    for (const w of presenting) {
      const refused = w.unreadable?.(input);
      if (refused) return refused;
    }
    const presented = presenting.filter((w) => w.presents(input));
    if (presented.length > 1) return fail(400, 'invalid_request', 'Use exactly one client authentication method');
    if (presented[0]) return presented[0].authenticate(input, at);

    // No credential in the body or Authorization header: the way the client is registered for.
    const { params } = input;
    if (params.client_id === undefined) return fail(401, 'invalid_client', 'Client authentication is required');
    const client = find(params.client_id);
    if (client === undefined) return fail(401, 'invalid_client', 'Client authentication failed: unknown client');
    const way = client.tokenEndpointAuthMethod === undefined ? undefined : WAYS[client.tokenEndpointAuthMethod];
    if (way !== undefined && 'registered' in way) return way.registered(input, at, client);
    return fail(
      401,
      'invalid_client',
      'Client authentication is required for this confidential client (client ID alone is not enough)',
      client,
    );
  };
}

// Helpers

/** The method a client may use; undefined = a management client (post or Basic / private_key_jwt). */
function allows(client: ClientConfig, method: ClientAuthMethod): boolean {
  const registered = client.tokenEndpointAuthMethod;
  if (registered !== undefined) return registered === method;
  if (method === 'private_key_jwt') return client.publicKeyPem !== undefined;
  return (method === 'client_secret_post' || method === 'client_secret_basic') && client.secret !== undefined;
}

function bySecret(
  at: At,
  clientId: string,
  secret: string,
  method: 'client_secret_post' | 'client_secret_basic',
): ClientAuthVerdict {
  const client = at.find(clientId);
  if (client?.secret === undefined)
    return fail(401, 'invalid_client', 'Client authentication failed: unknown client or wrong secret', client);
  if (!allows(client, method)) return wrongMethod(client, method);
  if (!sameSecret(client.secret, secret)) {
    return fail(401, 'invalid_client', 'Client authentication failed: unknown client or wrong secret', client);
  }
  return { ok: true, client, method };
}

async function byAssertion(params: Record<string, string>, { deps, parts, find }: At): Promise<ClientAuthVerdict> {
  if (params.client_assertion_type !== ASSERTION_TYPE) {
    return fail(400, 'invalid_request', `client_assertion_type must be ${ASSERTION_TYPE}`);
  }
  const assertion = params.client_assertion;
  if (assertion === undefined || assertion === '')
    return fail(400, 'invalid_request', 'Missing required parameter: client_assertion');
  let iss: unknown;
  try {
    iss = decodeJwt(assertion).iss;
  } catch {
    return fail(401, 'invalid_client', 'client_assertion is not a JWT', find(params.client_id));
  }
  if (params.client_id !== undefined && iss !== undefined && params.client_id !== iss) {
    return fail(401, 'invalid_client', 'client_id does not match the assertion issuer', find(params.client_id));
  }
  const client = find(typeof iss === 'string' ? iss : params.client_id);
  if (client === undefined) return fail(401, 'invalid_client', 'Client authentication failed: unknown client');
  if (!allows(client, 'private_key_jwt')) return wrongMethod(client, 'private_key_jwt');
  const nowMs = parts.now();
  const verdict = await parts.verifyClientAssertion(assertion, client, {
    audiences: deps.assertionAudiences,
    nowMs,
  });
  if (!verdict.ok) return fail(401, 'invalid_client', verdict.description, client);
  // Replay: a used jti is refused while the assertion could still be valid (tenant choice, README).
  if (!parts.jtiCache.consume(client.clientId, verdict.claims.jti, verdict.claims.exp, nowMs)) {
    return fail(401, 'invalid_client', 'client_assertion jti has already been used', client);
  }
  return { ok: true, client, method: 'private_key_jwt' };
}

function wrongMethod(client: ClientConfig, used: ClientAuthMethod): ClientAuthVerdict {
  const registered =
    client.tokenEndpointAuthMethod ??
    (client.secret !== undefined ? 'client_secret_post or client_secret_basic' : 'private_key_jwt');
  return fail(401, 'invalid_client', `The client is registered for ${registered}, not ${used}`, client);
}

// Compare digests so the comparison time does not depend on where the strings differ.
function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

function parseBasic(header: string | undefined): { id: string; secret: string } | undefined | 'malformed' {
  if (header === undefined) return undefined;
  const m = /^Basic\s+(\S+)\s*$/i.exec(header);
  if (!m) return /^Basic\b/i.test(header) ? 'malformed' : undefined;
  const decoded = Buffer.from(m[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
}

// RFC 6749 §2.3.1: id and secret are form-urlencoded before Base64; raw values are tolerated
// when they do not decode (a raw "%" that is not an escape).
function formDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

function fail(status: number, error: string, description: string, client?: ClientConfig): ClientAuthVerdict {
  return client === undefined
    ? { ok: false, status, error, description }
    : { ok: false, status, error, description, client };
}
