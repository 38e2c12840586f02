// DPoP proofs at the token endpoint (RFC 9449): the checks of §4.3 on the `DPoP` header, the
// key thumbprint a bound token carries as cnf.jkt (§6.1, RFC 7638), and the server nonces of §8
// (given only when the tenant chooses to demand them).
import { randomBytes } from 'node:crypto';
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from 'jose';
import type { JtiCache, Limits } from '../types.ts';

/** §4.2: asymmetric algorithms only, never `none` or a MAC. */
const PROOF_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];
/** JWK members that hold a private or symmetric key (RFC 7518 §6.2.2, §6.3.2, §6.4): never in a proof. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];

export type ProofVerdict =
  | { ok: true; jkt: string }
  | { ok: false; error: 'invalid_dpop_proof' | 'use_dpop_nonce'; description: string };

export interface ProofContext {
  /** The request's method and its URI without query and fragment (§4.3 checks 8, 9). */
  method: string;
  uri: string;
  nowMs: number;
  limits: Limits;
  jtiCache: JtiCache;
  /** When the tenant demands nonces (§8): the store that gave them. */
  nonces?: NonceStore;
}

/** §4.3: the one `DPoP` header of a request, checked in the RFC's order. */
export async function verifyDpopProof(header: string, p: ProofContext): Promise<ProofVerdict> {
  // Repeated header fields arrive joined with ", "; a compact JWS has no comma (check 1).
  if (header.includes(',')) return invalid('more than one DPoP header');
  let protectedHeader: ReturnType<typeof decodeProtectedHeader>;
  try {
    protectedHeader = decodeProtectedHeader(header);
  } catch {
    return invalid('the DPoP proof is not a JWT');
  }
  const { typ, alg, jwk } = protectedHeader;
  if (typ !== 'dpop+jwt') return invalid('the DPoP proof header typ must be dpop+jwt');
  if (typeof alg !== 'string' || !PROOF_ALGS.includes(alg))
    return invalid('the DPoP proof must be signed with an asymmetric algorithm');
  if (!isJwk(jwk)) return invalid('the DPoP proof header has no jwk');
  if (PRIVATE_MEMBERS.some((m) => m in jwk)) return invalid('the DPoP proof jwk must not hold a private key');

  let claims: Record<string, unknown>;
  try {
    const key = await importJWK(jwk, alg);
    claims = (await jwtVerify(header, key, { algorithms: [alg], typ: 'dpop+jwt', currentDate: new Date(p.nowMs) }))
      .payload;
  } catch {
    return invalid('the DPoP proof signature does not verify with its jwk');
  }
  const { jti, htm, htu, iat, nonce } = claims;
  if (typeof jti !== 'string' || jti === '' || typeof htm !== 'string' || typeof htu !== 'string')
    return invalid('the DPoP proof needs jti, htm, htu and iat');
  if (typeof iat !== 'number') return invalid('the DPoP proof needs jti, htm, htu and iat');
  if (htm !== p.method) return invalid(`the DPoP proof htm must be ${p.method}`);
  if (!sameUri(htu, p.uri)) return invalid(`the DPoP proof htu must be ${p.uri}`);
  if (p.nonces !== undefined && (typeof nonce !== 'string' || !p.nonces.live(nonce, p.nowMs)))
    return { ok: false, error: 'use_dpop_nonce', description: 'Authorization server requires nonce in DPoP proof' };
  const nowS = p.nowMs / 1000;
  if (iat < nowS - p.limits.dpopProofMaxAgeSeconds || iat > nowS + p.limits.dpopProofFutureSkewSeconds)
    return invalid('the DPoP proof iat is outside the accepted window');
  const jkt = await calculateJwkThumbprint(jwk, 'sha256');
  // Check 12: a jti once, for as long as its proof could be accepted.
  if (!p.jtiCache.consume(`dpop|${jkt}`, jti, iat + p.limits.dpopProofMaxAgeSeconds, p.nowMs))
    return invalid('the DPoP proof jti has already been used');
  return { ok: true, jkt };
}

/** §8: nonces the tenant gave, each usable until it expires (bounded: client ids are not needed to ask). */
export interface NonceStore {
  fresh(nowMs: number): string;
  live(nonce: string, nowMs: number): boolean;
}

export function memoryNonceStore(lifetimeSeconds: () => number, max = 10_000): NonceStore {
  const given = new Map<string, number>();
  return {
    fresh(nowMs) {
      for (const [n, until] of given) if (until <= nowMs || given.size >= max) given.delete(n);
      const nonce = randomBytes(16).toString('base64url');
      given.set(nonce, nowMs + lifetimeSeconds() * 1000);
      return nonce;
    },
    live: (nonce, nowMs) => (given.get(nonce) ?? 0) > nowMs,
  };
}

// Helpers

function invalid(description: string): ProofVerdict {
  return { ok: false, error: 'invalid_dpop_proof', description };
}

function isJwk(v: unknown): v is JWK {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as JWK).kty === 'string';
}

/** Check 9: htu against the request URI, both without query and fragment, compared as URLs (RFC 3986 §6.2.2, §6.2.3). */
function sameUri(htu: string, uri: string): boolean {
  try {
    const a = new URL(htu);
    const b = new URL(uri);
    return a.origin === b.origin && a.pathname === b.pathname;
  } catch {
    return false;
  }
}
