// The mutants the update schema itself gives: for every limit (generators/limits.ts) the bound
// moved one step outward (one past it accepted) and one step inward (the valid edge refused),
// and for every field that may be null, null refused. The numbers come from the schemas; the
// one hand-kept table names the reference tenant's limit for each schema limit.
import type { Limits } from '../reference/src/index.ts';
import { edgeValue, limitsOf, placeAt, type Limit } from '../generators/limits.ts';
import { NESTED_FALLBACKS } from '../generators/violations.ts';
import { fieldsOf, schemaOf } from '../schemas/index.ts';
import { statusOf } from './probes.ts';
import { rsAcceptsInvalid, tighten, viaParts, withLimits, type Variant } from './variant.ts';

/** The reference tenant's name for each limit of the update schema (`path:keyword`). */
const TENANT_LIMIT: Record<string, keyof Limits> = {
  'name:maxLength': 'rsNameMax',
  'scopes.*.value:minLength': 'scopeValueMin',
  'scopes.*.value:maxLength': 'scopeValueMax',
  'scopes.*.description:maxLength': 'scopeDescriptionMax',
  'signing_secret:minLength': 'signingSecretMin',
  'token_lifetime:minimum': 'tokenLifetimeMin',
  'token_lifetime:maximum': 'tokenLifetimeMax',
  'token_encryption.encryption_key.name:minLength': 'encryptionKeyNameMin',
  'token_encryption.encryption_key.name:maxLength': 'encryptionKeyNameMax',
  'token_encryption.encryption_key.kid:minLength': 'encryptionKeyKidMin',
  'token_encryption.encryption_key.kid:maxLength': 'encryptionKeyKidMax',
  'token_encryption.encryption_key.pem:minLength': 'pemMin',
  'token_encryption.encryption_key.pem:maxLength': 'pemMax',
  'authorization_policy.policy_id:minLength': 'policyIdMin',
  'authorization_policy.policy_id:maxLength': 'policyIdMax',
};

/** Kept in the fast subset: one limit both ways, and the top of the lifetime range. */
const FAST = new Set(['rs-name-201-accepted', 'rs-name-200-rejected', 'rs-token-lifetime-2592001-accepted']);

export const SCHEMA_MUTANTS: Variant[] = [
  ...limitsOf('ResourceServerUpdate').flatMap(limitMutants),
  ...nullAllowedMutants(),
];

// Helpers

function limitMutants(l: Limit): Variant[] {
  const key = TENANT_LIMIT[`${l.path.join('.')}:${l.keyword}`];
  if (!key) throw new Error(`mutants-schema: no tenant limit for ${l.path.join('.')} ${l.keyword}`);
  const lower = l.keyword.startsWith('min');
  const past = edgeValue(l, 'invalid');
  const edge = edgeValue(l, 'valid');
  const name = `rs-${l.path
    .filter((p) => p !== '*')
    .slice(-2)
    .join('-')
    .replaceAll('_', '-')}`;
  const body = (v: unknown) => placeAt({}, l.path, v as never, NESTED_FALLBACKS);
  const out: Variant[] = [
    variant(`${name}-${label(past)}-accepted`, l, `${describe(l, past)} is accepted (${l.keyword} off by one)`, {
      probe: (c) => statusOf(c.patch(body(past))),
      options: rsAcceptsInvalid((d) => withLimits(d, { [key]: l.bound + (lower ? -1 : 1) })),
    }),
  ];
  // A 1-character pem is no PEM key: refusing it is allowed (clause rs.encryption_key.pem.content).
  if (!(l.path.at(-1) === 'pem' && lower))
    out.push(
      variant(`${name}-${label(edge)}-rejected`, l, `${describe(l, edge)} (the edge) is rejected`, {
        probe: (c) => statusOf(c.patch(body(edge))),
        options: viaParts((d) => withLimits(d, { [key]: l.bound + (lower ? 1 : -1) })),
      }),
    );
  return out;
}

function nullAllowedMutants(): Variant[] {
  const props = (schemaOf('ResourceServerUpdate').properties ?? {}) as Record<string, { 'x-clause'?: unknown }>;
  return fieldsOf('ResourceServerUpdate')
    .filter((f) => f.types.includes('null'))
    .map((f) => ({
      id: `rs-${f.name.replaceAll('_', '-')}-null-rejected`,
      kind: 'mutant',
      clause: String(props[f.name]?.['x-clause']),
      fault: 'over-strict',
      ...(f.name === 'token_encryption' ? { fast: true } : {}),
      description: `${f.name}: null (allowed) is rejected`,
      probe: (c) => statusOf(c.patch({ [f.name]: null })),
      options: viaParts((d) => tighten(d, `rs.${f.name}`, (v) => v === null, `${f.name} must not be null`)),
    }));
}

function variant(id: string, l: Limit, description: string, rest: Pick<Variant, 'probe' | 'options'>): Variant {
  return {
    id,
    kind: 'mutant',
    clause: l.clause,
    fault: 'limit-off-by-one',
    ...(FAST.has(id) ? { fast: true } : {}),
    description,
    ...rest,
  };
}

function label(v: unknown): string {
  return typeof v === 'string' ? String([...v].length) : String(v);
}

function describe(l: Limit, v: unknown): string {
  const where = l.path.filter((p) => p !== '*').join('.');
  return typeof v === 'string' ? `${where} of ${[...v].length} characters` : `${where} ${String(v)}`;
}
