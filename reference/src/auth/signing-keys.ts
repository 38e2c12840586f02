// The tenant's signing keys, one per asymmetric signing_alg a resource server may choose
// (§2.3: RS256, RS512, PS256). RS256 is the key of the management tokens, made at start; the
// others are made on first need (a token or a JWKS request), so start-up stays one key long.
// Keys live in memory only and are new on each start.
import type { JWK } from 'jose';
import { newSigningKey, type SigningKey } from './access-token.ts';

export type TenantAlg = 'RS256' | 'RS512' | 'PS256';

export interface KeyRing {
  key(alg: TenantAlg): Promise<SigningKey>;
  /** Every key's public JWK with its alg and kid, for /.well-known/jwks.json. */
  publicJwks(): Promise<JWK[]>;
}

export function keyRing(rs256: SigningKey): KeyRing {
  const made = new Map<TenantAlg, Promise<SigningKey>>([['RS256', Promise.resolve(rs256)]]);
  const key = (alg: TenantAlg): Promise<SigningKey> => {
    let k = made.get(alg);
    if (k === undefined) {
      k = newSigningKey(alg);
      made.set(alg, k);
    }
    return k;
  };
  return {
    key,
    publicJwks: async () =>
      (await Promise.all((['RS256', 'RS512', 'PS256'] as const).map(key))).map((k) => k.publicJwk),
  };
}
