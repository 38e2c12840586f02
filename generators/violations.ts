// Violations as data: each named mutation turns a valid body into one that
// breaks exactly one catalogue clause (self-tests hold every mutation to that
// against the schemas). Applied to a fixed minimal base they give the case
// list the specs, the report and the self-tests share; applied to generated
// valid bodies they give violation samples for property runs.
import fc from 'fast-check';
import type { Json, UpdateBody } from './resource-server.ts';
import { PUBLIC_KEY_PEM, updateBody, distinctiveUpdateValues, minimalUpdateBase } from './resource-server.ts';
import type { UpdateOptions } from './resource-server.ts';
import type { ExperimentBody, ExperimentOptions } from './experiment.ts';
import { DEFAULT_STRATEGY_FIELD, experimentPayloadArb } from './experiment.ts';
import { describeEdge, edgeValue, limitsOf, placeAt, type Limit } from './limits.ts';

export type Target = 'update' | 'experiment';

export interface Mutation {
  /** Stable within its target, e.g. `name.too-long`. */
  id: string;
  target: Target;
  /** The one catalogue clause the result breaks. */
  clause: string;
  description: string;
  apply: (base: UpdateBody) => Json;
}

export interface ViolationCase {
  /** `<target>/<mutation id>`, stable across runs. */
  id: string;
  clause: string;
  mutation: string;
  description: string;
  target: Target;
  body: Json;
  /** Distinctive valid values the body also carries (see findLeak). */
  probe?: UpdateBody;
}

const KEY: UpdateBody = { alg: 'RSA-OAEP-256', pem: PUBLIC_KEY_PEM };
const TOKEN_ENCRYPTION: UpdateBody = { format: 'compact-nested-jwe', encryption_key: KEY };
const POP: UpdateBody = { mechanism: 'dpop', required: true };
const AUTHZ_POLICY: UpdateBody = { policy_id: 'pol_idm_conformance' };

export function allMutations(): readonly Mutation[] {
  return [...UPDATE_MUTATIONS, ...EXPERIMENT_MUTATIONS];
}

export interface UpdateCaseOptions {
  /** Valid body the mutations are applied to; default `{}`. */
  base?: UpdateBody;
  /**
   * Give each case its own distinctive valid values (distinctiveUpdateValues of
   * `<probeTag>:<case id>`), recorded in `probe`, so findLeak can name the
   * rejected case whose write leaked into the state.
   */
  probeTag?: string;
}

/** One case per update mutation, applied to a fixed base: data, no randomness. */
export function updateViolationCases(opts: UpdateCaseOptions = {}): ViolationCase[] {
  return UPDATE_MUTATIONS.map((m) => {
    const id = caseId(m);
    const probe = opts.probeTag === undefined ? undefined : distinctiveUpdateValues(`${opts.probeTag}:${id}`);
    const base = { ...(opts.base ?? minimalUpdateBase()), ...(probe ?? {}) };
    return toCase(m, m.apply(base), probe);
  });
}

/**
 * `c` carrying its own distinctive valid values (distinctiveUpdateValues of `<tag>:<case id>`)
 * under its own fields, as updateViolationCases({ probeTag }) gives them: for cases read from
 * the case file (generators/cases.ts), which holds them without probes.
 */
export function withProbe(c: ViolationCase, tag: string): ViolationCase {
  const body = c.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return c;
  const probe = distinctiveUpdateValues(`${tag}:${c.id}`);
  return { ...c, body: { ...probe, ...body }, probe };
}

/** One case per experiment mutation, applied to `base` (a valid payload, e.g. experimentPayload(config)). */
export function experimentViolationCases(base: ExperimentBody): ViolationCase[] {
  return EXPERIMENT_MUTATIONS.map((m) => toCase(m, m.apply(base)));
}

/** Update cases, plus experiment cases when an experiment base is given. */
export function violationCases(opts: UpdateCaseOptions & { experimentBase?: ExperimentBody } = {}): ViolationCase[] {
  return [...updateViolationCases(opts), ...(opts.experimentBase ? experimentViolationCases(opts.experimentBase) : [])];
}

