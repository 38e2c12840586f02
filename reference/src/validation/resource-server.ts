// Request body of PATCH /resource-servers/{id}: spec §2.2 (fields), §2.3 (nested types), §8 (limits).
import type { ValidatorTable } from '../types.ts';
import type { FormKinds } from '../body.ts';
import {
  arrayField,
  booleanField,
  enumField,
  integerField,
  issue,
  objectType,
  stringField,
  type LimitsRef,
} from './engine.ts';

const SIGNING_ALGORITHMS = ['HS256', 'RS256', 'RS512', 'PS256'] as const; // §2.3
const TOKEN_DIALECTS = ['access_token', 'access_token_authz', 'rfc9068_profile', 'rfc9068_profile_authz'] as const; // §2.3

/**
 * §2.2: the fields of the request body, in its order (all optional; no other fields allowed), each
 * with how a form body carries it: flat fields typed by §2.2, non-flat fields as JSON text.
 */
export const UPDATE_FORM_KINDS = {
  name: 'string',
  scopes: 'json',
  signing_alg: 'string',
  signing_secret: 'string',
  skip_consent_for_verifiable_first_party_clients: 'boolean',
  allow_offline_access: 'boolean',
  allow_online_access: 'boolean',
  allow_online_access_with_ephemeral_sessions: 'boolean',
  token_lifetime: 'integer',
  token_dialect: 'string',
  enforce_policies: 'boolean',
  token_encryption: 'nullable-json',
  consent_policy: 'nullable-string',
  authorization_details: 'nullable-json',
  proof_of_possession: 'nullable-json',
  subject_type_authorization: 'json',
  authorization_policy: 'nullable-json',
} as const satisfies FormKinds;

/** §2.2: the fields of the request body, in its order. */
export const UPDATE_FIELDS = Object.keys(UPDATE_FORM_KINDS) as ReadonlyArray<keyof typeof UPDATE_FORM_KINDS>;

export function resourceServerValidators(lim: LimitsRef): ValidatorTable {
  const t: ValidatorTable = {};

  // §2.2 body: all optional, no other fields; `identifier` has its own rule below.
  objectType(t, 'rs.body', {
    fields: Object.fromEntries(UPDATE_FIELDS.map((f) => [f, `rs.${f}`])),
    delegated: { identifier: 'rs.identifier' },
  });
  // §2.2 "The identifier field is not part of the request body"; §2.1 cannot be changed once set.
  t['rs.identifier'] = (_v, at) => issue(at, 'identifier cannot be changed and is not allowed in the request body');

  // §2.2/§8 name: max length 200, pattern ^[^<>]+$
  t['rs.name'] = stringField({ max: () => lim().rsNameMax, pattern: /^[^<>]+$/u, patternText: '^[^<>]+$' });

  // §2.3 Scope (no other fields), value 1..280 required, description max 500
  t['rs.scopes'] = arrayField('rs.scope');
  objectType(t, 'rs.scope', {
    fields: { value: 'rs.scope.value', description: 'rs.scope.description' },
    required: ['value'],
  });
  t['rs.scope.value'] = stringField({ min: () => lim().scopeValueMin, max: () => lim().scopeValueMax });
  t['rs.scope.description'] = stringField({ max: () => lim().scopeDescriptionMax });

  t['rs.signing_alg'] = enumField(SIGNING_ALGORITHMS); // §2.3 SigningAlgorithm
  t['rs.signing_secret'] = stringField({ min: () => lim().signingSecretMin }); // §2.2/§8 min 16

  // §2.2 booleans
  for (const f of UPDATE_FIELDS) if (UPDATE_FORM_KINDS[f] === 'boolean') t[`rs.${f}`] = booleanField;

  // §2.2/§8 token_lifetime: integer, 0..2592000 inclusive
  t['rs.token_lifetime'] = integerField(
    () => lim().tokenLifetimeMin,
    () => lim().tokenLifetimeMax,
  );
  t['rs.token_dialect'] = enumField(TOKEN_DIALECTS); // §2.3 TokenDialect

  tokenEncryptionValidators(t, lim);

  // §2.3 ConsentPolicy: "transactional-authorization-with-mfa" or null
  t['rs.consent_policy'] = enumField(['transactional-authorization-with-mfa', null]);

  // §2.1/§2.2 authorization_details: array or null, items unconstrained
  t['rs.authorization_details'] = arrayField('rs.authorization_details.item', undefined, undefined, true);
  t['rs.authorization_details.item'] = () => [];

  proofOfPossessionValidators(t);

  subjectTypeAuthorizationValidators(t);

  // §2.3 AuthorizationPolicy (object or null; no other fields): policy_id 1..1024 required
  objectType(t, 'rs.authorization_policy', {
    fields: { policy_id: 'rs.authorization_policy.policy_id' },
    required: ['policy_id'],
    nullable: true,
  });
  t['rs.authorization_policy.policy_id'] = stringField({ min: () => lim().policyIdMin, max: () => lim().policyIdMax });

  return t;
}

