import type { Limits } from './types.ts';

/** All numeric bounds, one object. Spec-stated values carry their section. */
export function defaultLimits(): Limits {
  return {
    rsNameMax: 200, // §2.2, §8
    scopeValueMin: 1, // §2.3, §8
    scopeValueMax: 280,
    scopeDescriptionMax: 500, // §2.3, §8
    signingSecretMin: 16, // §2.1, §2.2, §8
    tokenLifetimeMin: 0, // §2.2, §8
    tokenLifetimeMax: 2592000,
    encryptionKeyNameMin: 1, // §2.3, §8
    encryptionKeyNameMax: 128,
    encryptionKeyKidMin: 1, // §2.3, §8
    encryptionKeyKidMax: 128,
    pemMin: 1, // §2.3, §8
    pemMax: 4096,
    policyIdMin: 1, // §2.3, §8
    policyIdMax: 1024,
    experimentNameMin: 3, // §2.4, §8
    experimentNameMax: 255,
    experimentDescriptionMin: 3, // §2.4, §8
    experimentDescriptionMax: 1024,
    allocationsMin: 1, // §2.4, §8
    // Tenant choices (spec: "not shown").
    allocationsMax: 100,
    allocationWeightMin: 0,
    allocationWeightMax: 100,
    allocationWeightSum: 100,
    allocationPriorityMin: 0,
    allocationPriorityMax: 1000,
    variationIdMax: 255,
    segmentIdMax: 255,
    authenticationFlowMax: 255,
    assignmentSubjectMax: 255,
    maxBodyBytes: 64 * 1024,
    maxJsonDepth: 32,
    accessTokenLifetimeSeconds: 86400,
    assertionMaxLifetimeSeconds: 300,
    clockSkewSeconds: 5,
    loginAttemptsMax: 5,
    loginBlockSeconds: 60,
    loginFailureWindowSeconds: 900,
    authorizationCodeLifetimeSeconds: 600,
    loginTransactionLifetimeSeconds: 900,
    userAccessTokenLifetimeSeconds: 7200,
    oneTimeCodeLifetimeSeconds: 300,
    oneTimeCodeAttemptsMax: 3,
    // RFC 9449 §11.1: proofs are accepted only briefly after their creation.
    dpopProofMaxAgeSeconds: 300,
    dpopProofFutureSkewSeconds: 60,
    dpopNonceLifetimeSeconds: 300,
  };
}
