// private_key_jwt (§5.2 "client ID and client assertion"): the assertion is a JWS signed
// with the client's registered key, iss = sub = client id, aud = this tenant, short-lived.
// Replay (`jti`) is the jti cache's decision, made by the authenticator after this check.
import { decodeJwt, decodeProtectedHeader, errors, importSPKI, jwtVerify } from 'jose';
import type { AssertionFault, AssertionVerdict, AssertionVerifier, ClientConfig, Limits } from '../types.ts';

/** Asymmetric algorithms only: `none` and HMAC (which would need a shared secret) are refused. */
export const ASSERTION_ALGS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384'];

type Key = Awaited<ReturnType<typeof importSPKI>>;
const keyCache = new WeakMap<ClientConfig, Map<string, Key>>();

export function assertionVerifier(limits: () => Limits): AssertionVerifier {
  return async (assertion, client, expected) => {
    let alg: unknown;
    let claims: Record<string, unknown>;
    try {
      alg = decodeProtectedHeader(assertion).alg;
      claims = decodeJwt(assertion);
    } catch {
      return fault('malformed', 'client_assertion is not a JWT');
    }
    if (typeof alg !== 'string' || !ASSERTION_ALGS.includes(alg)) {
      return fault('algorithm', `client_assertion alg must be one of ${ASSERTION_ALGS.join(', ')}`);
    }
    // Named before the signature is checked, so each fault gets its own description.
    if (claims.iss !== client.clientId) return fault('issuer', 'client_assertion iss must be the client id');
    if (claims.sub === undefined) return fault('subject', 'client_assertion has no sub');
    if (claims.sub !== client.clientId) return fault('subject', 'client_assertion sub must equal iss (the client id)');
    if (client.publicKeyPem === undefined) return fault('signature', 'The client has no registered key');

    let key: Key;
    try {
      const perClient = keyCache.get(client) ?? new Map<string, Key>();
      keyCache.set(client, perClient);
      key = perClient.get(alg) ?? (await importSPKI(client.publicKeyPem, alg));
      perClient.set(alg, key);
    } catch {
      return fault('algorithm', `The client's registered key cannot verify ${alg}`);
    }
    const { clockSkewSeconds, assertionMaxLifetimeSeconds } = limits();
    try {
      const { payload } = await jwtVerify(assertion, key, {
        audience: expected.audiences,
        algorithms: ASSERTION_ALGS,
        requiredClaims: ['exp', 'jti'],
        clockTolerance: clockSkewSeconds,
        currentDate: new Date(expected.nowMs),
      });
      const exp = payload.exp as number;
      if (exp > expected.nowMs / 1000 + assertionMaxLifetimeSeconds + clockSkewSeconds) {
        return fault('lifetime', `client_assertion exp is more than ${assertionMaxLifetimeSeconds} seconds ahead`);
      }
      return {
        ok: true,
        claims: { ...payload, iss: client.clientId, sub: client.clientId, jti: String(payload.jti), exp },
      };
    } catch (e) {
      if (e instanceof errors.JWSSignatureVerificationFailed)
        return fault('signature', 'client_assertion signature does not match the registered key');
      if (e instanceof errors.JWTExpired) return fault('expired', 'client_assertion has expired');
      if (e instanceof errors.JWTClaimValidationFailed && e.claim === 'aud') {
        return fault(
          'audience',
          'client_assertion aud must be this tenant (its URL with a trailing slash) or its token endpoint',
        );
      }
      return fault(
        'claims',
        'client_assertion failed validation (exp and jti are required; nbf/iat must not be in the future)',
      );
    }
  };
}

function fault(reason: AssertionFault, description: string): AssertionVerdict {
  return { ok: false, reason, description };
}
