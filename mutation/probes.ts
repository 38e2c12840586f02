// One probe per mutant: a few requests whose observation differs between the mutant and the
// reference tenant. The self-test runs each probe against both, so a mutant that is
// accidentally identical to the reference (and would "survive" for nothing) fails loudly.
import { SignJWT, decodeJwt, generateKeyPair } from 'jose';
import { DEV_CREDENTIALS, DEV_RESOURCES } from './suite.ts';

export type Auth = 'full' | 'limited' | 'none' | 'malformed' | 'bad-signature' | 'expired' | 'wrong-audience';

export interface Seen {
  status: number;
  headers: Record<string, string>;
  // eslint-style strictness would cost every probe a cast; probes read response fields freely
  body: any;
}

export interface ProbeClient {
  patch(body: unknown, o?: { id?: string; auth?: Auth; form?: boolean; raw?: string }): Promise<Seen>;
  create(body: unknown, o?: { auth?: Auth }): Promise<Seen>;
  /** Sequential PATCH {} with the full client until a 429 or `max` requests. */
  burst(max: number): Promise<Seen[]>;
  /** The tenant's origin (its public URL): audiences of client assertions. */
  origin: string;
  /** Any request, no credentials added, redirects not followed (authentication-API probes). */
  request(method: string, path: string, o?: { query?: Record<string, string>; body?: unknown; form?: boolean; headers?: Record<string, string> }): Promise<Seen>;
}

export type Probe = (c: ProbeClient) => Promise<unknown>;

