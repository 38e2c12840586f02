// Valid request bodies for PATCH {base_url}/resource-servers/{id} (spec §2.2,
// §2.3, §8): small arbitraries per nested type, composed into the body.
import fc from 'fast-check';
import { fieldsOf } from '../schemas/index.ts';
import { text } from './text.ts';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type UpdateBody = { [field: string]: Json };

export const SIGNING_ALGS = ['HS256', 'RS256', 'RS512', 'PS256'] as const;
export const TOKEN_DIALECTS = [
  'access_token',
  'access_token_authz',
  'rfc9068_profile',
  'rfc9068_profile_authz',
] as const;
const KEY_ALGS = ['RSA-OAEP-256', 'RSA-OAEP-384', 'RSA-OAEP-512'] as const;
const USER_POLICIES = ['allow_all', 'deny_all', 'require_client_grant'] as const;
const CLIENT_POLICIES = ['deny_all', 'require_client_grant'] as const;
/** The §2.2 boolean flags, in schema order (from the update schema). */
export const FLAG_FIELDS: readonly string[] = fieldsOf('ResourceServerUpdate')
  .filter((f) => f.types.length === 1 && f.types[0] === 'boolean')
  .map((f) => f.name);
export const TOKEN_LIFETIME_MAX = 2592000;

/** A real RSA-2048 public key (SPKI), CRLF line endings as the spec's documented default. */
export const PUBLIC_KEY_PEM = [
  '-----BEGIN PUBLIC KEY-----',
  'MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAte/wFhpnS1y7QH0+LZkR',
  '3XQA0thX7VeRnQLrgWciNRgjSsK0EEHdssK0AnPECtW8xaV9jZROSOmeceOMRxY3',
  'D5rBbw/XlnEKf+u31Ah0+FLbOzz7hwZiU23ULXewwkPfHdSbO2bN3YrY8NiEZdZM',
  'c9lUcWGC4w0Tla+oclCtHzyuUKRhFXuR5RUo3ui4wKseJLuwcZFSunN+6QCc17J4',
  'X6lhsAgNFylRtjhRDIQ7DbQ7lmJlvn882TneapVoCN8gjyX9L+rX1sFtQuxny19Y',
  'TlLU+EHmICPI2wchrPHn/W7stOO0+RIOC3nn/7KAbe417Jl0MQ99OVRdUa//hPS0',
  'cwIDAQAB',
  '-----END PUBLIC KEY-----',
  '',
].join('\r\n');

/**
 * The public key padded to exactly `length` characters with explanatory text
 * before the BEGIN line (RFC 7468 §2 lets parsers skip it), so even the
 * 4096-character edge is a usable PEM key.
 */
export function pemOfLength(length: number): string {
  const pad = length - PUBLIC_KEY_PEM.length;
  if (pad < 0) throw new Error(`pemOfLength: a PEM key needs at least ${PUBLIC_KEY_PEM.length} characters`);
  if (pad === 0) return PUBLIC_KEY_PEM;
  if (pad === 1) return PUBLIC_KEY_PEM + '\n'; // too short for a text line before; a blank line after is skipped
  return 'x'.repeat(pad - 2) + '\r\n' + PUBLIC_KEY_PEM;
}

export interface UpdateOptions {
  /** Include PS256 (available through an add-on, clause rs.update.signing_alg.ps256-add-on). Default true. */
  addOns?: boolean;
  /** Include authorization_policy (Early Access, clause version.authorization_policy.early-access). Default true. */
  earlyAccess?: boolean;
}

const rsName = (): fc.Arbitrary<string> => text({ min: 1, max: 200, trimmed: true });

export const scope = (): fc.Arbitrary<UpdateBody> =>
  fc.record(
    { value: text({ min: 1, max: 280, trimmed: true }), description: text({ min: 1, max: 500, trimmed: true }) },
    { requiredKeys: ['value'] },
  );

/** Distinct scope values: a tenant may merge duplicates, which the spec neither allows nor forbids. */
const scopes = (): fc.Arbitrary<UpdateBody[]> => fc.uniqueArray(scope(), { maxLength: 4, selector: (s) => s['value'] });

export const encryptionKey = (): fc.Arbitrary<UpdateBody> =>
  fc.record(
    {
      name: text({ min: 1, max: 128, trimmed: true }),
      alg: fc.constantFrom(...KEY_ALGS),
      kid: text({ min: 1, max: 128, trimmed: true }),
      pem: fc
        .oneof(fc.constantFrom(PUBLIC_KEY_PEM.length, 4096), fc.integer({ min: PUBLIC_KEY_PEM.length, max: 4096 }))
        .map(pemOfLength),
    },
    { requiredKeys: ['alg', 'pem'] },
  );

export const tokenEncryption = (): fc.Arbitrary<UpdateBody> =>
  fc.record({ format: fc.constant('compact-nested-jwe'), encryption_key: encryptionKey() });

export const proofOfPossession = (): fc.Arbitrary<UpdateBody> =>
  fc.record(
    {
      mechanism: fc.constantFrom('mtls', 'dpop'),
      required: fc.boolean(),
      required_for: fc.constantFrom('public_clients', 'all_clients'),
    },
    { requiredKeys: ['mechanism', 'required'] },
  );

