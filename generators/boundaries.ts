// Both sides of every §8 limit (and the valid-side rules of §2.2/§2.3: empty
// body, null where allowed, open members), as data labelled with the clause.
// `expect` says what a conformant target must do: accept, reject — or, where
// the spec leaves acceptance open, `observe` (the clause is then an observe one).
import type { Json, UpdateBody, UpdateOptions } from './resource-server.ts';
import { PUBLIC_KEY_PEM, pemOfLength, TOKEN_LIFETIME_MAX } from './resource-server.ts';
import type { ExperimentOptions } from './experiment.ts';
import { experimentPayload, experimentWithNameLength, experimentWithDescriptionLength } from './experiment.ts';
import { exactText, exactAstralText } from './text.ts';
import type { Target } from './violations.ts';

export interface BoundaryCase {
  /** `<target>/<field>.<value>`, stable across runs. */
  id: string;
  clause: string;
  target: Target;
  side: 'valid' | 'invalid';
  /** accept → 201/2xx; reject → 400/4xx; observe → record the answer (clause is an observe clause). */
  expect: 'accept' | 'reject' | 'observe';
  description: string;
  body: Json;
}

const KEY: UpdateBody = { alg: 'RSA-OAEP-256', pem: PUBLIC_KEY_PEM };
const withKey = (k: UpdateBody): UpdateBody => ({
  token_encryption: { format: 'compact-nested-jwe', encryption_key: { ...KEY, ...k } },
});

/**
 * Limits of the update body, both sides, from a base of `{}`. With
 * `earlyAccess: false` the authorization_policy cases are left out.
 */
export function updateBoundaryCases(opts: UpdateOptions = {}): BoundaryCase[] {
  const out: BoundaryCase[] = [];
  const add = adder(out, 'update');

  add('empty-body', 'rs.update.optional', 'valid', 'empty body {} (every field optional)', {});
  // name: max 200, pattern needs one character
  add('name.1', 'rs.update.name.max-length', 'valid', 'name of 1 character', { name: exactText(1) });
  add('name.200', 'rs.update.name.max-length', 'valid', 'name of 200 characters, multi-byte included', {
    name: exactText(200),
  });
  add('name.201', 'rs.update.name.max-length', 'invalid', 'name of 201 characters', { name: exactText(201) });
  add('name.0', 'rs.update.name.pattern', 'invalid', 'name of 0 characters', { name: '' });
  add(
    'name.200-astral',
    'limits.length.unit',
    'valid',
    'name of 200 astral characters (400 UTF-16 units): how the target counts',
    { name: exactAstralText(200) },
    'observe',
  );
  // scopes
  add('scope.value.1', 'rs.scope.value.length', 'valid', 'scope value of 1 character', {
    scopes: [{ value: exactText(1) }],
  });
  add('scope.value.280', 'rs.scope.value.length', 'valid', 'scope value of 280 characters', {
    scopes: [{ value: exactText(280) }],
  });
  add('scope.value.0', 'rs.scope.value.length', 'invalid', 'scope value of 0 characters', { scopes: [{ value: '' }] });
  add('scope.value.281', 'rs.scope.value.length', 'invalid', 'scope value of 281 characters', {
    scopes: [{ value: exactText(281) }],
  });
  add('scope.description.500', 'rs.scope.description.max-length', 'valid', 'scope description of 500 characters', {
    scopes: [{ value: 'read:x', description: exactText(500) }],
  });
  add('scope.description.501', 'rs.scope.description.max-length', 'invalid', 'scope description of 501 characters', {
    scopes: [{ value: 'read:x', description: exactText(501) }],
  });
  add('scopes.empty', 'rs.update.scopes.type', 'valid', 'scopes as an empty array', { scopes: [] });
  // signing secret
  add('signing_secret.16', 'rs.update.signing_secret.min-length', 'valid', 'signing_secret of 16 characters', {
    signing_secret: exactText(16),
  });
  add('signing_secret.15', 'rs.update.signing_secret.min-length', 'invalid', 'signing_secret of 15 characters', {
    signing_secret: exactText(15),
  });
  // token lifetime
  add('token_lifetime.0', 'rs.update.token_lifetime.range', 'valid', 'token_lifetime 0', { token_lifetime: 0 });
  add('token_lifetime.2592000', 'rs.update.token_lifetime.range', 'valid', 'token_lifetime 2592000', {
    token_lifetime: TOKEN_LIFETIME_MAX,
  });
  add('token_lifetime.-1', 'rs.update.token_lifetime.range', 'invalid', 'token_lifetime -1', { token_lifetime: -1 });
  add('token_lifetime.2592001', 'rs.update.token_lifetime.range', 'invalid', 'token_lifetime 2592001', {
    token_lifetime: TOKEN_LIFETIME_MAX + 1,
  });
  // encryption key
  for (const f of ['name', 'kid'] as const) {
    const clause = `rs.encryption_key.${f}.length`;
    add(`encryption_key.${f}.1`, clause, 'valid', `encryption_key ${f} of 1 character`, withKey({ [f]: exactText(1) }));
    add(
      `encryption_key.${f}.128`,
      clause,
      'valid',
      `encryption_key ${f} of 128 characters`,
      withKey({ [f]: exactText(128) }),
    );
    add(`encryption_key.${f}.0`, clause, 'invalid', `encryption_key ${f} of 0 characters`, withKey({ [f]: '' }));
    add(
      `encryption_key.${f}.129`,
      clause,
      'invalid',
      `encryption_key ${f} of 129 characters`,
      withKey({ [f]: exactText(129) }),
    );
  }
  add(
    'encryption_key.pem.4096',
    'rs.encryption_key.pem.length',
    'valid',
    'pem of 4096 characters (a real key with explanatory text before it)',
    withKey({ pem: pemOfLength(4096) }),
  );
  add(
    'encryption_key.pem.4097',
    'rs.encryption_key.pem.length',
    'invalid',
    'pem of 4097 characters',
    withKey({ pem: pemOfLength(4097) }),
  );
  add('encryption_key.pem.0', 'rs.encryption_key.pem.length', 'invalid', 'pem of 0 characters', withKey({ pem: '' }));
  add(
    'encryption_key.pem.1',
    'rs.encryption_key.pem.content',
    'valid',
    'pem of 1 character: within the length range but not a PEM key',
    withKey({ pem: '-' }),
    'observe',
  );
  // authorization policy
  add(
    'authorization_policy.policy_id.1',
    'rs.authorization_policy.policy_id.length',
    'valid',
    'policy_id of 1 character',
    { authorization_policy: { policy_id: exactText(1) } },
  );
  add(
    'authorization_policy.policy_id.1024',
    'rs.authorization_policy.policy_id.length',
    'valid',
    'policy_id of 1024 characters',
    { authorization_policy: { policy_id: exactText(1024) } },
  );
  add(
    'authorization_policy.policy_id.0',
    'rs.authorization_policy.policy_id.length',
    'invalid',
    'policy_id of 0 characters',
    { authorization_policy: { policy_id: '' } },
  );
  add(
    'authorization_policy.policy_id.1025',
    'rs.authorization_policy.policy_id.length',
    'invalid',
    'policy_id of 1025 characters',
    { authorization_policy: { policy_id: exactText(1025) } },
  );
  // null where allowed
  const nullable: Array<[string, string]> = [
    ['token_encryption', 'rs.update.token_encryption.type'],
    ['consent_policy', 'rs.update.consent_policy.enum'],
    ['authorization_details', 'rs.update.authorization_details.type'],
    ['proof_of_possession', 'rs.update.proof_of_possession.type'],
    ['authorization_policy', 'rs.update.authorization_policy.type'],
  ];
  for (const [field, clause] of nullable)
    add(`${field}.null`, clause, 'valid', `${field} null (allowed)`, { [field]: null });
  // open members of SubjectTypeAuthorization
  add(
    'subject_type_authorization.extra-members',
    'rs.subject_type_authorization.members.open',
    'valid',
    'extra members inside user and client (allowed)',
    {
      subject_type_authorization: {
        user: { policy: 'allow_all', x_note: 'extra' },
        client: { policy: 'deny_all', x_tier: 2 },
      },
    },
  );
  return opts.earlyAccess === false ? out.filter((c) => !c.id.startsWith('update/authorization_policy.')) : out;
}

