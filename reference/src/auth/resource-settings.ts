// A custom resource server's settings as they act on the tokens for its API (§1, §2.1, §2.3):
// read from the stored record each time a token is issued, so a PATCH takes effect on the next
// token and a refresh follows the settings of its own moment. The PATCH has already held every
// field to §2.2/§2.3; the defaults below only cover a record a variant or a test wrote by hand.
import type {
  ResourceServerRecord,
  ResourceTokenChoices,
  ResourceTokenSettings,
  SigningAlg,
  SubjectPolicy,
  TokenDialect,
} from '../types.ts';

const SIGNING_ALGS: readonly SigningAlg[] = ['HS256', 'RS256', 'RS512', 'PS256'];
const DIALECTS: readonly TokenDialect[] = [
  'access_token',
  'access_token_authz',
  'rfc9068_profile',
  'rfc9068_profile_authz',
];
const POLICIES: readonly SubjectPolicy[] = ['allow_all', 'deny_all', 'require_client_grant'];

export function resourceTokenSettings(rs: ResourceServerRecord): ResourceTokenSettings {
  const stored = rs.subject_type_authorization;
  return {
    audience: rs.identifier,
    lifetimeSeconds: rs.token_lifetime,
    // §2.1: "cannot exceed token_lifetime", whatever was stored.
    webLifetimeSeconds: Math.min(rs.token_lifetime_for_web, rs.token_lifetime),
    signingAlg: oneOf(SIGNING_ALGS, rs.signing_alg, 'RS256'),
    signingSecret: rs.signing_secret,
    dialect: oneOf(DIALECTS, rs.token_dialect, 'access_token'),
    enforcePolicies: rs.enforce_policies,
    encryption: encryptionOf(rs.token_encryption),
    proofOfPossession: proofOf(rs.proof_of_possession),
    // An absent policy keeps what the tenant did before it read policies: tokens are issued.
    clientPolicy: oneOf(POLICIES, policyOf(stored.client), 'allow_all'),
    userPolicy: oneOf(POLICIES, policyOf(stored.user), 'allow_all'),
    offlineAccess: rs.allow_offline_access,
    scopes: rs.scopes.map((s) => s.value),
    skipConsent: rs.skip_consent_for_verifiable_first_party_clients,
  };
}

export function defaultResourceTokenChoices(): ResourceTokenChoices {
  return { dpopNonce: false, undefinedScope: 'drop', offlineAccessDenied: 'drop', extraClaims: {} };
}

// Helpers

function oneOf<T extends string>(values: readonly T[], value: unknown, otherwise: T): T {
  return values.includes(value as T) ? (value as T) : otherwise;
}

function policyOf(subject: unknown): unknown {
  return isRecord(subject) ? subject.policy : undefined;
}

function encryptionOf(value: unknown): ResourceTokenSettings['encryption'] {
  const key = isRecord(value) ? value.encryption_key : undefined;
  if (!isRecord(key) || typeof key.alg !== 'string' || typeof key.pem !== 'string') return null;
  return { alg: key.alg, pem: key.pem, ...(typeof key.kid === 'string' ? { kid: key.kid } : {}) };
}

function proofOf(value: unknown): ResourceTokenSettings['proofOfPossession'] {
  if (!isRecord(value) || (value.mechanism !== 'dpop' && value.mechanism !== 'mtls')) return null;
  // required_for is optional (§2.3): without it a required proof is required of every client.
  const requiredFor =
    value.required === true ? (value.required_for === 'public_clients' ? 'public_clients' : 'all_clients') : null;
  return { mechanism: value.mechanism, requiredFor };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