/** A random mutation applied to a random valid update body (for property runs; shrinks on both). */
export function updateViolation(opts: UpdateOptions = {}): fc.Arbitrary<ViolationCase> {
  return fc.tuple(updateBody(opts), fc.constantFrom(...UPDATE_MUTATIONS)).map(([b, m]) => toCase(m, m.apply(b)));
}

/** A random mutation applied to a random valid experiment payload. */
export function experimentViolation(opts: ExperimentOptions): fc.Arbitrary<ViolationCase> {
  return fc
    .tuple(experimentPayloadArb(opts), fc.constantFrom(...EXPERIMENT_MUTATIONS))
    .map(([b, m]) => toCase(m, m.apply(b)));
}

/**
 * The cases whose probe values show up in `state` (a resource server as read
 * back after the rejected requests): each is a rejected write that leaked.
 */
export function findLeak(state: Record<string, unknown>, cases: readonly ViolationCase[]): ViolationCase[] {
  return cases.filter((c) => c.probe && Object.entries(c.probe).some(([k, v]) => state[k] === v));
}

// Helpers

function caseId(m: Mutation): string {
  return `${m.target}/${m.id}`;
}

function toCase(m: Mutation, body: Json, probe?: UpdateBody): ViolationCase {
  const c: ViolationCase = {
    id: caseId(m),
    clause: m.clause,
    mutation: m.id,
    description: m.description,
    target: m.target,
    body,
  };
  if (probe) c.probe = probe;
  return c;
}

const isObj = (v: unknown): v is UpdateBody => typeof v === 'object' && v !== null && !Array.isArray(v);
const clone = <T>(v: T): T => structuredClone(v);

/** base with `field` set; the rest of the base kept. */
const set =
  (field: string, value: Json) =>
  (b: UpdateBody): Json => ({ ...b, [field]: value });

/** Edit a nested object of the base, starting from a valid default where the base has none. */
function nested(field: string, fallback: UpdateBody, edit: (o: UpdateBody) => void) {
  return (b: UpdateBody): Json => {
    const o = isObj(b[field]) ? clone(b[field] as UpdateBody) : clone(fallback);
    edit(o);
    return { ...b, [field]: o };
  };
}

function key(edit: (k: UpdateBody) => void) {
  return nested('token_encryption', TOKEN_ENCRYPTION, (te) => {
    const k = isObj(te['encryption_key']) ? (te['encryption_key'] as UpdateBody) : clone(KEY);
    edit(k);
    te['encryption_key'] = k;
  });
}

/** Append one scope to the base's scopes. */
function scope(s: Json) {
  return (b: UpdateBody): Json => ({ ...b, scopes: [...(Array.isArray(b['scopes']) ? b['scopes'] : []), s] });
}

function sta(edit: (o: UpdateBody) => void) {
  return nested('subject_type_authorization', {}, edit);
}

function alloc(edit: (a: UpdateBody) => void) {
  return (b: UpdateBody): Json => {
    const list = Array.isArray(b['allocations']) ? clone(b['allocations']) : [{ weight: 100 }];
    const first = isObj(list[0]) ? list[0] : {};
    edit(first);
    list[0] = first;
    return { ...b, allocations: list };
  };
}

/**
 * Wrap the base's text field in prefix/suffix, first cutting the base text so
 * the result stays within `max` code points (the mutation breaks the pattern only).
 */
function around(field: string, max: number, prefix: string, suffix: string) {
  return (b: UpdateBody): Json => {
    const room = max - [...prefix].length - [...suffix].length;
    const core = [...(typeof b[field] === 'string' ? (b[field] as string) : 'abc')].slice(0, room).join('');
    return { ...b, [field]: prefix + core + suffix };
  };
}

/** The base's feature flag id with a character outside base58 appended. */
function flagWith(c: string) {
  return (b: UpdateBody): Json => ({
    ...b,
    feature_flag_id: `${typeof b['feature_flag_id'] === 'string' ? b['feature_flag_id'] : 'flg_7Hq2kPzR'}${c}`,
  });
}

/** Valid instances a nested limit is placed in (a usable PEM key is nothing a schema keyword gives). */
export const NESTED_FALLBACKS: Record<string, UpdateBody> = {
  scopes: { value: 'read:x' },
  token_encryption: TOKEN_ENCRYPTION,
  encryption_key: KEY,
  authorization_policy: AUTHZ_POLICY,
};