/** §2.3 TokenEncryption and the EncryptionKey inside it. */
function tokenEncryptionValidators(t: ValidatorTable, lim: LimitsRef): void {
  // §2.3 TokenEncryption (object or null; no other fields): format, encryption_key required
  objectType(t, 'rs.token_encryption', {
    fields: { format: 'rs.token_encryption.format', encryption_key: 'rs.encryption_key' },
    required: ['format', 'encryption_key'],
    nullable: true,
  });
  t['rs.token_encryption.format'] = enumField(['compact-nested-jwe']);
  // §2.3 EncryptionKey (no other fields): alg, pem required; name/kid 1..128; pem 1..4096
  objectType(t, 'rs.encryption_key', {
    fields: {
      name: 'rs.encryption_key.name',
      alg: 'rs.encryption_key.alg',
      kid: 'rs.encryption_key.kid',
      pem: 'rs.encryption_key.pem',
    },
    required: ['alg', 'pem'],
  });
  t['rs.encryption_key.name'] = stringField({
    min: () => lim().encryptionKeyNameMin,
    max: () => lim().encryptionKeyNameMax,
  });
  t['rs.encryption_key.alg'] = enumField(['RSA-OAEP-256', 'RSA-OAEP-384', 'RSA-OAEP-512']);
  t['rs.encryption_key.kid'] = stringField({
    min: () => lim().encryptionKeyKidMin,
    max: () => lim().encryptionKeyKidMax,
  });
  t['rs.encryption_key.pem'] = stringField({ min: () => lim().pemMin, max: () => lim().pemMax });
}

/** §2.3 ProofOfPossession. */
function proofOfPossessionValidators(t: ValidatorTable): void {
  // §2.3 ProofOfPossession (object or null; no other fields): mechanism, required required
  objectType(t, 'rs.proof_of_possession', {
    fields: {
      mechanism: 'rs.proof_of_possession.mechanism',
      required: 'rs.proof_of_possession.required',
      required_for: 'rs.proof_of_possession.required_for',
    },
    required: ['mechanism', 'required'],
    nullable: true,
  });
  t['rs.proof_of_possession.mechanism'] = enumField(['mtls', 'dpop']);
  t['rs.proof_of_possession.required'] = booleanField;
  t['rs.proof_of_possession.required_for'] = enumField(['public_clients', 'all_clients']);
}

/** §2.3 SubjectTypeAuthorization and its user and client policies. */
function subjectTypeAuthorizationValidators(t: ValidatorTable): void {
  // §2.3 SubjectTypeAuthorization: closed at this level; user/client open, each with `policy`
  objectType(t, 'rs.subject_type_authorization', {
    fields: { user: 'rs.subject_type_authorization.user', client: 'rs.subject_type_authorization.client' },
  });
  objectType(
    t,
    'rs.subject_type_authorization.user',
    { fields: { policy: 'rs.subject_type_authorization.user.policy' } },
    false,
  );
  t['rs.subject_type_authorization.user.policy'] = enumField(['allow_all', 'deny_all', 'require_client_grant']);
  objectType(
    t,
    'rs.subject_type_authorization.client',
    { fields: { policy: 'rs.subject_type_authorization.client.policy' } },
    false,
  );
  t['rs.subject_type_authorization.client.policy'] = enumField(['deny_all', 'require_client_grant']);
}
