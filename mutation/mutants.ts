// The mutant catalogue: faulty variants of the reference tenant, each breaking one clause of
// contract/clauses.json (and labelled with it), plus benign variants that differ from the
// reference only where the spec is silent. Every variant is built from the tenant's exported
// injection points (named parts, HTTP-level wrap); reference/ itself is never edited.
import { decodeJwt } from 'jose';
import type { RateLimiter, ResourceServerRecord, Store, TenantParts } from '../reference/src/index.ts';
import { clone, cpLength, isExpCreate, isManagement, isRsPatch, type Req, type Wrap } from './exchange.ts';
import { deepEqual, isObject } from '../lib/values.ts';
import { fieldsOf } from '../schemas/index.ts';
import { errorBody, mapResponse } from './faults.ts';
import { STRATEGY_BENIGN, STRATEGY_MUTANTS } from './mutants-strategy.ts';
import { chars, experimentWith, ISO_DATE_TIME, statusOf, VALID_EXPERIMENT, withEncryption } from './probes.ts';
import {
  loosen,
  rsAcceptsInvalid,
  tighten,
  verifierBypass,
  viaParts,
  viaWrap,
  withLimits,
  type Variant,
} from './variant.ts';
import { FLOW_BENIGN, FLOW_MUTANTS } from './mutants-flows.ts';
import { AUTH_BENIGN, AUTH_MUTANTS } from './mutants-auth.ts';
import { SECURITY_BENIGN, SECURITY_MUTANTS } from './mutants-security.ts';
import { SERVER_BENIGN, SERVER_MUTANTS } from './mutants-servers.ts';
import { ATTACK_BENIGN, ATTACK_MUTANTS } from './mutants-attacks.ts';
import { JUDGING_BENIGN, JUDGING_MUTANTS } from './mutants-judging.ts';
import { SCHEMA_MUTANTS } from './mutants-schema.ts';
import { LOGIN_BENIGN, LOGIN_MUTANTS } from './mutants-login.ts';
import { SHAPE_BENIGN, SHAPE_MUTANTS } from './mutants-server-shapes.ts';
import { TIMING_BENIGN } from './mutants-timing.ts';
import { EXPERIMENT_PROFILE_BENIGN, EXPERIMENT_PROFILE_MUTANTS } from './mutants-experiments.ts';
import { SETTINGS_BENIGN, SETTINGS_MUTANTS } from './mutants-settings.ts';
import { STAGING_BENIGN, STAGING_MUTANTS } from './mutants-staging.ts';

const str = (v: unknown): v is string => typeof v === 'string';
const len = (v: unknown): number => (str(v) ? cpLength(v) : -1);
const anyObject = (v: unknown): boolean => isObject(v);