const a = (n: number): string => 'a'.repeat(n);
const PEM = '-----BEGIN PUBLIC KEY-----\r\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\r\n-----END PUBLIC KEY-----\r\n';
const key = (o: Record<string, unknown> = {}): Record<string, unknown> => ({ alg: 'RSA-OAEP-256', pem: PEM, ...o });
const enc = (k: Record<string, unknown> = {}, o: Record<string, unknown> = {}): unknown => ({ token_encryption: { format: 'compact-nested-jwe', encryption_key: key(k), ...o } });
export const VALID_EXPERIMENT = {
  name: 'Probe experiment',
  description: 'A probe of the mutation self-test',
  feature_flag_id: DEV_RESOURCES.IDM_FEATURE_FLAG_ID,
  authentication_flow: 'login',
  assignment_config: { subject: 'device' },
  allocation_strategy: 'percentage',
  allocations: [
    { variation_id: 'var_control', weight: 50, is_control: true },
    { variation_id: 'var_treatment', weight: 50 },
  ],
};
const exp = (o: Record<string, unknown>): Record<string, unknown> => ({ ...VALID_EXPERIMENT, ...o });
const st = async (p: Promise<Seen>): Promise<number> => (await p).status;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export const PROBES: Record<string, Probe> = {
  'rs-name-max-201-accepted': (c) => st(c.patch({ name: a(201) })),
  'rs-name-200-rejected': (c) => st(c.patch({ name: a(200) })),
  'rs-signing-secret-15-accepted': (c) => st(c.patch({ signing_secret: a(15) })),
  'rs-signing-secret-16-rejected': (c) => st(c.patch({ signing_secret: a(16) })),
  'rs-token-lifetime-2592001-accepted': (c) => st(c.patch({ token_lifetime: 2592001 })),
  'rs-token-lifetime-0-rejected': (c) => st(c.patch({ token_lifetime: 0 })),
  'rs-token-lifetime-negative-accepted': (c) => st(c.patch({ token_lifetime: -1 })),
  'rs-scope-value-281-accepted': (c) => st(c.patch({ scopes: [{ value: a(281) }] })),
  'rs-scope-value-empty-accepted': (c) => st(c.patch({ scopes: [{ value: '' }] })),
  'rs-scope-description-501-accepted': (c) => st(c.patch({ scopes: [{ value: 'read:x', description: a(501) }] })),
  'rs-encryption-key-name-129-accepted': (c) => st(c.patch(enc({ name: a(129) }))),
  'rs-encryption-key-kid-128-rejected': (c) => st(c.patch(enc({ kid: a(128) }))),
  'rs-pem-4097-accepted': (c) => st(c.patch(enc({ pem: a(4097) }))),
  'rs-policy-id-1025-accepted': (c) => st(c.patch({ authorization_policy: { policy_id: a(1025) } })),
  'exp-name-2-accepted': (c) => st(c.create(exp({ name: 'ab' }))),
  'exp-name-255-rejected': (c) => st(c.create(exp({ name: a(255) }))),
  'exp-description-1025-accepted': (c) => st(c.create(exp({ description: a(1025) }))),
  'exp-allocations-empty-accepted': (c) => st(c.create(exp({ allocations: [] }))),

  'rs-name-pattern-unchecked': (c) => st(c.patch({ name: 'a<b>' })),
  'rs-name-type-unchecked': (c) => st(c.patch({ name: 42 })),
  'rs-signing-alg-enum-unchecked': (c) => st(c.patch({ signing_alg: 'HS384' })),
  'rs-token-dialect-enum-unchecked': (c) => st(c.patch({ token_dialect: 'jwt' })),
  'rs-token-lifetime-fraction-accepted': (c) => st(c.patch({ token_lifetime: 3600.5 })),
  'rs-consent-policy-enum-unchecked': (c) => st(c.patch({ consent_policy: 'always' })),
  'rs-flags-type-unchecked': (c) => st(c.patch({ allow_offline_access: 'true' })),
  'rs-pop-mechanism-enum-unchecked': (c) => st(c.patch({ proof_of_possession: { mechanism: 'tls', required: true } })),
  'rs-user-policy-enum-unchecked': (c) => st(c.patch({ subject_type_authorization: { user: { policy: 'maybe' } } })),
  'rs-encryption-key-alg-enum-unchecked': (c) => st(c.patch(enc({ alg: 'RSA1_5' }))),
  'rs-token-encryption-required-unchecked': (c) => st(c.patch({ token_encryption: { format: 'compact-nested-jwe' } })),
  'rs-scope-value-required-unchecked': (c) => st(c.patch({ scopes: [{ description: 'no value' }] })),
  'rs-malformed-json-as-empty': (c) => st(c.patch(undefined, { raw: '{"name":' })),
  'exp-name-pattern-unchecked': (c) => st(c.create(exp({ name: ' leading space' }))),
  'exp-description-nul-accepted': (c) => st(c.create(exp({ description: 'a\u0000b' }))),
  'exp-feature-flag-id-pattern-unchecked': (c) => st(c.create(exp({ feature_flag_id: 'flg_0OIl' }))),
  'exp-allocation-types-unchecked': (c) =>
    st(c.create(exp({ allocations: [{ variation_id: 'var_control', weight: 50, is_control: 'true' }, { variation_id: 'var_treatment', weight: 50 }] }))),

  'rs-body-unknown-field-accepted': (c) => st(c.patch({ colour: 'blue' })),
  'rs-identifier-in-body-accepted': (c) => st(c.patch({ identifier: 'urn:elsewhere' })),
  'rs-scope-unknown-field-accepted': (c) => st(c.patch({ scopes: [{ value: 'read:x', extra: 1 }] })),
  'rs-token-encryption-unknown-field-accepted': (c) => st(c.patch(enc({}, { extra: 1 }))),
  'rs-encryption-key-unknown-field-accepted': (c) => st(c.patch(enc({ extra: 1 }))),
  'rs-pop-unknown-field-accepted': (c) => st(c.patch({ proof_of_possession: { mechanism: 'dpop', required: true, extra: 1 } })),
  'rs-sta-unknown-field-accepted': (c) => st(c.patch({ subject_type_authorization: { user: { policy: 'allow_all' }, other: {} } })),
  'rs-authorization-policy-unknown-field-accepted': (c) => st(c.patch({ authorization_policy: { policy_id: 'p', extra: 1 } })),

  'rs-token-encryption-null-rejected': (c) => st(c.patch({ token_encryption: null })),
  'rs-pop-null-rejected': (c) => st(c.patch({ proof_of_possession: null })),
  'rs-consent-policy-null-rejected': (c) => st(c.patch({ consent_policy: null })),
  'rs-authorization-details-null-rejected': (c) => st(c.patch({ authorization_details: null })),
  'rs-authorization-policy-null-rejected': (c) => st(c.patch({ authorization_policy: null })),
  'rs-sta-user-extra-rejected': (c) => st(c.patch({ subject_type_authorization: { user: { policy: 'allow_all', note: 'kept' } } })),

  'rs-success-200': (c) => st(c.patch({})),
  'rs-system-patchable': (c) => st(c.patch({}, { id: 'rs_system' })),
  'rs-unknown-field-422': (c) => st(c.patch({ colour: 'blue' })),
  'rs-malformed-json-422': (c) => st(c.patch(undefined, { raw: '{"name":' })),
  'exp-name-length-500': (c) => st(c.create(exp({ name: 'ab' }))),
  'auth-expired-403': (c) => st(c.patch({}, { auth: 'expired' })),

  'rs-response-extra-field': async (c) => Object.keys((await c.patch({})).body).sort(),
  'rs-response-signing-alg-lowercase': async (c) => (await c.patch({})).body.signing_alg,
  'rs-response-token-lifetime-string': async (c) => typeof (await c.patch({})).body.token_lifetime,
  'rs-response-secret-masked': async (c) => String((await c.patch({})).body.signing_secret).length >= 16,
  'rs-response-consent-policy-empty': async (c) => (await c.patch({})).body.consent_policy,
  'rs-response-custom-is-system': async (c) => (await c.patch({ name: 'Changed probe' })).body.is_system,
  'rs-web-lifetime-not-clamped': async (c) => (await c.patch({ token_lifetime: 60 })).body.token_lifetime_for_web,
  'exp-created-at-not-iso': async (c) => ISO.test(String((await c.create(VALID_EXPERIMENT)).body.created_at)),
  'exp-id-pattern-broken': async (c) => /^exp_[A-HJ-NP-Za-km-z1-9]+$/.test(String((await c.create(VALID_EXPERIMENT)).body.id)),
  'exp-is-valid-string': async (c) => typeof (await c.create(VALID_EXPERIMENT)).body.is_valid,
  'exp-updated-at-missing': async (c) => 'updated_at' in (await c.create(VALID_EXPERIMENT)).body,
  'exp-feature-flag-not-echoed': async (c) => (await c.create(VALID_EXPERIMENT)).body.feature_flag_id,

  'rs-write-not-persisted': async (c) => {
    await c.patch({ name: 'Persisted probe' });
    return (await c.patch({})).body.name;
  },
  'rs-partial-write-on-400': async (c) => {
    await c.patch({ name: 'Partial probe', colour: 'blue' });
    return (await c.patch({})).body.name;
  },
  'rs-unsent-fields-reset': async (c) => (await c.patch({ name: 'Unsent probe' })).body.scopes,
  'rs-enforce-policies-not-applied': async (c) => (await c.patch({ enforce_policies: true })).body.enforce_policies,

  'rs-identifier-path-unsupported': (c) => st(c.patch({}, { id: encodeURIComponent('https://api.conformance.test/') })),
  'rs-unknown-id-falls-back': (c) => st(c.patch({}, { id: 'rs_nowhere' })),
  'rs-form-body-refused': (c) => st(c.patch({ name: 'Form probe', token_lifetime: 3600 }, { form: true })),

  'auth-no-token-accepted': (c) => st(c.patch({}, { auth: 'none' })),
  'auth-malformed-token-accepted': (c) => st(c.patch({}, { auth: 'malformed' })),
  'auth-bad-signature-accepted': (c) => st(c.patch({}, { auth: 'bad-signature' })),
  'auth-expired-accepted': (c) => st(c.patch({}, { auth: 'expired' })),
  'auth-wrong-audience-accepted': (c) => st(c.patch({}, { auth: 'wrong-audience' })),
  'auth-missing-scope-accepted': (c) => st(c.patch({}, { auth: 'limited' })),
  'auth-403-scope-not-named': async (c) => JSON.stringify((await c.patch({}, { auth: 'limited' })).body).includes('update:resource_servers'),
  'exp-no-token-accepted': (c) => st(c.create(VALID_EXPERIMENT, { auth: 'none' })),

  'ratelimit-headers-missing': async (c) => 'x-ratelimit-limit' in (await c.patch({})).headers,
  'ratelimit-429-without-headers': async (c) => 'x-ratelimit-limit' in ((await c.burst(120)).at(-1)?.headers ?? {}),
  'ratelimit-never-429': async (c) => (await c.burst(120)).some((s) => s.status === 429),

  'exp-scope-not-required': (c) => st(c.create(VALID_EXPERIMENT, { auth: 'limited' })),
  'exp-weight-sum-unchecked': (c) =>
    st(c.create(exp({ allocations: [{ variation_id: 'var_control', weight: 30, is_control: true }, { variation_id: 'var_treatment', weight: 30 }] }))),
  'exp-description-optional': (c) => {
    const { name: _omitted, ...rest } = VALID_EXPERIMENT;
    return st(c.create(rest));
  },
};

