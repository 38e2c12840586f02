// Access tokens of the management API: RS256 JWTs signed by the tenant (issued by the
// token endpoint, verified on every management request, keys at /.well-known/jwks.json).
import { SignJWT, exportJWK, generateKeyPair, jwtVerify, type JWK } from 'jose';
import { randomUUID } from 'node:crypto';
import type { AccessTokenClaims, TokenVerifier } from '../types.ts';

type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

export interface SigningKey {
  kid: string;
  privateKey: Key;
  publicKey: Key;
  publicJwk: JWK;
}

/** A fresh RSA key pair for one JWS alg (RFC 7518 §3.3, §3.5), published with that alg and its own kid. */
export async function newSigningKey(alg: 'RS256' | 'RS512' | 'PS256' = 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { kid, privateKey, publicKey, publicJwk };
}

export async function issueAccessToken(
  key: SigningKey,
  claims: {
    issuer: string;
    audience: string;
    clientId: string;
    scope: string;
    lifetimeSeconds: number;
    nowMs: number;
    x5tS256?: string;
  },
): Promise<string> {
  const iat = Math.floor(claims.nowMs / 1000);
  // RFC 8705 §3: a token obtained with mTLS is bound to the certificate (cnf.x5t#S256).
  const cnf = claims.x5tS256 ? { cnf: { 'x5t#S256': claims.x5tS256 } } : {};
  return new SignJWT({ scope: claims.scope, azp: claims.clientId, gty: 'client-credentials', ...cnf })
    .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: key.kid })
    .setIssuer(claims.issuer)
    .setSubject(`${claims.clientId}@clients`)
    .setAudience(claims.audience)
    .setIssuedAt(iat)
    .setExpirationTime(iat + claims.lifetimeSeconds)
    .setJti(randomUUID())
    .sign(key.privateKey);
}

/** §7.1 401 causes: bad signature, expired, wrong issuer or audience, malformed. */
export function accessTokenVerifier(
  key: SigningKey,
  expected: { issuer: string; audience: string },
  now: () => number,
): TokenVerifier {
  return async (token) => {
    try {
      const { payload } = await jwtVerify(token, key.publicKey, {
        issuer: expected.issuer,
        audience: expected.audience,
        algorithms: ['RS256'],
        requiredClaims: ['exp'],
        currentDate: new Date(now()),
      });
      return { ok: true, claims: payload as AccessTokenClaims };
    } catch (e) {
      const code = (e as { code?: string }).code ?? 'ERR_INVALID_TOKEN';
      return { ok: false, reason: reasonFor(code) };
    }
  };
}

function reasonFor(code: string): string {
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'Expired token received for JSON Web Token validation';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'Invalid token: the JWT signature failed validation';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return 'Invalid token: issuer or audience is not this API';
    default:
      return 'Invalid token';
  }
}