/** The §2.1 answer rules are held on every answer of the `rs` fixture (no test declares them): tests with such answers. */
const RS_ANSWERS = ['rs.update.success.status', 'rs.update.path.by-id'];
export const MUTANTS: Variant[] = [
  // ── Limits off by one, both ways (§2.2, §2.3, §2.4, §8): the update body's from its schema ─
  ...SCHEMA_MUTANTS,
  {
    id: 'exp-name-2-accepted',
    kind: 'mutant',
    clause: 'exp.create.name.length',
    fault: 'limit-off-by-one',
    fast: true,
    description: 'experiment name of 2 characters is accepted',
    probe: (c) => statusOf(c.create(experimentWith({ name: 'ab' }))),
    options: viaParts((d) => withLimits(d, { experimentNameMin: 2 })),
  },
  {
    id: 'exp-name-255-rejected',
    kind: 'mutant',
    clause: 'exp.create.name.length',
    fault: 'limit-off-by-one',
    description: 'experiment name of exactly 255 characters is rejected',
    probe: (c) => statusOf(c.create(experimentWith({ name: chars(255) }))),
    options: viaParts((d) => withLimits(d, { experimentNameMax: 254 })),
  },
  {
    id: 'exp-description-1025-accepted',
    kind: 'mutant',
    clause: 'exp.create.description.length',
    fault: 'limit-off-by-one',
    description: 'experiment description of 1025 characters is accepted',
    probe: (c) => statusOf(c.create(experimentWith({ description: chars(1025) }))),
    options: viaParts((d) => withLimits(d, { experimentDescriptionMax: 1025 })),
  },
  {
    id: 'exp-allocations-empty-accepted',
    kind: 'mutant',
    clause: 'exp.create.allocations.min-items',
    fault: 'limit-off-by-one',
    fast: true,
    description: 'an empty allocations array is accepted',
    probe: (c) => statusOf(c.create(experimentWith({ allocations: [] }))),
    options: viaParts((d) => ({
      ...withLimits(d, { allocationsMin: 0 }),
      rules: {
        ...d.rules,
        checkAllocations: (body, flag) =>
          Array.isArray(body.allocations) && body.allocations.length === 0 ? [] : d.rules.checkAllocations(body, flag),
      },
    })),
  },

  // ── Missing validations: bad pattern, enum outsider, wrong type, missing member ─────────
  {
    id: 'rs-name-pattern-unchecked',
    kind: 'mutant',
    clause: 'rs.update.name.pattern',
    fault: 'missing-validation',
    fast: true,
    description: 'a name containing < or > is accepted',
    probe: (c) => statusOf(c.patch({ name: 'a<b>' })),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.name', (v) => str(v) && len(v) >= 1 && len(v) <= 200)),
  },
  {
    id: 'rs-name-type-unchecked',
    kind: 'mutant',
    clause: 'rs.update.name.type',
    fault: 'missing-validation',
    description: 'a non-string name (number, boolean, null) is accepted',
    probe: (c) => statusOf(c.patch({ name: 42 })),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.name', (v) => !str(v))),
  },
  {
    id: 'rs-signing-alg-enum-unchecked',
    kind: 'mutant',
    clause: 'rs.update.signing_alg.enum',
    fault: 'missing-validation',
    fast: true,
    description: 'a signing_alg outside HS256/RS256/RS512/PS256 is accepted',
    probe: (c) => statusOf(c.patch({ signing_alg: 'HS384' })),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.signing_alg', str)),
  },
  {
    id: 'rs-token-dialect-enum-unchecked',
    kind: 'mutant',
    clause: 'rs.update.token_dialect.enum',
    fault: 'missing-validation',
    description: 'a token_dialect outside the TokenDialect enum is accepted',
    probe: (c) => statusOf(c.patch({ token_dialect: 'jwt' })),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.token_dialect', str)),
  },
  {
    id: 'rs-token-lifetime-fraction-accepted',
    kind: 'mutant',
    clause: 'rs.update.token_lifetime.integer',
    fault: 'missing-validation',
    fast: true,
    description: 'a non-integer token_lifetime (fraction or numeric string) is accepted',
    probe: (c) => statusOf(c.patch({ token_lifetime: 3600.5 })),
    options: rsAcceptsInvalid((d) =>
      loosen(d, 'rs.token_lifetime', (v) => (typeof v === 'number' && !Number.isInteger(v)) || str(v)),
    ),
  },
  {
    id: 'rs-consent-policy-enum-unchecked',
    kind: 'mutant',
    clause: 'rs.update.consent_policy.enum',
    fault: 'missing-validation',
    description: 'a consent_policy outside {transactional-authorization-with-mfa, null} is accepted',
    probe: (c) => statusOf(c.patch({ consent_policy: 'always' })),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.consent_policy', str)),
  },
  {
    id: 'rs-flags-type-unchecked',
    kind: 'mutant',
    clause: 'rs.update.flags.type',
    fault: 'missing-validation',
    description: 'a non-boolean allow_offline_access (e.g. "true", 1) is accepted',
    probe: (c) => statusOf(c.patch({ allow_offline_access: 'true' })),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.allow_offline_access', (v) => typeof v !== 'boolean')),
  },
  {
    id: 'rs-pop-mechanism-enum-unchecked',
    kind: 'mutant',
    clause: 'rs.proof_of_possession.mechanism.enum',
    fault: 'missing-validation',
    description: 'a proof_of_possession.mechanism outside {mtls, dpop} is accepted',
    probe: (c) => statusOf(c.patch({ proof_of_possession: { mechanism: 'tls', required: true } })),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.proof_of_possession.mechanism', str)),
  },
  {
    id: 'rs-user-policy-enum-unchecked',
    kind: 'mutant',
    clause: 'rs.subject_type_authorization.user.policy.enum',
    fault: 'missing-validation',
    description: 'subject_type_authorization.user.policy outside its enum is accepted',
    probe: (c) => statusOf(c.patch({ subject_type_authorization: { user: { policy: 'maybe' } } })),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.subject_type_authorization.user.policy', str)),
  },
  {
    id: 'rs-encryption-key-alg-enum-unchecked',
    kind: 'mutant',
    clause: 'rs.encryption_key.alg.enum',
    fault: 'missing-validation',
    description: 'an EncryptionKey alg outside RSA-OAEP-256/384/512 is accepted',
    probe: (c) => statusOf(c.patch(withEncryption({ alg: 'RSA1_5' }))),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.encryption_key.alg', str)),
  },
  {
    id: 'rs-token-encryption-required-unchecked',
    kind: 'mutant',
    clause: 'rs.token_encryption.required-members',
    fault: 'missing-validation',
    description: 'a token_encryption without format or encryption_key is accepted',
    probe: (c) => statusOf(c.patch({ token_encryption: { format: 'compact-nested-jwe' } })),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.token_encryption:required', anyObject)),
  },
  {
    id: 'rs-scope-value-required-unchecked',
    kind: 'mutant',
    clause: 'rs.scope.required-members',
    fault: 'missing-validation',
    description: 'a Scope without value is accepted',
    probe: (c) => statusOf(c.patch({ scopes: [{ description: 'no value' }] })),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.scope:required', anyObject)),
  },
  {
    id: 'rs-malformed-json-as-empty',
    kind: 'mutant',
    clause: 'rs.update.error.400.malformed-body',
    fault: 'missing-validation',
    description: 'a body that is not valid JSON is read as {} and answered 201',
    probe: (c) => statusOf(c.patch(undefined, { raw: '{"name":' })),
    options: viaWrap(
      (next) => async (req) =>
        isRsPatch(req) && !req.form && req.body === undefined && req.raw.body.length > 0
          ? next({ ...req, body: {} })
          : next(req),
    ),
  },
  {
    id: 'exp-name-pattern-unchecked',
    kind: 'mutant',
    clause: 'exp.create.name.pattern',
    fault: 'missing-validation',
    fast: true,
    description: 'an experiment name with leading or trailing whitespace is accepted',
    probe: (c) => statusOf(c.create(experimentWith({ name: ' leading space' }))),
    options: viaParts((d) =>
      loosen(d, 'exp.name', (v) => str(v) && len(v) >= 3 && len(v) <= 255 && !v.includes('\u0000')),
    ),
  },
  {
    id: 'exp-description-nul-accepted',
    kind: 'mutant',
    clause: 'exp.create.description.pattern',
    fault: 'missing-validation',
    description: 'an experiment description containing NUL is accepted',
    probe: (c) => statusOf(c.create(experimentWith({ description: 'a\u0000b' }))),
    options: viaParts((d) =>
      loosen(d, 'exp.description', (v) => str(v) && len(v) >= 3 && len(v) <= 1024 && /^\S(.*\S)?$/su.test(v)),
    ),
  },
  {
    id: 'exp-feature-flag-id-pattern-unchecked',
    kind: 'mutant',
    clause: 'exp.create.feature_flag_id.pattern',
    fault: 'missing-validation',
    description: 'a feature_flag_id with excluded characters (0 O I l) is accepted and resolved to the nearest flag',
    probe: (c) => statusOf(c.create(experimentWith({ feature_flag_id: 'flg_0OIl' }))),
    options: viaParts((d) => ({
      ...loosen(d, 'exp.feature_flag_id', (v) => str(v) && v.startsWith('flg_')),
      store: {
        ...d.store,
        getFeatureFlag: (id) => d.store.getFeatureFlag(id) ?? d.store.getFeatureFlag('flg_7Hq2kPzR'),
      },
    })),
  },
  {
    id: 'exp-allocation-types-unchecked',
    kind: 'mutant',
    clause: 'exp.create.allocation.types',
    fault: 'missing-validation',
    description: 'an allocation is_control / is_fallback given as a string is accepted',
    probe: (c) =>
      statusOf(
        c.create(
          experimentWith({
            allocations: [
              { variation_id: 'var_control', weight: 50, is_control: 'true' },
              { variation_id: 'var_treatment', weight: 50 },
            ],
          }),
        ),
      ),
    options: viaParts((d) => {
      const a = loosen(d, 'exp.allocation.is_control', str).validators!;
      return loosen({ ...d, validators: a }, 'exp.allocation.is_fallback', str);
    }),
  },

  // ── Unknown field accepted, at every object level (§2.2, §2.3) ─────────────────────────
  {
    id: 'rs-body-unknown-field-accepted',
    kind: 'mutant',
    clause: 'rs.update.closed',
    fault: 'unknown-field-accepted',
    fast: true,
    description: 'an unknown top-level field in the update body is accepted (and ignored)',
    probe: (c) => statusOf(c.patch({ colour: 'blue' })),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.body:closed', anyObject)),
  },
  {
    id: 'rs-identifier-in-body-accepted',
    kind: 'mutant',
    clause: 'rs.update.identifier.not-allowed',
    fault: 'unknown-field-accepted',
    fast: true,
    description: 'identifier in the update body is accepted (and ignored)',
    probe: (c) => statusOf(c.patch({ identifier: 'urn:elsewhere' })),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.identifier', () => true)),
  },
  {
    id: 'rs-scope-unknown-field-accepted',
    kind: 'mutant',
    clause: 'rs.scope.closed',
    fault: 'unknown-field-accepted',
    description: 'an unknown field inside a Scope is accepted',
    probe: (c) => statusOf(c.patch({ scopes: [{ value: 'read:x', extra: 1 }] })),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.scope:closed', anyObject)),
  },
  {
    id: 'rs-token-encryption-unknown-field-accepted',
    kind: 'mutant',
    clause: 'rs.token_encryption.closed',
    fault: 'unknown-field-accepted',
    description: 'an unknown field inside token_encryption is accepted',
    probe: (c) => statusOf(c.patch(withEncryption({}, { extra: 1 }))),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.token_encryption:closed', anyObject)),
  },
  {
    id: 'rs-encryption-key-unknown-field-accepted',
    kind: 'mutant',
    clause: 'rs.encryption_key.closed',
    fault: 'unknown-field-accepted',
    description: 'an unknown field inside token_encryption.encryption_key is accepted',
    probe: (c) => statusOf(c.patch(withEncryption({ extra: 1 }))),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.encryption_key:closed', anyObject)),
  },
  {
    id: 'rs-pop-unknown-field-accepted',
    kind: 'mutant',
    clause: 'rs.proof_of_possession.closed',
    fault: 'unknown-field-accepted',
    description: 'an unknown field inside proof_of_possession is accepted',
    probe: (c) => statusOf(c.patch({ proof_of_possession: { mechanism: 'dpop', required: true, extra: 1 } })),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.proof_of_possession:closed', anyObject)),
  },
  {
    id: 'rs-sta-unknown-field-accepted',
    kind: 'mutant',
    clause: 'rs.subject_type_authorization.closed',
    fault: 'unknown-field-accepted',
    description: 'an unknown field at the top level of subject_type_authorization is accepted',
    probe: (c) => statusOf(c.patch({ subject_type_authorization: { user: { policy: 'allow_all' }, other: {} } })),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.subject_type_authorization:closed', anyObject)),
  },
  {
    id: 'rs-authorization-policy-unknown-field-accepted',
    kind: 'mutant',
    clause: 'rs.authorization_policy.closed',
    fault: 'unknown-field-accepted',
    description: 'an unknown field inside authorization_policy is accepted',
    probe: (c) => statusOf(c.patch({ authorization_policy: { policy_id: 'p', extra: 1 } })),
    options: rsAcceptsInvalid((d) => loosen(d, 'rs.authorization_policy:closed', anyObject)),
  },

  // ── Over-strict validation: valid input rejected ────────────────────────────────────────
  {
    id: 'rs-sta-user-extra-rejected',
    kind: 'mutant',
    clause: 'rs.subject_type_authorization.members.open',
    fault: 'over-strict',
    fast: true,
    description: 'extra properties inside subject_type_authorization.user (allowed) are rejected',
    probe: (c) => statusOf(c.patch({ subject_type_authorization: { user: { policy: 'allow_all', note: 'kept' } } })),
    options: viaParts((d) =>
      tighten(
        d,
        'rs.subject_type_authorization.user',
        (v) => isObject(v) && Object.keys(v).some((k) => k !== 'policy'),
        'Additional properties not allowed',
      ),
    ),
  },

  // ── Wrong success or error status codes ─────────────────────────────────────────────────
  {
    id: 'rs-success-200',
    kind: 'mutant',
    clause: 'rs.update.success.status',
    fault: 'wrong-status',
    fast: true,
    description: 'a successful update is answered 200 instead of 201',
    probe: (c) => statusOf(c.patch({})),
    options: viaWrap(mapResponse(isRsPatch, (res) => void (res.status === 201 && (res.status = 200)))),
  },
  {
    id: 'rs-system-patchable',
    kind: 'mutant',
    clause: 'rs.update.error.400.system',
    fault: 'wrong-status',
    fast: true,
    description: 'the system resource server can be patched (201 instead of 400)',
    probe: (c) => statusOf(c.patch({}, { id: 'rs_system' })),
    options: viaParts((d) => ({ rules: { ...d.rules, rejectSystemResourceServer: () => null } })),
  },
  {
    id: 'rs-unknown-field-422',
    kind: 'mutant',
    clause: 'rs.update.closed',
    fault: 'wrong-status',
    description: 'an unknown top-level field is refused with 422 instead of 400',
    probe: (c) => statusOf(c.patch({ colour: 'blue' })),
    options: viaWrap(
      mapResponse(
        (req) =>
          isRsPatch(req) && isObject(req.body) && Object.keys(req.body).some((k) => !RS_UPDATE_FIELDS.includes(k)),
        (res) => void (res.status === 400 && (res.status = 422)),
      ),
    ),
  },
  {
    id: 'rs-malformed-json-422',
    kind: 'mutant',
    clause: 'rs.update.error.400.malformed-body',
    fault: 'wrong-status',
    description: 'a body that is not valid JSON is refused with 422 instead of 400',
    probe: (c) => statusOf(c.patch(undefined, { raw: '{"name":' })),
    options: viaWrap(
      mapResponse(
        (req) => isRsPatch(req) && !req.form && req.body === undefined && req.raw.body.length > 0,
        (res) => void (res.status === 400 && (res.status = 422)),
      ),
    ),
  },
  {
    id: 'exp-name-length-500',
    kind: 'mutant',
    // A 5xx is the fault clause's alone (issue 39): the name's own clause is then skipped naming it.
    clause: 'mgmt.error.server-fault',
    // Judged on every management answer, declared by none: the tests that send such a name.
    grep: ['exp.create.name.length'],
    fault: 'wrong-status',
    description: 'an experiment name outside 3..255 is answered 500 instead of a 4xx',
    probe: (c) => statusOf(c.create(experimentWith({ name: 'ab' }))),
    options: viaWrap((next) => async (req) => {
      const name = isObject(req.body) ? req.body.name : undefined;
      if (isExpCreate(req) && str(name) && (len(name) < 3 || len(name) > 255)) return errorBody(500, 'Internal error');
      return next(req);
    }),
  },
  {
    id: 'auth-expired-403',
    kind: 'mutant',
    clause: 'auth.mgmt.expired-token',
    fault: 'wrong-status',
    description: 'an expired token is refused with 403 instead of 401',
    probe: (c) => statusOf(c.patch({}, { auth: 'expired' })),
    options: viaWrap(
      mapResponse(
        (req) => isManagement(req) && tokenExpired(req),
        (res) => void (res.status === 401 && (res.status = 403)),
      ),
    ),
  },

  // ── Responses that break the §2.1 / §2.4 schema ─────────────────────────────────────────
  {
    id: 'rs-response-extra-field',
    kind: 'mutant',
    clause: 'rs.response.closed',
    fault: 'response-schema',
    fast: true,
    description: 'the resource server in the response carries an extra field (created_at)',
    probe: async (c) => Object.keys((await c.patch({})).body).sort(),
    options: presentWith((o) => ({ ...o, created_at: '2026-01-01T00:00:00Z' })),
  },
  {
    id: 'rs-response-signing-alg-lowercase',
    kind: 'mutant',
    clause: 'rs.response.signing_alg.enum',
    grep: RS_ANSWERS,
    fault: 'response-schema',
    description: 'signing_alg is returned in lower case (hs256), outside the enum',
    probe: async (c) => (await c.patch({})).body.signing_alg,
    options: presentWith((o) => ({ ...o, signing_alg: String(o.signing_alg).toLowerCase() })),
  },
  {
    id: 'rs-response-token-lifetime-string',
    kind: 'mutant',
    clause: 'rs.response.types',
    fault: 'response-schema',
    fast: true,
    description: 'token_lifetime is returned as a string',
    probe: async (c) => typeof (await c.patch({})).body.token_lifetime,
    options: presentWith((o) => ({ ...o, token_lifetime: String(o.token_lifetime) })),
  },
  {
    id: 'rs-response-secret-masked',
    kind: 'mutant',
    clause: 'rs.response.signing_secret.min-length',
    grep: RS_ANSWERS,
    fault: 'response-schema',
    description: 'signing_secret is returned masked to 8 characters (below the minimum 16)',
    probe: async (c) => String((await c.patch({})).body.signing_secret).length >= 16,
    options: presentWith((o) => ({ ...o, signing_secret: `${String(o.signing_secret).slice(0, 4)}****` })),
  },
  {
    id: 'rs-response-consent-policy-empty',
    kind: 'mutant',
    clause: 'rs.response.consent_policy.enum',
    grep: RS_ANSWERS,
    fault: 'response-schema',
    description: 'consent_policy null is returned as an empty string',
    probe: async (c) => (await c.patch({})).body.consent_policy,
    options: presentWith((o) => ({ ...o, consent_policy: o.consent_policy ?? '' })),
  },
  {
    id: 'rs-response-custom-is-system',
    kind: 'mutant',
    clause: 'rs.response.is_system.custom-false',
    fault: 'response-schema',
    description: 'a custom resource server is returned with is_system: true once it has been changed',
    // Only after a change: the suite reads the configured server with PATCH {} before any test
    // and rightly refuses to run against a system one (a configuration error, not a verdict).
    probe: async (c) => (await c.patch({ name: 'Changed probe' })).body.is_system,
    options: viaParts((d) => ({
      rules: {
        ...d.rules,
        applyResourceServerPatch: (rs, body) => ({
          ...d.rules.applyResourceServerPatch(rs, body),
          ...(Object.keys(body).length ? { changed: true } : {}),
        }),
        presentResourceServer: (rs) => ({
          ...d.rules.presentResourceServer(rs),
          ...((rs as unknown as { changed?: boolean }).changed ? { is_system: true } : {}),
        }),
      },
    })),
  },
  {
    id: 'rs-web-lifetime-not-clamped',
    kind: 'mutant',
    clause: 'rs.response.token_lifetime_for_web.le-token_lifetime',
    fault: 'response-schema',
    fast: true,
    description: 'lowering token_lifetime leaves token_lifetime_for_web above it',
    probe: async (c) => (await c.patch({ token_lifetime: 60 })).body.token_lifetime_for_web,
    options: viaParts((d) => ({ rules: { ...d.rules, enforceWebLifetime: (rs) => rs } })),
  },
  {
    id: 'exp-created-at-not-iso',
    kind: 'mutant',
    clause: 'exp.response.timestamps.format',
    fault: 'response-schema',
    fast: true,
    description: 'created_at is returned as an RFC 7231 date, not ISO 8601',
    probe: async (c) => ISO_DATE_TIME.test(String((await c.create(VALID_EXPERIMENT)).body.created_at)),
    options: viaWrap(mapExperiment((e) => ({ ...e, created_at: new Date(String(e.created_at)).toUTCString() }))),
  },
  {
    id: 'exp-id-pattern-broken',
    kind: 'mutant',
    clause: 'exp.response.id.pattern',
    fault: 'response-schema',
    description: 'the experiment id contains 0 (outside base58)',
    probe: async (c) => /^exp_[A-HJ-NP-Za-km-z1-9]+$/.test(String((await c.create(VALID_EXPERIMENT)).body.id)),
    options: viaWrap(mapExperiment((e) => ({ ...e, id: String(e.id).replace(/^exp_/, 'exp_0') }))),
  },
  {
    id: 'exp-is-valid-string',
    kind: 'mutant',
    clause: 'exp.response.is_valid.type',
    fault: 'response-schema',
    description: 'is_valid is returned as the string "true"/"false"',
    probe: async (c) => typeof (await c.create(VALID_EXPERIMENT)).body.is_valid,
    options: viaWrap(mapExperiment((e) => ({ ...e, is_valid: String(e.is_valid) }))),
  },
  {
    id: 'exp-updated-at-missing',
    kind: 'mutant',
    clause: 'exp.response.required-fields',
    fault: 'response-schema',
    description: 'the created experiment lacks updated_at',
    probe: async (c) => 'updated_at' in (await c.create(VALID_EXPERIMENT)).body,
    options: viaWrap(mapExperiment(({ updated_at: _dropped, ...e }) => e)),
  },
  {
    id: 'exp-feature-flag-not-echoed',
    kind: 'mutant',
    clause: 'exp.response.echo',
    fault: 'response-schema',
    description: 'the created experiment names another feature flag than the one sent',
    probe: async (c) => (await c.create(VALID_EXPERIMENT)).body.feature_flag_id,
    options: viaWrap(
      mapExperiment((e) => ({
        ...e,
        feature_flag_id: e.feature_flag_id === 'flg_3mNbV9xQ' ? 'flg_7Hq2kPzR' : 'flg_3mNbV9xQ',
      })),
    ),
  },

  // ── Writes: not persisted, partly applied, not applied ──────────────────────────────────
  {
    id: 'rs-write-not-persisted',
    kind: 'mutant',
    clause: 'rs.update.persisted',
    fault: 'not-persisted',
    fast: true,
    description: 'the update answers the new state but never stores it',
    probe: async (c) => {
      await c.patch({ name: 'Persisted probe' });
      return (await c.patch({})).body.name;
    },
    options: viaParts((d) => ({ store: { ...d.store, saveResourceServer: () => undefined } })),
  },
  {
    id: 'rs-write-lost-later',
    kind: 'mutant',
    clause: 'rs.update.persisted',
    fault: 'not-persisted',
    fast: true,
    description:
      'each update is answered as stored, and 400 ms later the resource server goes back to the state before it (a write lost on replication or failover)',
    probe: async (c) => {
      await c.patch({ name: 'Lost probe' });
      await new Promise((ok) => setTimeout(ok, LOST_AFTER_MS + 200));
      return (await c.patch({})).body.name;
    },
    options: viaParts((d) => ({ store: losesWritesLater(d.store, LOST_AFTER_MS) })),
  },
  {
    id: 'rs-partial-write-on-400',
    kind: 'mutant',
    clause: 'rs.update.error.400.no-write',
    fault: 'partial-write',
    fast: true,
    grepAll: ['rs.update.error.400.no-write', 'rs.update.closed'],
    description: 'a body refused with 400 still has its valid fields written',
    probe: async (c) => {
      await c.patch({ name: 'Partial probe', colour: 'blue' });
      return (await c.patch({})).body.name;
    },
    options: viaWrap((next) => async (req) => {
      const res = await next(req);
      if (isRsPatch(req) && res.status === 400 && isObject(req.body)) {
        for (const [k, v] of Object.entries(req.body)) await next({ ...req, body: { [k]: v } });
      }
      return res;
    }),
  },
  {
    id: 'rs-unsent-fields-reset',
    kind: 'mutant',
    clause: 'rs.update.partial',
    fault: 'partial-write',
    description: 'fields not sent are reset (scopes emptied) instead of kept',
    probe: async (c) => (await c.patch({ name: 'Unsent probe' })).body.scopes,
    options: viaParts((d) => ({
      rules: {
        ...d.rules,
        applyResourceServerPatch: (rs, body) => d.rules.applyResourceServerPatch({ ...rs, scopes: [] }, body),
      },
    })),
  },
  {
    id: 'rs-enforce-policies-not-applied',
    kind: 'mutant',
    clause: 'rs.update.applied',
    fault: 'not-persisted',
    description: 'enforce_policies is accepted but not applied',
    probe: async (c) => (await c.patch({ enforce_policies: true })).body.enforce_policies,
    options: viaParts((d) => ({
      rules: {
        ...d.rules,
        applyResourceServerPatch: (rs, body) => ({
          ...d.rules.applyResourceServerPatch(rs, body),
          enforce_policies: rs.enforce_policies,
        }),
      },
    })),
  },

  // ── Path: id versus identifier ──────────────────────────────────────────────────────────
  {
    id: 'rs-identifier-path-unsupported',
    kind: 'mutant',
    clause: 'rs.update.path.by-identifier',
    fault: 'path-handling',
    fast: true,
    description: 'the path accepts only the id, not the percent-encoded identifier',
    probe: (c) => statusOf(c.patch({}, { id: encodeURIComponent('https://api.conformance.test/') })),
    options: viaParts((d) => ({
      rules: { ...d.rules, resolveResourceServer: (store, raw) => store.getResourceServerById(safeDecode(raw)) },
    })),
  },
  {
    id: 'rs-unknown-id-falls-back',
    kind: 'mutant',
    clause: 'rs.update.path.unknown-id',
    fault: 'path-handling',
    description: 'an unknown id updates a default resource server instead of being refused',
    probe: (c) => statusOf(c.patch({}, { id: 'rs_nowhere' })),
    options: viaParts((d) => ({
      rules: {
        ...d.rules,
        resolveResourceServer: (store, raw) =>
          d.rules.resolveResourceServer(store, raw) ?? store.getResourceServerById('rs_other'),
      },
    })),
  },

  // ── Encodings ───────────────────────────────────────────────────────────────────────────
  {
    id: 'rs-form-body-refused',
    kind: 'mutant',
    clause: 'mgmt.request.form',
    fault: 'form-refused',
    fast: true,
    description: 'an application/x-www-form-urlencoded update is refused with 415',
    probe: (c) => statusOf(c.patch({ name: 'Form probe', token_lifetime: 3600 }, { form: true })),
    options: viaWrap(
      (next) => async (req) =>
        isRsPatch(req) && req.form
          ? errorBody(415, 'Unsupported Content-Type: application/x-www-form-urlencoded', 'unsupported_media_type')
          : next(req),
    ),
  },
  {
    id: 'rs-form-body-ignored',
    kind: 'mutant',
    clause: 'mgmt.request.form',
    fault: 'form-refused',
    description: 'an application/x-www-form-urlencoded update is answered 201 but none of its fields is applied',
    probe: async (c) => (await c.patch({ name: 'Form probe', token_lifetime: 3600 }, { form: true })).body.name,
    options: viaWrap((next) => async (req) => (isRsPatch(req) && req.form ? next({ ...req, body: {} }) : next(req))),
  },

  // ── Authorization bypasses and the 403 message ──────────────────────────────────────────
  {
    id: 'auth-no-token-accepted',
    kind: 'mutant',
    clause: 'auth.mgmt.no-token',
    fault: 'auth-bypass',
    fast: true,
    description: 'an update without Authorization is served as if by the full client',
    probe: (c) => statusOf(c.patch({}, { auth: 'none' })),
    options: (ctx) => ({
      wrap: viaWrap(anonymousBearer(isRsPatch))().wrap,
      parts: (d) => verifierBypass(d, ctx, (_r, token) => token === ANONYMOUS),
    }),
  },
  {
    id: 'auth-malformed-token-accepted',
    kind: 'mutant',
    clause: 'auth.mgmt.malformed-token',
    fault: 'auth-bypass',
    description: 'a bearer value that is not a JWT is accepted',
    probe: (c) => statusOf(c.patch({}, { auth: 'malformed' })),
    options: viaParts((d, ctx) => verifierBypass(d, ctx, (_r, token) => !looksLikeJwt(token))),
  },
  {
    id: 'auth-bad-signature-accepted',
    kind: 'mutant',
    clause: 'auth.mgmt.bad-signature',
    fault: 'auth-bypass',
    fast: true,
    description: 'a JWT whose signature fails validation is accepted (claims still checked)',
    probe: (c) => statusOf(c.patch({}, { auth: 'bad-signature' })),
    options: viaParts((d, ctx) =>
      verifierBypass(d, ctx, (reason, token) => /signature/i.test(reason) && claimsValid(token, ctx)),
    ),
  },
  {
    id: 'auth-expired-accepted',
    kind: 'mutant',
    clause: 'auth.mgmt.expired-token',
    fault: 'auth-bypass',
    fast: true,
    description: 'an expired token is accepted',
    probe: (c) => statusOf(c.patch({}, { auth: 'expired' })),
    options: viaParts((d, ctx) => verifierBypass(d, ctx, (reason) => /expired/i.test(reason))),
  },
  {
    id: 'auth-wrong-audience-accepted',
    kind: 'mutant',
    clause: 'auth.mgmt.wrong-audience',
    fault: 'auth-bypass',
    fast: true,
    description: 'a token for another audience is accepted',
    probe: (c) => statusOf(c.patch({}, { auth: 'wrong-audience' })),
    options: viaParts((d, ctx) =>
      verifierBypass(d, ctx, (reason, token) => /audience/i.test(reason) && issuerIs(token, ctx)),
    ),
  },
  {
    id: 'auth-missing-scope-accepted',
    kind: 'mutant',
    clause: 'auth.mgmt.missing-scope',
    fault: 'auth-bypass',
    fast: true,
    description: 'a token without update:resource_servers may update',
    probe: (c) => statusOf(c.patch({}, { auth: 'limited' })),
    options: viaParts((d) => ({
      rules: {
        ...d.rules,
        hasScope: (claims, scope) => scope === 'update:resource_servers' || d.rules.hasScope(claims, scope),
      },
    })),
  },
  {
    id: 'auth-403-scope-not-named',
    kind: 'mutant',
    clause: 'auth.mgmt.missing-scope.names-scope',
    fault: 'scope-message',
    fast: true,
    description: 'the 403 for a missing scope no longer names update:resource_servers',
    probe: async (c) =>
      JSON.stringify((await c.patch({}, { auth: 'limited' })).body).includes('update:resource_servers'),
    options: viaWrap(
      mapResponse(isRsPatch, (res) => {
        if (res.status !== 403) return;
        res.body = JSON.parse(
          JSON.stringify(res.body ?? {}).replaceAll('update:resource_servers', 'the required permission'),
        );
      }),
    ),
  },
  {
    id: 'exp-no-token-accepted',
    kind: 'mutant',
    clause: 'exp.create.auth.refused',
    fault: 'auth-bypass',
    description: 'an experiment creation without Authorization is served as if by the full client',
    probe: (c) => statusOf(c.create(VALID_EXPERIMENT, { auth: 'none' })),
    options: (ctx) => ({
      wrap: viaWrap(anonymousBearer(isExpCreate))().wrap,
      parts: (d) => verifierBypass(d, ctx, (_r, token) => token === ANONYMOUS),
    }),
  },

  // ── Rate limits ─────────────────────────────────────────────────────────────────────────
  {
    id: 'ratelimit-headers-missing',
    kind: 'mutant',
    clause: 'ratelimit.headers',
    fault: 'rate-limit',
    fast: true,
    description: 'successful management responses carry no X-RateLimit-* headers',
    probe: async (c) => 'x-ratelimit-limit' in (await c.patch({})).headers,
    options: viaWrap(
      mapResponse(isManagement, (res) => {
        if (res.status !== 429) stripRateHeaders(res.headers);
      }),
    ),
  },
  {
    id: 'ratelimit-429-without-headers',
    kind: 'mutant',
    clause: 'ratelimit.429.headers',
    fault: 'rate-limit',
    description: '429 answers carry no X-RateLimit-* headers',
    grep: ['ratelimit.429.headers', 'ratelimit.enforced'],
    probe: async (c) => 'x-ratelimit-limit' in ((await c.burst(400)).at(-1)?.headers ?? {}),
    options: viaWrap(
      mapResponse(isManagement, (res) => {
        if (res.status === 429) stripRateHeaders(res.headers);
      }),
    ),
  },
  {
    id: 'ratelimit-never-429',
    kind: 'mutant',
    clause: 'ratelimit.enforced',
    fault: 'rate-limit',
    fast: true,
    description: 'the limiter reports Remaining 0 but never refuses (no 429 is ever sent)',
    grep: ['ratelimit.enforced', 'ratelimit.429.headers'],
    probe: async (c) => (await c.burst(400)).some((s) => s.status === 429),
    options: viaParts((d) => ({ rateLimiter: neverRefuse(d.rateLimiter) })),
  },

  // ── Equivalent under the catalogue: real code changes the spec cannot see ───────────────
  {
    id: 'exp-scope-not-required',
    kind: 'mutant',
    clause: 'exp.create.scope',
    fault: 'auth-bypass',
    equivalent: 'exp.create.scope is observe: §5.1 "Scope required to create an experiment: not shown"',
    description: 'experiment creation no longer requires create:experimentation',
    probe: (c) => statusOf(c.create(VALID_EXPERIMENT, { auth: 'limited' })),
    options: viaParts((d) => ({
      rules: {
        ...d.rules,
        hasScope: (claims, scope) => scope === 'create:experimentation' || d.rules.hasScope(claims, scope),
      },
    })),
  },
  {
    id: 'exp-weight-sum-unchecked',
    kind: 'mutant',
    clause: 'exp.create.allocation.rules',
    fault: 'missing-validation',
    equivalent: 'exp.create.allocation.rules is observe: §2.4 "how weights must sum: not shown"',
    description: "allocation weights no longer need to sum to 100 (a tenant rule, not the spec's)",
    probe: (c) =>
      statusOf(
        c.create(
          experimentWith({
            allocations: [
              { variation_id: 'var_control', weight: 30, is_control: true },
              { variation_id: 'var_treatment', weight: 30 },
            ],
          }),
        ),
      ),
    options: viaParts((d) => ({
      rules: {
        ...d.rules,
        checkAllocations: (body, flag) => d.rules.checkAllocations(body, flag).filter((i) => !/sum/i.test(i.message)),
      },
    })),
  },
  {
    id: 'exp-description-optional',
    kind: 'mutant',
    clause: 'exp.create.required-fields',
    fault: 'missing-validation',
    equivalent:
      'exp.create.required-fields is observe: §2.4 "Which request fields are required and which are optional: not shown"',
    description: "name is no longer required in an experiment creation (a tenant rule, not the spec's)",
    probe: (c) => {
      const { name: _omitted, ...rest } = VALID_EXPERIMENT;
      return statusOf(c.create(rest));
    },
    options: viaParts((d) => ({
      validators: {
        ...d.validators,
        'exp.body:required': (v, at, check) =>
          d.validators['exp.body:required']!(v, at, check).filter((i) => !i.path.endsWith('name')),
      },
    })),
  },
  ...STRATEGY_MUTANTS,
  ...SETTINGS_MUTANTS,
  ...FLOW_MUTANTS,
  ...AUTH_MUTANTS,
  ...SECURITY_MUTANTS,
  ...LOGIN_MUTANTS,
  ...SERVER_MUTANTS,
  ...SHAPE_MUTANTS,
  ...ATTACK_MUTANTS,
  ...JUDGING_MUTANTS,
  ...EXPERIMENT_PROFILE_MUTANTS,
  ...STAGING_MUTANTS,
];

