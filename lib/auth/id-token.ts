// ID-token validation as a relying party does it (OIDC Core §3.1.3.7, §3.2.2.11): the signature
// against the keys of the discovered jwks_uri, then iss, aud, exp, iat, nonce, and at_hash /
// c_hash where the token came beside an access token or a code. The keys and the issuer are
// read once per worker through the paced client (two requests), like every other request.
import { createHash } from 'node:crypto';
import { createLocalJWKSet, decodeProtectedHeader, type JSONWebKeySet, jwtVerify, type JWTPayload } from 'jose';
import type { Config } from '../config.ts';
import type { ApiClient } from '../http.ts';
import { discovery } from './endpoints.ts';

export interface IssuerKeys {
  issuer: string;
  jwks: ReturnType<typeof createLocalJWKSet>;
  /** The key set as served (the attack catalogue keys HMAC with its public keys). */
  set: JSONWebKeySet;
}

/** What the ID token must match: the client it was issued to and what came with it. */
export interface IdTokenContext {
  clientId: string;
  /** The nonce of the authorization request; undefined where none was sent (password grant). */
  nonce?: string;
  /** The access token issued beside it at the authorization endpoint (at_hash, §3.2.2.9). */
  accessToken?: string;
  /** The code issued beside it at the authorization endpoint (c_hash, §3.3.2.11). */
  code?: string;
}

export type IdTokenVerdict = { ok: true; claims: JWTPayload } | { ok: false; problems: string[] };

const keySets = new Map<string, Promise<IssuerKeys | string>>();

/**
 * The issuer and signing keys of the discovery document (memoised per worker), or why they are
 * not available (one line, naming what is missing).
 */
export function issuerKeys(cfg: Config, client: ApiClient): Promise<IssuerKeys | string> {
  let keys = keySets.get(cfg.auth.url);
  if (!keys) {
    keys = (async () => {
      const doc = await discovery(cfg, client);
      if (!doc) return `no discovery document at ${cfg.auth.url}/.well-known/openid-configuration`;
      const { issuer, jwks_uri: jwksUri } = doc;
      if (typeof issuer !== 'string' || typeof jwksUri !== 'string')
        return 'the discovery document names no issuer or no jwks_uri';
      const ex = await client.send('GET', jwksUri);
      const set = ex.body as JSONWebKeySet | undefined;
      if (ex.status !== 200 || !Array.isArray(set?.keys)) return `the jwks_uri answered ${ex.status} without a key set`;
      return { issuer, jwks: createLocalJWKSet(set), set };
    })();
    keySets.set(cfg.auth.url, keys);
  }
  return keys;
}

/** Every rule the ID token breaks (empty when it validates), with its claims when it does. */
export async function validateIdToken(token: string, keys: IssuerKeys, c: IdTokenContext): Promise<IdTokenVerdict> {
  let alg: string | undefined;
  try {
    alg = decodeProtectedHeader(token).alg;
  } catch {
    return { ok: false, problems: ['not a JWS compact serialisation'] };
  }
  if (alg === undefined || alg === 'none') return { ok: false, problems: [`alg ${alg ?? '(none given)'}: unsigned`] };
  let claims: JWTPayload;
  try {
    // jose checks the signature against the key set (an unknown kid fails), exp and nbf.
    claims = (await jwtVerify(token, keys.jwks, { clockTolerance: 30 })).payload;
  } catch (e) {
    return { ok: false, problems: [`${(e as { code?: string }).code ?? 'ERR'}: ${(e as Error).message}`] };
  }
  const problems: string[] = [];
  if (claims.iss !== keys.issuer) problems.push(`iss ${String(claims.iss)} is not the issuer ${keys.issuer}`);
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.includes(c.clientId)) problems.push(`aud ${JSON.stringify(claims.aud)} does not contain the client id`);
  if (typeof claims.exp !== 'number') problems.push('no exp');
  if (typeof claims.iat !== 'number') problems.push('no iat');
  if (typeof claims.sub !== 'string' || claims.sub === '') problems.push('no sub');
  if (c.nonce !== undefined && claims.nonce !== c.nonce)
    problems.push(claims.nonce === undefined ? 'no nonce, one was sent' : 'nonce is not the one sent');
  if (c.accessToken !== undefined && claims.at_hash !== halfHash(c.accessToken, alg))
    problems.push(claims.at_hash === undefined ? 'no at_hash beside an access token' : 'at_hash does not match');
  if (c.code !== undefined && claims.c_hash !== halfHash(c.code, alg))
    problems.push(claims.c_hash === undefined ? 'no c_hash beside a code' : 'c_hash does not match');
  return problems.length === 0 ? { ok: true, claims } : { ok: false, problems };
}

// Helpers

/** OIDC Core §3.2.2.9: the left half of the hash the JWS alg uses, base64url. */
function halfHash(value: string, alg: string): string {
  const bits = /(\d{3})$/.exec(alg)?.[1];
  const hash = bits === '384' ? 'sha384' : bits === '512' || alg === 'EdDSA' ? 'sha512' : 'sha256';
  const digest = createHash(hash).update(value).digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}