const PAST: Record<Limit['keyword'], string> = {
  minLength: 'too-short',
  maxLength: 'too-long',
  minimum: 'too-small',
  maximum: 'too-large',
  minItems: 'too-few',
};

/** The first invalid value past each limit of the target's schema, as one mutation each. */
function limitMutations(target: Target): Mutation[] {
  return limitsOf(target === 'update' ? 'ResourceServerUpdate' : 'ExperimentCreate').map((l) => {
    // minItems 1 (allocations) is the one array limit: one past it is the empty array.
    const value = l.keyword === 'minItems' && l.bound === 1 ? [] : edgeValue(l, 'invalid');
    const id = `${l.path.filter((p) => p !== '*').join('.')}.${PAST[l.keyword]}`;
    const description = Array.isArray(value) ? `${l.path.join('.')} empty` : describeEdge(l, value);
    return {
      id,
      target,
      clause: l.clause,
      description,
      apply: (b: UpdateBody) => placeAt(b, l.path, value, NESTED_FALLBACKS),
    };
  });
}

const u = (id: string, clause: string, description: string, apply: Mutation['apply']): Mutation => ({
  id,
  target: 'update',
  clause,
  description,
  apply,
});
const e = (id: string, clause: string, description: string, apply: Mutation['apply']): Mutation => ({
  id,
  target: 'experiment',
  clause,
  description,
  apply,
});