export const BENIGN: Variant[] = [
  {
    id: 'benign-problem-json-errors',
    kind: 'benign',
    clause: 'rs.update.error.body',
    fault: 'spec-silent',
    fast: true,
    grep: ['auth.mgmt.missing-scope.names-scope', 'rs.update.name.max-length', 'exp.create.name.length'],
    description: 'management errors as RFC 9457 problem objects {type,title,status,detail} (message text kept)',
    options: viaWrap(
      mapResponse(isManagement, (res) => {
        if (res.status < 400 || !isObject(res.body)) return;
        const b = res.body;
        res.headers['content-type'] = 'application/problem+json';
        res.body = { type: 'about:blank', title: b.error ?? 'Error', status: res.status, detail: b.message ?? '' };
      }),
    ),
  },
  {
    id: 'benign-experiment-200',
    kind: 'benign',
    clause: 'exp.create.success.status',
    fault: 'spec-silent',
    fast: true,
    grep: ['exp.create.accepted', 'exp.response.required-fields'],
    description: 'experiment creation answers 200 instead of 201',
    options: viaWrap(mapResponse(isExpCreate, (res) => void (res.status === 201 && (res.status = 200)))),
  },
  {
    id: 'benign-experiment-errors-422',
    kind: 'benign',
    clause: 'exp.create.rejected.status',
    fault: 'spec-silent',
    grep: ['exp.create.name.length', 'exp.create.allocations.min-items'],
    description: 'experiment validation errors answer 422 instead of 400',
    options: viaWrap(mapResponse(isExpCreate, (res) => void (res.status === 400 && (res.status = 422)))),
  },
  {
    id: 'benign-experiment-extra-fields',
    kind: 'benign',
    clause: 'exp.response.extra-fields',
    fault: 'spec-silent',
    fast: true,
    grep: ['exp.response.types', 'exp.response.echo'],
    description: 'the created experiment carries extra fields (tags, owner, metrics)',
    options: viaWrap(mapExperiment((e) => ({ ...e, tags: [], owner: 'conformance-full', metrics: { exposures: 0 } }))),
  },
  {
    id: 'benign-experiment-state-field',
    kind: 'benign',
    clause: 'exp.status.values',
    fault: 'spec-silent',
    grep: ['exp.status.values', 'exp.response.types'],
    description: 'the experiment status is carried in a field named state instead of status',
    options: viaWrap(mapExperiment(({ status, ...e }) => ({ ...e, state: status }))),
  },
  {
    id: 'benign-unknown-id-400',
    kind: 'benign',
    clause: 'rs.update.path.unknown-id.status',
    fault: 'spec-silent',
    grep: ['rs.update.path.unknown-id'],
    description: 'an unknown resource server id answers 400 instead of 404',
    options: viaWrap(mapResponse(isRsPatch, (res) => void (res.status === 404 && (res.status = 400)))),
  },
  {
    id: 'benign-extra-headers',
    kind: 'benign',
    clause: null,
    fault: 'spec-silent',
    fast: true,
    grep: ['ratelimit.headers', 'rs.response.closed'],
    description:
      'every response carries extra headers (x-request-id, cache-control, strict-transport-security, server)',
    options: viaWrap((next) => async (req) => {
      const res = await next(req);
      return {
        ...res,
        headers: {
          ...res.headers,
          'x-request-id': `req-${Math.random().toString(36).slice(2)}`,
          'cache-control': 'private, no-store',
          'strict-transport-security': 'max-age=31536000',
          server: 'benign-variant',
          'x-ratelimit-policy': 'per-client',
        },
      };
    }),
  },
  {
    id: 'benign-reordered-keys',
    kind: 'benign',
    clause: 'rs.response.fields-present',
    fault: 'spec-silent',
    fast: true,
    grep: ['rs.response.closed', 'rs.update.applied', 'exp.response.echo'],
    description: 'JSON object keys are returned in reverse order, at every depth',
    options: viaWrap((next) => async (req) => {
      const res = await next(req);
      return res.body === undefined ? res : { ...res, body: reverseKeys(res.body) };
    }),
  },
  {
    id: 'benign-latency-40ms',
    kind: 'benign',
    clause: 'ratelimit.values',
    fault: 'spec-silent',
    grep: ['rs.update.persisted', 'exp.create.accepted'],
    description: 'every response is delayed by 40 ms',
    options: viaWrap((next) => async (req) => {
      await new Promise((ok) => setTimeout(ok, 40));
      return next(req);
    }),
  },
  {
    id: 'benign-reset-delta-seconds',
    kind: 'benign',
    clause: 'ratelimit.values',
    fault: 'spec-silent',
    grep: ['ratelimit.headers', 'ratelimit.enforced', 'ratelimit.429.headers'],
    description: 'X-RateLimit-Reset as seconds until reset, not an epoch time (the spec does not fix the format)',
    options: viaWrap(
      mapResponse(
        () => true,
        (res) => {
          const reset = Number(res.headers['x-ratelimit-reset']);
          if (Number.isFinite(reset))
            res.headers['x-ratelimit-reset'] = String(Math.max(0, reset - Math.floor(Date.now() / 1000)));
        },
      ),
    ),
  },
  {
    id: 'benign-rate-2-per-second',
    kind: 'benign',
    clause: 'ratelimit.values',
    fault: 'spec-silent',
    slow: true,
    grep: ['rs.update.persisted', 'ratelimit.headers'],
    description: 'an honest token bucket of 2 requests per second (capacity 2) with correct headers',
    options: () => ({ rateLimit: { capacity: 2, refillPerSecond: 2 } }),
  },
  ...STRATEGY_BENIGN,
  ...SETTINGS_BENIGN,
  ...FLOW_BENIGN,
  ...AUTH_BENIGN,
  ...SECURITY_BENIGN,
  ...LOGIN_BENIGN,
  ...SERVER_BENIGN,
  ...SHAPE_BENIGN,
  ...ATTACK_BENIGN,
  ...JUDGING_BENIGN,
  ...TIMING_BENIGN,
  ...EXPERIMENT_PROFILE_BENIGN,
  ...STAGING_BENIGN,
];