/** Limits of the experiment payload, both sides, around a valid payload. */
export function experimentBoundaryCases(opts: ExperimentOptions): BoundaryCase[] {
  const out: BoundaryCase[] = [];
  const add = adder(out, 'experiment');

  add(
    'name.3',
    'exp.create.name.length',
    'valid',
    'name of 3 characters (run tag moved to the description)',
    experimentWithNameLength(opts, 3),
  );
  add('name.255', 'exp.create.name.length', 'valid', 'name of 255 characters', experimentWithNameLength(opts, 255, 1));
  add('name.2', 'exp.create.name.length', 'invalid', 'name of 2 characters', experimentWithNameLength(opts, 2));
  add(
    'name.256',
    'exp.create.name.length',
    'invalid',
    'name of 256 characters',
    experimentWithNameLength(opts, 256, 1),
  );
  add(
    'description.3',
    'exp.create.description.length',
    'valid',
    'description of 3 characters',
    experimentWithDescriptionLength(opts, 3),
  );
  add(
    'description.1024',
    'exp.create.description.length',
    'valid',
    'description of 1024 characters',
    experimentWithDescriptionLength(opts, 1024, 2),
  );
  add(
    'description.2',
    'exp.create.description.length',
    'invalid',
    'description of 2 characters',
    experimentWithDescriptionLength(opts, 2),
  );
  add(
    'description.1025',
    'exp.create.description.length',
    'invalid',
    'description of 1025 characters',
    experimentWithDescriptionLength(opts, 1025, 2),
  );
  const base = experimentPayload(opts);
  const allocations = base['allocations'] as Json[];
  add('allocations.0', 'exp.create.allocations.min-items', 'invalid', 'allocations empty', {
    ...base,
    allocations: [],
  });
  add(
    'allocations.1',
    'exp.create.allocation.rules',
    'valid',
    'one allocation of weight 100: meets min length 1, other allocation rules are not shown',
    {
      ...base,
      allocations: [{ ...(allocations[0] as UpdateBody), weight: 100 }],
    },
    'observe',
  );
  return out;
}

/** Every boundary case; experiment cases only when experiment options are given. */
export function boundaryCases(opts: UpdateOptions & { experiment?: ExperimentOptions } = {}): BoundaryCase[] {
  return [...updateBoundaryCases(opts), ...(opts.experiment ? experimentBoundaryCases(opts.experiment) : [])];
}

// Helpers

/** Appends cases for one target; `expect` defaults to what the side implies. */
function adder(out: BoundaryCase[], target: Target) {
  return (
    id: string,
    clause: string,
    side: BoundaryCase['side'],
    description: string,
    body: Json,
    expect?: BoundaryCase['expect'],
  ): void => {
    out.push({
      id: `${target}/${id}`,
      clause,
      target,
      side,
      expect: expect ?? (side === 'valid' ? 'accept' : 'reject'),
      description,
      body,
    });
  };
}