const UPDATE_MUTATIONS: readonly Mutation[] = [
  // one past every limit of the schema (generators/limits.ts)
  ...limitMutations('update'),
  // the body itself
  u('body.array', 'rs.update.body.object', 'body is a JSON array instead of an object', () => [{ name: 'x' }]),
  u('body.string', 'rs.update.body.object', 'body is a JSON string instead of an object', () => 'name=x'),
  // unknown and response-only fields at the top
  u(
    'identifier.present',
    'rs.update.identifier.not-allowed',
    'identifier in the body',
    set('identifier', 'https://api.changed.test/'),
  ),
  u('top.unknown-key', 'rs.update.closed', 'unknown top-level field', set('x_unknown_field', true)),
  u(
    'top.token_lifetime_for_web',
    'rs.update.closed',
    'token_lifetime_for_web (a response field, not in 2.2)',
    set('token_lifetime_for_web', 60),
  ),
  u('top.is_system', 'rs.update.closed', 'is_system (a response field, not in 2.2)', set('is_system', false)),
  u('top.id', 'rs.update.closed', 'id (a response field, not in 2.2)', set('id', 'rs_other')),
  u('top.client_id', 'rs.update.closed', 'client_id (a response field, not in 2.2)', set('client_id', 'some-client')),
  // name
  u('name.empty', 'rs.update.name.pattern', 'empty name (the pattern needs one character)', set('name', '')),
  u('name.less-than', 'rs.update.name.pattern', 'name containing <', set('name', 'api <b>')),
  u('name.greater-than', 'rs.update.name.pattern', 'name containing >', set('name', 'a > b')),
  u('name.number', 'rs.update.name.type', 'name as a number', set('name', 42)),
  u('name.null', 'rs.update.name.type', 'name null', set('name', null)),
  // scopes
  u('scopes.object', 'rs.update.scopes.type', 'scopes as an object', set('scopes', { value: 'read:x' })),
  u('scopes.null', 'rs.update.scopes.type', 'scopes null', set('scopes', null)),
  u('scopes.item-string', 'rs.update.scopes.type', 'a scope given as a string', scope('read:x')),
  u('scope.value.missing', 'rs.scope.required-members', 'a scope without value', scope({ description: 'no value' })),
  u('scope.value.number', 'rs.scope.types', 'scope value as a number', scope({ value: 7 })),
  u(
    'scope.description.null',
    'rs.scope.types',
    'scope description null',
    scope({ value: 'read:x', description: null }),
  ),
  u('scope.unknown-key', 'rs.scope.closed', 'unknown field inside a scope', scope({ value: 'read:x', x_unknown: 1 })),
  // signing
  u(
    'signing_alg.outsider',
    'rs.update.signing_alg.enum',
    'signing_alg HS384 (not in the enum)',
    set('signing_alg', 'HS384'),
  ),
  u(
    'signing_alg.lowercase',
    'rs.update.signing_alg.enum',
    'signing_alg hs256 (enum is case-sensitive)',
    set('signing_alg', 'hs256'),
  ),
  u('signing_alg.null', 'rs.update.signing_alg.enum', 'signing_alg null', set('signing_alg', null)),
  u(
    'signing_secret.number',
    'rs.update.signing_secret.type',
    'signing_secret as a number',
    set('signing_secret', 1234567890123456),
  ),
  u('signing_secret.null', 'rs.update.signing_secret.type', 'signing_secret null', set('signing_secret', null)),
  // boolean flags
  u(
    'allow_offline_access.string',
    'rs.update.flags.type',
    'allow_offline_access as the string "true"',
    set('allow_offline_access', 'true'),
  ),
  u('allow_online_access.number', 'rs.update.flags.type', 'allow_online_access as 1', set('allow_online_access', 1)),
  u(
    'allow_online_access_with_ephemeral_sessions.null',
    'rs.update.flags.type',
    'allow_online_access_with_ephemeral_sessions null',
    set('allow_online_access_with_ephemeral_sessions', null),
  ),
  u(
    'skip_consent.string',
    'rs.update.flags.type',
    'skip_consent_for_verifiable_first_party_clients as "false"',
    set('skip_consent_for_verifiable_first_party_clients', 'false'),
  ),
  u('enforce_policies.null', 'rs.update.flags.type', 'enforce_policies null', set('enforce_policies', null)),
  // token lifetime
  u(
    'token_lifetime.fraction',
    'rs.update.token_lifetime.integer',
    'token_lifetime 3600.5',
    set('token_lifetime', 3600.5),
  ),
  u(
    'token_lifetime.string',
    'rs.update.token_lifetime.integer',
    'token_lifetime as the string "3600"',
    set('token_lifetime', '3600'),
  ),
  u('token_lifetime.null', 'rs.update.token_lifetime.integer', 'token_lifetime null', set('token_lifetime', null)),
  // dialect, consent, details
  u(
    'token_dialect.outsider',
    'rs.update.token_dialect.enum',
    'token_dialect jwt (not in the enum)',
    set('token_dialect', 'jwt'),
  ),
  u('token_dialect.null', 'rs.update.token_dialect.enum', 'token_dialect null', set('token_dialect', null)),
  u(
    'consent_policy.outsider',
    'rs.update.consent_policy.enum',
    'consent_policy "always" (not in the enum)',
    set('consent_policy', 'always'),
  ),
  u('consent_policy.boolean', 'rs.update.consent_policy.enum', 'consent_policy as false', set('consent_policy', false)),
  u(
    'authorization_details.object',
    'rs.update.authorization_details.type',
    'authorization_details as an object',
    set('authorization_details', { type: 'payment' }),
  ),
  u(
    'authorization_details.string',
    'rs.update.authorization_details.type',
    'authorization_details as a string',
    set('authorization_details', 'payment'),
  ),
  // token encryption
  u(
    'token_encryption.string',
    'rs.update.token_encryption.type',
    'token_encryption as a string',
    set('token_encryption', 'compact-nested-jwe'),
  ),
  u(
    'token_encryption.unknown-key',
    'rs.token_encryption.closed',
    'unknown field inside token_encryption',
    nested('token_encryption', TOKEN_ENCRYPTION, (o) => (o['x_unknown'] = 1)),
  ),
  u(
    'token_encryption.format.missing',
    'rs.token_encryption.required-members',
    'token_encryption without format',
    nested('token_encryption', TOKEN_ENCRYPTION, (o) => delete o['format']),
  ),
  u(
    'token_encryption.encryption_key.missing',
    'rs.token_encryption.required-members',
    'token_encryption without encryption_key',
    nested('token_encryption', TOKEN_ENCRYPTION, (o) => delete o['encryption_key']),
  ),
  u(
    'token_encryption.format.outsider',
    'rs.token_encryption.format.enum',
    'token_encryption format compact-jwe (not the only value)',
    nested('token_encryption', TOKEN_ENCRYPTION, (o) => (o['format'] = 'compact-jwe')),
  ),
  u(
    'token_encryption.encryption_key.null',
    'rs.token_encryption.encryption_key.type',
    'encryption_key null',
    nested('token_encryption', TOKEN_ENCRYPTION, (o) => (o['encryption_key'] = null)),
  ),
  u(
    'encryption_key.unknown-key',
    'rs.encryption_key.closed',
    'unknown field inside encryption_key',
    key((k) => (k['x_unknown'] = 1)),
  ),
  u(
    'encryption_key.alg.missing',
    'rs.encryption_key.required-members',
    'encryption_key without alg',
    key((k) => delete k['alg']),
  ),
  u(
    'encryption_key.pem.missing',
    'rs.encryption_key.required-members',
    'encryption_key without pem',
    key((k) => delete k['pem']),
  ),
  u(
    'encryption_key.alg.outsider',
    'rs.encryption_key.alg.enum',
    'encryption_key alg RSA-OAEP (not in the enum)',
    key((k) => (k['alg'] = 'RSA-OAEP')),
  ),
  u(
    'encryption_key.name.number',
    'rs.encryption_key.types',
    'encryption_key name as a number',
    key((k) => (k['name'] = 5)),
  ),
  u(
    'encryption_key.pem.null',
    'rs.encryption_key.types',
    'encryption_key pem null',
    key((k) => (k['pem'] = null)),
  ),
  // proof of possession
  u(
    'proof_of_possession.string',
    'rs.update.proof_of_possession.type',
    'proof_of_possession as a string',
    set('proof_of_possession', 'dpop'),
  ),
  u(
    'proof_of_possession.unknown-key',
    'rs.proof_of_possession.closed',
    'unknown field inside proof_of_possession',
    nested('proof_of_possession', POP, (o) => (o['x_unknown'] = 1)),
  ),
  u(
    'proof_of_possession.mechanism.missing',
    'rs.proof_of_possession.required-members',
    'proof_of_possession without mechanism',
    nested('proof_of_possession', POP, (o) => delete o['mechanism']),
  ),
  u(
    'proof_of_possession.required.missing',
    'rs.proof_of_possession.required-members',
    'proof_of_possession without required',
    nested('proof_of_possession', POP, (o) => delete o['required']),
  ),
  u(
    'proof_of_possession.mechanism.outsider',
    'rs.proof_of_possession.mechanism.enum',
    'proof_of_possession mechanism tls (not in the enum)',
    nested('proof_of_possession', POP, (o) => (o['mechanism'] = 'tls')),
  ),
  u(
    'proof_of_possession.required.string',
    'rs.proof_of_possession.required.type',
    'proof_of_possession required as "yes"',
    nested('proof_of_possession', POP, (o) => (o['required'] = 'yes')),
  ),
  u(
    'proof_of_possession.required_for.outsider',
    'rs.proof_of_possession.required_for.enum',
    'proof_of_possession required_for confidential_clients (not in the enum)',
    nested('proof_of_possession', POP, (o) => (o['required_for'] = 'confidential_clients')),
  ),
  // subject type authorization
  u(
    'subject_type_authorization.null',
    'rs.update.subject_type_authorization.type',
    'subject_type_authorization null (not nullable)',
    set('subject_type_authorization', null),
  ),
  u(
    'subject_type_authorization.array',
    'rs.update.subject_type_authorization.type',
    'subject_type_authorization as an array',
    set('subject_type_authorization', []),
  ),
  u(
    'subject_type_authorization.unknown-key',
    'rs.subject_type_authorization.closed',
    'unknown field at the top of subject_type_authorization',
    sta((o) => (o['group'] = { policy: 'deny_all' })),
  ),
  u(
    'subject_type_authorization.user.string',
    'rs.subject_type_authorization.members.type',
    'subject_type_authorization.user as a string',
    sta((o) => (o['user'] = 'allow_all')),
  ),
  u(
    'subject_type_authorization.client.null',
    'rs.subject_type_authorization.members.type',
    'subject_type_authorization.client null',
    sta((o) => (o['client'] = null)),
  ),
  u(
    'subject_type_authorization.user.policy.outsider',
    'rs.subject_type_authorization.user.policy.enum',
    'user.policy allow_some (not in the enum)',
    sta((o) => (o['user'] = { ...(isObj(o['user']) ? o['user'] : {}), policy: 'allow_some' })),
  ),
  u(
    'subject_type_authorization.client.policy.allow_all',
    'rs.subject_type_authorization.client.policy.enum',
    'client.policy allow_all (allowed for user, not for client)',
    sta((o) => (o['client'] = { ...(isObj(o['client']) ? o['client'] : {}), policy: 'allow_all' })),
  ),
  // authorization policy
  u(
    'authorization_policy.string',
    'rs.update.authorization_policy.type',
    'authorization_policy as a string',
    set('authorization_policy', 'pol_1'),
  ),
  u(
    'authorization_policy.unknown-key',
    'rs.authorization_policy.closed',
    'unknown field inside authorization_policy',
    nested('authorization_policy', AUTHZ_POLICY, (o) => (o['x_unknown'] = 1)),
  ),
  u(
    'authorization_policy.policy_id.missing',
    'rs.authorization_policy.required-members',
    'authorization_policy without policy_id',
    nested('authorization_policy', AUTHZ_POLICY, (o) => delete o['policy_id']),
  ),
  u(
    'authorization_policy.policy_id.number',
    'rs.authorization_policy.policy_id.type',
    'policy_id as a number',
    nested('authorization_policy', AUTHZ_POLICY, (o) => (o['policy_id'] = 12)),
  ),
];