export const VARIANTS: Variant[] = [...MUTANTS, ...BENIGN];

export function variantById(id: string): Variant | undefined {
  return VARIANTS.find((v) => v.id === id);
}

// Helpers

const LOST_AFTER_MS = 400;

/**
 * A store that loses each resource-server write `ms` later: the record goes back to what it
 * was before that write. A write that changed nothing has nothing to lose.
 */
function losesWritesLater(store: Store, ms: number): Store {
  return {
    ...store,
    saveResourceServer(rs) {
      const before = store.getResourceServerById(rs.id);
      store.saveResourceServer(rs);
      if (before && !deepEqual(before, rs)) setTimeout(() => store.saveResourceServer(before), ms).unref();
    },
  };
}

const RS_UPDATE_FIELDS: readonly string[] = fieldsOf('ResourceServerUpdate').map((f) => f.name);

const ANONYMOUS = 'mutation-anonymous-caller';

/** Requests matching `pred` without Authorization get a placeholder bearer the verifier then lets through. */
function anonymousBearer(pred: (r: Req) => boolean): Wrap {
  return (next) => async (req) =>
    pred(req) && !req.headers.authorization
      ? next({ ...req, headers: { ...req.headers, authorization: `Bearer ${ANONYMOUS}` } })
      : next(req);
}

