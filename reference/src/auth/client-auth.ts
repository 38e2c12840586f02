// Client authentication (§5.2) at every endpoint that takes it: secret in the body (post),
// HTTP Basic, a client assertion (private_key_jwt), mTLS through the edge, or the client ID
// alone for a public client. A client registered for one method is refused with another
// (a real tenant keeps one token endpoint auth method per application); the management
// clients, registered before methods existed, accept post and Basic.
import { decodeJwt } from 'jose';
import { timingSafeEqual, createHash } from 'node:crypto';
import type {
  ClientAuthMethod,
  ClientAuthVerdict,
  ClientAuthenticator,
  ClientConfig,
  JtiCache,
  TenantParts,
} from '../types.ts';

export const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

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

/** The method a client may use; undefined = a management client (post or Basic / private_key_jwt). */
function allows(client: ClientConfig, method: ClientAuthMethod): boolean {
  const registered = client.tokenEndpointAuthMethod;
  if (registered !== undefined) return registered === method;
  if (method === 'private_key_jwt') return client.publicKeyPem !== undefined;
  return (method === 'client_secret_post' || method === 'client_secret_basic') && client.secret !== undefined;
}

export function clientAuthenticator(deps: ClientAuthDeps): ClientAuthenticator {
  const find = (id: string | undefined) => (id === undefined ? undefined : deps.clients.find((c) => c.clientId === id));

  const bySecret = (
    clientId: string,
    secret: string,
    method: 'client_secret_post' | 'client_secret_basic',
  ): ClientAuthVerdict => {
    const client = find(clientId);
    if (client?.secret === undefined)
      return fail(401, 'invalid_client', 'Client authentication failed: unknown client or wrong secret', client);
    if (!allows(client, method)) return wrongMethod(client, method);
    if (!sameSecret(client.secret, secret)) {
      return fail(401, 'invalid_client', 'Client authentication failed: unknown client or wrong secret', client);
    }
    return { ok: true, client, method };
  };

  return async ({ params, headers }) => {
    const parts = deps.parts();
    const basic = parseBasic(headers.authorization);
    if (basic === 'malformed') return fail(401, 'invalid_client', 'Malformed HTTP Basic credentials');
    const usesPost = params.client_secret !== undefined;
    const usesAssertion = params.client_assertion !== undefined || params.client_assertion_type !== undefined;
    if ([basic !== undefined, usesPost, usesAssertion].filter(Boolean).length > 1) {
      return fail(400, 'invalid_request', 'Use exactly one client authentication method');
    }

    if (basic !== undefined) {
      if (params.client_id !== undefined && params.client_id !== basic.id) {
        return fail(400, 'invalid_request', 'client_id in the body does not match the Basic credentials');
      }
      return bySecret(basic.id, basic.secret, 'client_secret_basic');
    }
    if (usesPost) {
      if (params.client_id === undefined) return fail(400, 'invalid_request', 'Missing required parameter: client_id');
      return bySecret(params.client_id, params.client_secret ?? '', 'client_secret_post');
    }
    if (usesAssertion) {
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

    // No credential in the body or Authorization header: a public client, or mTLS.
    if (params.client_id === undefined) return fail(401, 'invalid_client', 'Client authentication is required');
    const client = find(params.client_id);
    if (client === undefined) return fail(401, 'invalid_client', 'Client authentication failed: unknown client');
    const registered = client.tokenEndpointAuthMethod;
    if (registered === 'none') return { ok: true, client, method: 'none' };
    if (registered === 'tls_client_auth' || registered === 'self_signed_tls_client_auth') {
      const edge = parts.checkMtlsEdge(headers, client, deps.edgeApiKey);
      if (!edge.ok)
        return fail(401, 'invalid_client', `mTLS client authentication failed: ${edge.description}`, client);
      return { ok: true, client, method: registered, x5tS256: edge.x5tS256 };
    }
    return fail(
      401,
      'invalid_client',
      'Client authentication is required for this confidential client (client ID alone is not enough)',
      client,
    );
  };
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