const EXPERIMENT_MUTATIONS: readonly Mutation[] = [
  ...limitMutations('experiment'),
  e('body.array', 'exp.create.types', 'body is a JSON array instead of an object', (b) => [b]),
  // name
  e('name.leading-space', 'exp.create.name.pattern', 'name with a leading space', around('name', 255, ' ', '')),
  e('name.trailing-space', 'exp.create.name.pattern', 'name with a trailing space', around('name', 255, '', ' ')),
  e('name.leading-tab', 'exp.create.name.pattern', 'name with a leading tab', around('name', 255, '\t', '')),
  e(
    'name.trailing-nbsp',
    'exp.create.name.pattern',
    'name ending in a no-break space (Unicode whitespace)',
    around('name', 255, '', '\u00a0'),
  ),
  e('name.nul', 'exp.create.name.pattern', 'name containing NUL', around('name', 255, '', '\u0000x')),
  e(
    'name.line-break',
    'exp.create.name.pattern',
    'name containing a line break (. does not match it)',
    around('name', 255, '', '\nx'),
  ),
  e('name.number', 'exp.create.types', 'name as a number', set('name', 12345)),
  e('name.null', 'exp.create.types', 'name null', set('name', null)),
  // description
  e(
    'description.leading-space',
    'exp.create.description.pattern',
    'description with a leading space',
    around('description', 1024, ' ', ''),
  ),
  e(
    'description.trailing-newline',
    'exp.create.description.pattern',
    'description ending in a newline',
    around('description', 1024, '', '\n'),
  ),
  e(
    'description.nul',
    'exp.create.description.pattern',
    'description containing NUL',
    around('description', 1024, 'abc\u0000', ''),
  ),
  e('description.number', 'exp.create.types', 'description as a number', set('description', 123)),
  // feature flag id
  e(
    'feature_flag_id.zero',
    'exp.create.feature_flag_id.pattern',
    'feature_flag_id with 0 (excluded from base58)',
    flagWith('0'),
  ),
  e(
    'feature_flag_id.capital-o',
    'exp.create.feature_flag_id.pattern',
    'feature_flag_id with O (excluded from base58)',
    flagWith('O'),
  ),
  e(
    'feature_flag_id.capital-i',
    'exp.create.feature_flag_id.pattern',
    'feature_flag_id with I (excluded from base58)',
    flagWith('I'),
  ),
  e(
    'feature_flag_id.lower-l',
    'exp.create.feature_flag_id.pattern',
    'feature_flag_id with l (excluded from base58)',
    flagWith('l'),
  ),
  e(
    'feature_flag_id.no-prefix',
    'exp.create.feature_flag_id.pattern',
    'feature_flag_id without the flg_ prefix',
    (b) => ({ ...b, feature_flag_id: String(b['feature_flag_id']).replace(/^flg_/, '') }),
  ),
  e(
    'feature_flag_id.empty-suffix',
    'exp.create.feature_flag_id.pattern',
    'feature_flag_id flg_ with nothing after it',
    set('feature_flag_id', 'flg_'),
  ),
  e('feature_flag_id.number', 'exp.create.types', 'feature_flag_id as a number', set('feature_flag_id', 7)),
  // other fields
  e('authentication_flow.number', 'exp.create.types', 'authentication_flow as a number', set('authentication_flow', 1)),
  e(
    'assignment_config.string',
    'exp.create.types',
    'assignment_config as a string',
    set('assignment_config', 'device'),
  ),
  e('assignment_config.subject.number', 'exp.create.types', 'assignment_config.subject as a number', (b) => ({
    ...b,
    assignment_config: { ...(isObj(b['assignment_config']) ? b['assignment_config'] : {}), subject: 3 },
  })),
  // allocations
  e('allocations.object', 'exp.create.types', 'allocations as an object', (b) => ({
    ...b,
    allocations: Array.isArray(b['allocations']) ? (b['allocations'][0] ?? {}) : {},
  })),
  e('allocations.null', 'exp.create.types', 'allocations null', set('allocations', null)),
  e('allocation.string', 'exp.create.allocation.types', 'an allocation given as a string', (b) => ({
    ...b,
    allocations: [...(Array.isArray(b['allocations']) ? b['allocations'] : []), 'var_control'],
  })),
  // The second weight moves the other way: the sum stays what it was, so only the type is wrong.
  e('allocation.weight.fraction', 'exp.create.allocation.types', 'allocation weights 50.5 and 49.5', (b) => {
    const list = Array.isArray(b['allocations']) ? clone(b['allocations']) : [];
    const [first, second] = list.filter(isObj);
    if (first) first['weight'] = typeof first['weight'] === 'number' ? first['weight'] + 0.5 : 50.5;
    if (second && typeof second['weight'] === 'number') second['weight'] -= 0.5;
    return { ...b, allocations: list.length > 0 ? list : [{ weight: 50.5 }] };
  }),
  e(
    'allocation.weight.string',
    'exp.create.allocation.types',
    'allocation weight as "50"',
    alloc((a) => (a['weight'] = String(a['weight'] ?? 50))),
  ),
  e(
    'allocation.priority.fraction',
    'exp.create.allocation.types',
    'allocation priority 1.5',
    alloc((a) => (a['priority'] = 1.5)),
  ),
  e(
    'allocation.is_control.string',
    'exp.create.allocation.types',
    'allocation is_control as "true"',
    alloc((a) => (a['is_control'] = 'true')),
  ),
  e(
    'allocation.is_fallback.number',
    'exp.create.allocation.types',
    'allocation is_fallback as 1',
    alloc((a) => (a['is_fallback'] = 1)),
  ),
  e(
    'allocation.variation_id.number',
    'exp.create.allocation.types',
    'allocation variation_id as a number',
    alloc((a) => (a['variation_id'] = 1)),
  ),
  e(
    'allocation.segment_id.number',
    'exp.create.allocation.types',
    'allocation segment_id as a number',
    alloc((a) => (a['segment_id'] = 1)),
  ),
];

/**
 * Values outside the §2.4 allocation-strategy enum (percentage | segment). The field's name
 * is not shown, so these are set under the configured name and kept apart from the
 * experiment mutations above: they are asserted only once the target's answer has
 * confirmed the name (specs/experiments/strategy.spec.ts).
 */
const STRATEGY_OUTSIDERS: ReadonlyArray<readonly [id: string, description: string, value: Json]> = [
  ['other-string', 'another string ("random")', 'random'],
  ['wrong-case', 'wrong case ("Percentage")', 'Percentage'],
  ['upper-case', 'upper case ("SEGMENT")', 'SEGMENT'],
  ['empty', 'an empty string', ''],
  ['number', 'a number (1)', 1],
  ['null', 'null', null],
];

/** One case per value outside the strategy enum, set under `strategyField` on `base` (a valid payload). */
export function strategyViolationCases(base: ExperimentBody, strategyField = DEFAULT_STRATEGY_FIELD): ViolationCase[] {
  return STRATEGY_OUTSIDERS.map(([id, description, value]) => {
    const m = e(
      `strategy.${id}`,
      'exp.create.strategy.enum',
      `${strategyField} ${description}`,
      set(strategyField, value),
    );
    return toCase(m, m.apply(base));
  });
}
