// What the JWT attacks of a carrier are made from, beside its genuine token: the public key the
// tenant publishes for it (found by the token's kid in the discovered jwks_uri, else the tenant's
// /.well-known/jwks.json) and another genuine token of the same signer.
import { decodeProtectedHeader, type JSONWebKeySet, type JWK } from 'jose';
import type { Config } from '../../config.ts';
import type { ApiClient } from '../../http.ts';
import { issuerKeys } from '../id-token.ts';
import type { JwtMaterial } from './jwt.ts';

/** The published key that verifies `token` (its kid; the only signing key when it names none), or null. */
async function publishedKeyFor(token: string, cfg: Config, client: ApiClient): Promise<JWK | null> {
  const kid = decodeProtectedHeader(token).kid;
  const sets: JSONWebKeySet[] = [];
  const keys = await issuerKeys(cfg, client);
  if (typeof keys !== 'string') sets.push(keys.set);
  const found = pick(sets, kid);
  if (found) return found;
  // The management API's tokens may be signed by keys the tenant serves beside it.
  const ex = await client.send('GET', `${cfg.baseUrl}/.well-known/jwks.json`);
  const set = ex.body as JSONWebKeySet | undefined;
  return ex.status === 200 && Array.isArray(set?.keys) ? pick([set], kid) : null;
}

export async function materialFor(
  token: string,
  other: string | null,
  cfg: Config,
  client: ApiClient,
): Promise<JwtMaterial> {
  return { published: await publishedKeyFor(token, cfg, client), other };
}

// Helpers

function pick(sets: readonly JSONWebKeySet[], kid: string | undefined): JWK | null {
  const all = sets.flatMap((s) => s.keys).filter((k) => k.kty === 'RSA' || k.kty === 'EC' || k.kty === 'OKP');
  if (kid !== undefined) return all.find((k) => k.kid === kid) ?? null;
  return all.length === 1 ? (all[0] ?? null) : null;
}