/** Extra members inside user/client are allowed (clause rs.subject_type_authorization.members.open). */
const extraMembers = (): fc.Arbitrary<UpdateBody> =>
  fc.dictionary(
    fc.constantFrom('note', 'x_extra', 'tier', 'labels'),
    fc.oneof(
      fc.boolean(),
      fc.integer({ min: 0, max: 1000 }),
      text({ min: 1, max: 20 }),
      fc.array(text({ min: 1, max: 8 }), { maxLength: 2 }),
    ),
    { maxKeys: 2 },
  );

export const subjectTypeAuthorization = (): fc.Arbitrary<UpdateBody> =>
  fc.record(
    {
      user: fc
        .tuple(fc.option(fc.constantFrom(...USER_POLICIES), { nil: undefined }), extraMembers())
        .map(([policy, extra]) => member(policy, extra)),
      client: fc
        .tuple(fc.option(fc.constantFrom(...CLIENT_POLICIES), { nil: undefined }), extraMembers())
        .map(([policy, extra]) => member(policy, extra)),
    },
    { requiredKeys: [] },
  );

export const authorizationPolicy = (): fc.Arbitrary<UpdateBody> =>
  fc.record({ policy_id: text({ min: 1, max: 1024, trimmed: true }) });

/** Items of unconstrained type (§2.1): rich-authorization-request-like objects and plain values. */
const authorizationDetails = (): fc.Arbitrary<Json[]> =>
  fc.array(
    fc.oneof(
      fc.record(
        {
          type: text({ min: 1, max: 30, trimmed: true, astral: false }),
          locations: fc.array(text({ min: 1, max: 20, trimmed: true }), { maxLength: 2 }),
        },
        { requiredKeys: ['type'] },
      ),
      text({ min: 1, max: 20 }),
      fc.integer({ min: -1000, max: 1000 }),
      fc.boolean(),
    ),
    { maxLength: 3 },
  );

export const tokenLifetime = (): fc.Arbitrary<number> =>
  fc.oneof(fc.constantFrom(0, TOKEN_LIFETIME_MAX), fc.integer({ min: 0, max: TOKEN_LIFETIME_MAX }));

const signingSecret = (): fc.Arbitrary<string> => text({ min: 16, max: 64, trimmed: true });

/** Every field of §2.2 as an arbitrary, `null` included where the spec allows it. */
export function updateFields(opts: UpdateOptions = {}): Record<string, fc.Arbitrary<Json>> {
  const { addOns = true, earlyAccess = true } = opts;
  const fields: Record<string, fc.Arbitrary<Json>> = {
    name: rsName(),
    scopes: scopes(),
    signing_alg: fc.constantFrom(...SIGNING_ALGS.filter((a) => addOns || a !== 'PS256')),
    signing_secret: signingSecret(),
    token_lifetime: tokenLifetime(),
    token_dialect: fc.constantFrom(...TOKEN_DIALECTS),
    token_encryption: fc.option(tokenEncryption(), { nil: null }),
    consent_policy: fc.constantFrom('transactional-authorization-with-mfa', null),
    authorization_details: fc.option(authorizationDetails(), { nil: null }),
    proof_of_possession: fc.option(proofOfPossession(), { nil: null }),
    subject_type_authorization: subjectTypeAuthorization(),
  };
  for (const f of FLAG_FIELDS) fields[f] = fc.boolean();
  if (earlyAccess) fields['authorization_policy'] = fc.option(authorizationPolicy(), { nil: null });
  return fields;
}

/**
 * A valid update body: any subset of the §2.2 fields (all optional). `{}` and
 * single-field bodies get their own share, since a random subset of 17 optional
 * keys is almost never empty and rarely small.
 */
export function updateBody(opts: UpdateOptions = {}): fc.Arbitrary<UpdateBody> {
  const fields = updateFields(opts);
  const single = fc
    .constantFrom(...Object.keys(fields))
    .chain((k) => (fields[k] as fc.Arbitrary<Json>).map((v): UpdateBody => ({ [k]: v })));
  // requiredKeys: [] leaves keys out (never set to undefined), so the cast only narrows the type.
  const subset = fc.record(fields, { requiredKeys: [] }) as fc.Arbitrary<UpdateBody>;
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant({}) },
    { weight: 4, arbitrary: single },
    { weight: 15, arbitrary: subset },
  );
}

/** A valid update body carrying every field of §2.2. */
export function fullUpdateBody(opts: UpdateOptions = {}): fc.Arbitrary<UpdateBody> {
  return fc.record(updateFields(opts));
}

/** The smallest valid update body; violations are applied to it (or to any valid body). */
export function minimalUpdateBase(): UpdateBody {
  return {};
}

/** Probe lifetimes sit high in the range: should one leak, it clamps token_lifetime_for_web (not writable) only if that was above 2,000,000 s. */
const PROBE_LIFETIME_MIN = 2_000_000;

/**
 * Valid values that are unlikely to be the target's current state, derived from
 * `tag`: put them in a body that should be rejected and, if the state later shows
 * them, that rejected write leaked (see findLeak in violations.ts).
 */
export function distinctiveUpdateValues(tag: string): UpdateBody {
  const safe = tag.replace(/[<>\s]+/g, '-').slice(0, 150);
  return {
    name: `idm-probe ${safe}`,
    token_lifetime: PROBE_LIFETIME_MIN + (hash(tag) % (TOKEN_LIFETIME_MAX - PROBE_LIFETIME_MIN)),
  };
}

// Helpers

function member(policy: string | undefined, extra: UpdateBody): UpdateBody {
  return policy === undefined ? { ...extra } : { ...extra, policy };
}

/** FNV-1a, 32 bit: a stable spread of tags over the token_lifetime range. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
