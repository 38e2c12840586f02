// DPoP proofs (RFC 9449 §4.2) made with a key generated in memory, one a worker: a JWT of type
// dpop+jwt, signed with ES256, carrying the public key, the method and URL it is for, when it was
// made, a fresh jti, and the server's nonce once it asked for one (§8).
import { randomUUID } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

export interface DpopKey {
  publicJwk: JWK;
  /** RFC 7638 SHA-256 thumbprint of the public key: what cnf.jkt must be (RFC 9449 §6.1). */
  thumbprint: string;
  proof(htm: string, htu: string, nonce?: string): Promise<string>;
}

let key: Promise<DpopKey> | null = null;

export function dpopKey(): Promise<DpopKey> {
  key ??= (async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = await exportJWK(publicKey);
    const publicJwk: JWK = { kty: jwk.kty, crv: jwk.crv, x: jwk.x, y: jwk.y };
    return {
      publicJwk,
      thumbprint: await calculateJwkThumbprint(publicJwk, 'sha256'),
      // §4.2: htu without query and fragment.
      proof: (htm, htu, nonce) =>
        new SignJWT({ htm, htu: htu.split(/[?#]/)[0], jti: randomUUID(), ...(nonce ? { nonce } : {}) })
          .setProtectedHeader({ typ: 'dpop+jwt', alg: 'ES256', jwk: publicJwk })
          .setIssuedAt()
          .sign(privateKey),
    };
  })();
  return key;
}
