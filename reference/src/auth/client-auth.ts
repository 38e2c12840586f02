// Client authentication at the token endpoint (§5.2): client secret in the body (post),
// HTTP Basic, or a client assertion (private_key_jwt).
import { decodeJwt, decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { ClientConfig, JtiCache, Limits } from '../types.ts';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const ASSERTION_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];

export type ClientAuthResult =
  | { ok: true; client: ClientConfig; method: 'client_secret_post' | 'client_secret_basic' | 'private_key_jwt' }
  | { ok: false; status: 400 | 401; error: string; description: string };

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

export interface ClientAuthContext {
  clients: ClientConfig[];
  /** Audiences a client assertion may name: the tenant URL with trailing slash, and the token endpoint URL. */
  assertionAudiences: string[];
  limits: Limits;
  jti: JtiCache;
  nowMs: number;
}

export async function authenticateClient(
  params: Record<string, string>,
  authorization: string | undefined,
  ctx: ClientAuthContext,
): Promise<ClientAuthResult> {
  const basic = parseBasic(authorization);
  if (basic === 'malformed') return fail(401, 'invalid_client', 'Malformed HTTP Basic credentials');
  const usesPost = params.client_secret !== undefined;
  const usesAssertion = params.client_assertion !== undefined || params.client_assertion_type !== undefined;
  const methods = [basic !== undefined, usesPost, usesAssertion].filter(Boolean).length;
  if (methods > 1) return fail(400, 'invalid_request', 'Use exactly one client authentication method');

  if (basic !== undefined) {
    if (params.client_id !== undefined && params.client_id !== basic.id) {
      return fail(400, 'invalid_request', 'client_id in the body does not match the Basic credentials');
    }
    return bySecret(basic.id, basic.secret, 'client_secret_basic', ctx);
  }
  if (usesPost) {
    if (params.client_id === undefined) return fail(400, 'invalid_request', 'Missing required parameter: client_id');
    return bySecret(params.client_id, params.client_secret ?? '', 'client_secret_post', ctx);
  }
  if (usesAssertion) return byAssertion(params, ctx);
  if (params.client_id !== undefined) {
    return fail(401, 'invalid_client', 'Client authentication is required for this client');
  }
  return fail(401, 'invalid_client', 'Client authentication is required');
}

function bySecret(
  clientId: string,
  secret: string,
  method: 'client_secret_post' | 'client_secret_basic',
  ctx: ClientAuthContext,
): ClientAuthResult {
  const client = ctx.clients.find((c) => c.clientId === clientId);
  if (client?.secret === undefined || !sameSecret(client.secret, secret)) {
    return fail(401, 'invalid_client', 'Client authentication failed: unknown client or wrong secret');
  }
  return { ok: true, client, method };
}

// Compare digests so the comparison time does not depend on where the strings differ.
function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

type Key = Awaited<ReturnType<typeof importSPKI>>;
const keyCache = new WeakMap<ClientConfig, Map<string, Key>>();

async function byAssertion(params: Record<string, string>, ctx: ClientAuthContext): Promise<ClientAuthResult> {
  if (params.client_assertion_type !== ASSERTION_TYPE) {
    return fail(400, 'invalid_request', `client_assertion_type must be ${ASSERTION_TYPE}`);
  }
  const assertion = params.client_assertion;
  if (assertion === undefined || assertion === '') return fail(400, 'invalid_request', 'Missing required parameter: client_assertion');
  let iss: unknown;
  let alg: string | undefined;
  try {
    iss = decodeJwt(assertion).iss;
    alg = decodeProtectedHeader(assertion).alg;
  } catch {
    return fail(401, 'invalid_client', 'client_assertion is not a JWT');
  }
  if (typeof iss !== 'string') return fail(401, 'invalid_client', 'client_assertion has no iss');
  if (params.client_id !== undefined && params.client_id !== iss) {
    return fail(401, 'invalid_client', 'client_id does not match the assertion issuer');
  }
  const client = ctx.clients.find((c) => c.clientId === iss);
  if (client?.publicKeyPem === undefined) return fail(401, 'invalid_client', 'Client authentication failed');
  if (alg === undefined || !ASSERTION_ALGS.includes(alg)) return fail(401, 'invalid_client', 'Unsupported assertion algorithm');

  let key: Key;
  try {
    const perClient = keyCache.get(client) ?? new Map<string, Key>();
    keyCache.set(client, perClient);
    key = perClient.get(alg) ?? (await importSPKI(client.publicKeyPem, alg));
    perClient.set(alg, key);
  } catch {
    return fail(401, 'invalid_client', 'Client key cannot be used with this algorithm');
  }
  try {
    const { payload } = await jwtVerify(assertion, key, {
      issuer: client.clientId,
      subject: client.clientId,
      audience: ctx.assertionAudiences,
      algorithms: ASSERTION_ALGS,
      requiredClaims: ['exp', 'jti'],
      clockTolerance: ctx.limits.clockSkewSeconds,
      currentDate: new Date(ctx.nowMs),
    });
    const exp = payload.exp as number;
    // exp at most 5 minutes ahead: assertions are short-lived.
    if (exp > ctx.nowMs / 1000 + ctx.limits.assertionMaxLifetimeSeconds + ctx.limits.clockSkewSeconds) {
      return fail(401, 'invalid_client', `client_assertion exp is more than ${ctx.limits.assertionMaxLifetimeSeconds} seconds ahead`);
    }
    if (!ctx.jti.consume(client.clientId, String(payload.jti), exp, ctx.nowMs)) {
      return fail(401, 'invalid_client', 'client_assertion jti has already been used');
    }
    return { ok: true, client, method: 'private_key_jwt' };
  } catch (e) {
    const code = (e as { code?: string }).code ?? '';
    const why = code === 'ERR_JWT_EXPIRED' ? 'client_assertion has expired' : 'client_assertion failed validation';
    return fail(401, 'invalid_client', why);
  }
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

// RFC 6749 §2.3.1: id and secret are form-urlencoded before Base64; tolerate raw values.
function formDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

function fail(status: 400 | 401, error: string, description: string): ClientAuthResult {
  return { ok: false, status, error, description };
}
