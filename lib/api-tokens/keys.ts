// The keys a token for the API is judged with: the tenant's published signing keys (its JWKS,
// each key with its `alg`), the signing secret the run wrote, and the run's own RSA key pair the
// tenant encrypts to (its public half is the `pem` the run writes; the private half never leaves
// memory).
import { createLocalJWKSet, exportSPKI, generateKeyPair, jwtVerify, type CryptoKey, type JSONWebKeySet } from 'jose';
import type { Config } from '../config.ts';
import type { ApiClient } from '../http.ts';

/** The key management algorithm the run asks for (§2.3 EncryptionKey.alg), and its key pair. */
export const ENCRYPTION_ALG = 'RSA-OAEP-256';

export interface EncryptionKeys {
  pem: string;
  privateKey: CryptoKey;
}

let encryption: Promise<EncryptionKeys> | null = null;

/** One RSA key pair a worker, made on first use, kept in memory only. */
export function encryptionKeys(): Promise<EncryptionKeys> {
  encryption ??= (async () => {
    const { publicKey, privateKey } = await generateKeyPair(ENCRYPTION_ALG, { modulusLength: 2048, extractable: true });
    return { pem: await exportSPKI(publicKey), privateKey };
  })();
  return encryption;
}

const tenantSets = new Map<string, Promise<JSONWebKeySet | string>>();

/**
 * The tenant's published keys: the jwks_uri of the discovery document at the resource server's
 * tenant (IDM_BASE_URL, which may not be the authentication API's), else its /.well-known/jwks.json.
 */
export function tenantKeys(cfg: Config, client: ApiClient): Promise<JSONWebKeySet | string> {
  let set = tenantSets.get(cfg.baseUrl);
  if (!set) {
    set = (async () => {
      const doc = await client.send('GET', `${cfg.baseUrl}/.well-known/openid-configuration`);
      const uri =
        doc.status === 200 && typeof (doc.body as { jwks_uri?: unknown })?.jwks_uri === 'string'
          ? (doc.body as { jwks_uri: string }).jwks_uri
          : `${cfg.baseUrl}/.well-known/jwks.json`;
      const ex = await client.send('GET', uri);
      const keys = ex.body as JSONWebKeySet | undefined;
      return ex.status === 200 && Array.isArray(keys?.keys) ? keys : `${uri} answered ${ex.status} without a key set`;
    })();
    tenantSets.set(cfg.baseUrl, set);
  }
  return set;
}

/** Whether a JWS verifies as `alg` with one of the published keys (or the secret, for HS256); why not. */
export async function verifiesWith(
  compact: string,
  alg: string,
  key: { set: JSONWebKeySet } | { secret: string },
): Promise<string | null> {
  try {
    const verifyKey = 'secret' in key ? new TextEncoder().encode(key.secret) : createLocalJWKSet(key.set);
    await jwtVerify(compact, verifyKey as Parameters<typeof jwtVerify>[1], { algorithms: [alg] });
    return null;
  } catch (e) {
    return `${(e as { code?: string }).code ?? 'ERR'}: ${(e as Error).message}`;
  }
}