function presentWith(fn: (o: Record<string, unknown>) => Record<string, unknown>) {
  return viaParts((d: TenantParts) => ({
    rules: { ...d.rules, presentResourceServer: (rs: ResourceServerRecord) => fn(d.rules.presentResourceServer(rs)) },
  }));
}

/** Rewrites the body of a successful experiment creation. */
function mapExperiment(fn: (e: Record<string, unknown>) => Record<string, unknown>): Wrap {
  return mapResponse(isExpCreate, (res) => {
    if (res.status >= 200 && res.status < 300 && isObject(res.body)) res.body = fn(clone(res.body));
  });
}

function neverRefuse(limiter: RateLimiter): RateLimiter {
  return { take: (key, now) => ({ ...limiter.take(key, now), allowed: true }) };
}

function stripRateHeaders(h: Record<string, string>): void {
  for (const k of Object.keys(h)) if (k.toLowerCase().startsWith('x-ratelimit-')) delete h[k];
}

function bearer(req: Req): string | undefined {
  const m = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '');
  return m?.[1];
}

function tokenExpired(req: Req): boolean {
  const t = bearer(req);
  if (!t) return false;
  try {
    const exp = decodeJwt(t).exp;
    return typeof exp === 'number' && exp * 1000 < Date.now();
  } catch {
    return false;
  }
}

function looksLikeJwt(token: string): boolean {
  try {
    decodeJwt(token);
    return true;
  } catch {
    return false;
  }
}

function issuerIs(token: string, ctx: { publicUrl: string }): boolean {
  try {
    return decodeJwt(token).iss === `${ctx.publicUrl}/`;
  } catch {
    return false;
  }
}

/** Everything but the signature checks out: issuer, audience, expiry. */
function claimsValid(token: string, ctx: { publicUrl: string }): boolean {
  try {
    const c = decodeJwt(token);
    const aud = Array.isArray(c.aud) ? c.aud : [c.aud];
    return (
      c.iss === `${ctx.publicUrl}/` &&
      aud.includes(`${ctx.publicUrl}/api/v2/`) &&
      typeof c.exp === 'number' &&
      c.exp * 1000 > Date.now()
    );
  } catch {
    return false;
  }
}

function safeDecode(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function reverseKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseKeys);
  if (!isObject(v)) return v;
  return Object.fromEntries(
    Object.entries(v)
      .reverse()
      .map(([k, x]) => [k, reverseKeys(x)]),
  );
}