/** A probe client for a tenant at `origin` (public URL = origin), minting tokens as needed. */
export function probeClient(origin: string, expired: () => Promise<string | null>): ProbeClient {
  const tokens = new Map<Auth, string>();
  const token = async (auth: Auth): Promise<string | null> => {
    if (auth === 'none') return null;
    if (auth === 'malformed') return 'not-a-jwt';
    const cached = tokens.get(auth);
    if (cached) return cached;
    let t: string;
    if (auth === 'full' || auth === 'limited') t = await issue(origin, auth, `${origin}/api/v2/`);
    else if (auth === 'wrong-audience') t = await issue(origin, 'full', 'https://api.conformance.test/');
    else if (auth === 'expired') t = (await expired()) ?? 'no-expired-token';
    else t = await resign(await token('full'));
    tokens.set(auth, t);
    return t;
  };
  const send = async (method: string, path: string, body: string | undefined, contentType: string | undefined, auth: Auth): Promise<Seen> => {
    const t = await token(auth);
    const headers: Record<string, string> = {};
    if (t) headers.authorization = `Bearer ${t}`;
    if (contentType) headers['content-type'] = contentType;
    const res = await fetch(`${origin}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.status, headers: Object.fromEntries(res.headers), body: parsed };
  };
  const rsPath = (id?: string): string => `/api/v2/resource-servers/${id ?? DEV_RESOURCES.IDM_RESOURCE_SERVER_ID}`;
  return {
    patch: (body, o = {}) => {
      if (o.raw !== undefined) return send('PATCH', rsPath(o.id), o.raw, 'application/json', o.auth ?? 'full');
      if (o.form) {
        const form = new URLSearchParams(Object.entries(body as Record<string, unknown>).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
        return send('PATCH', rsPath(o.id), form.toString(), 'application/x-www-form-urlencoded', o.auth ?? 'full');
      }
      return send('PATCH', rsPath(o.id), JSON.stringify(body), 'application/json', o.auth ?? 'full');
    },
    create: (body, o = {}) => send('POST', '/api/v2/experimentation/experiments', JSON.stringify(body), 'application/json', o.auth ?? 'full'),
    origin,
    async request(method, path, o = {}) {
      const headers: Record<string, string> = { ...(o.headers ?? {}) };
      let body: string | undefined;
      if (o.body !== undefined) {
        body = typeof o.body === 'string' ? o.body : o.form ? new URLSearchParams(o.body as Record<string, string>).toString() : JSON.stringify(o.body);
        headers['content-type'] ??= o.form ? 'application/x-www-form-urlencoded' : 'application/json';
      }
      const q = o.query ? `?${new URLSearchParams(o.query).toString()}` : '';
      const res = await fetch(`${origin}${path}${q}`, { method, headers, redirect: 'manual', ...(body !== undefined ? { body } : {}) });
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
      return { status: res.status, headers: Object.fromEntries(res.headers), body: parsed };
    },
    async burst(max) {
      const seen: Seen[] = [];
      for (let i = 0; i < max; i++) {
        const s = await send('PATCH', rsPath(), '{}', 'application/json', 'full');
        seen.push(s);
        if (s.status === 429) break;
      }
      return seen;
    },
  };
}

// Helpers

async function issue(origin: string, who: 'full' | 'limited', audience: string): Promise<string> {
  const [id, secret] = who === 'full'
    ? [DEV_CREDENTIALS.IDM_CLIENT_ID, DEV_CREDENTIALS.IDM_CLIENT_SECRET]
    : [DEV_CREDENTIALS.IDM_LIMITED_CLIENT_ID, DEV_CREDENTIALS.IDM_LIMITED_CLIENT_SECRET];
  const res = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret, audience }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`probe: token request for ${who} (${audience}) answered ${res.status}`);
  return body.access_token;
}

/** The same claims as a real token, signed by a key the tenant has never seen. */
async function resign(real: string | null): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT(decodeJwt(real ?? '')).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(privateKey);
}
