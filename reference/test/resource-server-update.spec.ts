// PATCH /api/v2/resource-servers/{id}: §2.1 response, §2.2 body, §2.3 nested types, §4.1, §7.1, §8.
import { test, expect } from '@playwright/test';
import { RS_CONFORMANCE_IDENTIFIER, enc, tenantPerFile, type Client } from './helpers.ts';
import { RESOURCE_SERVER_FIELDS, type RunningTenant } from '../src/index.ts';

let t: RunningTenant;
let c: Client;
let token: string;
tenantPerFile((s) => ({ t, c, token } = s));

const s = (n: number, ch = 'a') => ch.repeat(n);
const key = (over: Record<string, unknown> = {}) => ({
  alg: 'RSA-OAEP-256',
  pem: '-----BEGIN PUBLIC KEY-----\r\nMIIB\r\n-----END PUBLIC KEY-----\r\n',
  ...over,
});
const enc1 = (over: Record<string, unknown> = {}, keyOver: Record<string, unknown> = {}) => ({
  token_encryption: { format: 'compact-nested-jwe', encryption_key: key(keyOver), ...over },
});

// [title, body] accepted with 201
const valid: Array<[string, Record<string, unknown>]> = [
  ['empty body (nothing to change)', {}],
  ['name of 200 characters', { name: s(200) }],
  ['name of 200 astral code points', { name: s(200, '😀') }],
  ['name of 1 character', { name: 'x' }],
  ['name with spaces, quotes and newline', { name: 'My "API"\nv2' }],
  ['empty scopes', { scopes: [] }],
  ['scope value of 1 and 280 characters', { scopes: [{ value: 'r' }, { value: s(280) }] }],
  [
    'scope description of 500 characters and empty',
    {
      scopes: [
        { value: 'a:b', description: s(500) },
        { value: 'c:d', description: '' },
      ],
    },
  ],
  ...['HS256', 'RS256', 'RS512', 'PS256'].map((alg): [string, Record<string, unknown>] => [
    `signing_alg ${alg}`,
    { signing_alg: alg },
  ]),
  ['signing_secret of 16 characters', { signing_secret: s(16, 'k') }],
  [
    'every boolean true',
    {
      skip_consent_for_verifiable_first_party_clients: true,
      allow_offline_access: true,
      allow_online_access: true,
      allow_online_access_with_ephemeral_sessions: true,
      enforce_policies: true,
    },
  ],
  [
    'every boolean false',
    {
      skip_consent_for_verifiable_first_party_clients: false,
      allow_offline_access: false,
      allow_online_access: false,
      allow_online_access_with_ephemeral_sessions: false,
      enforce_policies: false,
    },
  ],
  ['token_lifetime 0', { token_lifetime: 0 }],
  ['token_lifetime 2592000', { token_lifetime: 2592000 }],
  ['token_lifetime written as 3600.0', { token_lifetime: 3600.0 }],
  ...['access_token', 'access_token_authz', 'rfc9068_profile', 'rfc9068_profile_authz'].map(
    (d): [string, Record<string, unknown>] => [`token_dialect ${d}`, { token_dialect: d }],
  ),
  ['token_encryption null', { token_encryption: null }],
  ['token_encryption with required members only', enc1()],
  ['encryption key name and kid of 1 character', enc1({}, { name: 'n', kid: 'k' })],
  ['encryption key name and kid of 128 characters', enc1({}, { name: s(128), kid: s(128) })],
  ['pem of 1 and of 4096 characters', enc1({}, { pem: 'p' })],
  ['pem of 4096 characters', enc1({}, { pem: s(4096) })],
  ...['RSA-OAEP-256', 'RSA-OAEP-384', 'RSA-OAEP-512'].map((alg): [string, Record<string, unknown>] => [
    `encryption key alg ${alg}`,
    enc1({}, { alg }),
  ]),
  ['consent_policy null', { consent_policy: null }],
  ['consent_policy transactional-authorization-with-mfa', { consent_policy: 'transactional-authorization-with-mfa' }],
  ['authorization_details null', { authorization_details: null }],
  [
    'authorization_details with items of any type',
    { authorization_details: [{ type: 'x', any: [1] }, 1, 'two', null] },
  ],
  ['proof_of_possession null', { proof_of_possession: null }],
  ['proof_of_possession mtls required', { proof_of_possession: { mechanism: 'mtls', required: true } }],
  [
    'proof_of_possession dpop with required_for',
    { proof_of_possession: { mechanism: 'dpop', required: false, required_for: 'public_clients' } },
  ],
  [
    'proof_of_possession required_for all_clients',
    { proof_of_possession: { mechanism: 'dpop', required: true, required_for: 'all_clients' } },
  ],
  ['subject_type_authorization empty', { subject_type_authorization: {} }],
  [
    'subject_type_authorization.user with extra members',
    { subject_type_authorization: { user: { policy: 'allow_all', note: 'x', nested: { a: 1 } } } },
  ],
  [
    'subject_type_authorization.client with extra members',
    { subject_type_authorization: { client: { policy: 'deny_all', extra: [1, 2] } } },
  ],
  ['subject_type_authorization.user without policy', { subject_type_authorization: { user: {} } }],
  ...['allow_all', 'deny_all', 'require_client_grant'].map((p): [string, Record<string, unknown>] => [
    `user policy ${p}`,
    { subject_type_authorization: { user: { policy: p } } },
  ]),
  [
    'client policy require_client_grant',
    { subject_type_authorization: { client: { policy: 'require_client_grant' } } },
  ],
  ['authorization_policy null', { authorization_policy: null }],
  ['policy_id of 1 character', { authorization_policy: { policy_id: 'p' } }],
  ['policy_id of 1024 characters', { authorization_policy: { policy_id: s(1024) } }],
];

// [title, body] rejected with 400
const invalid: Array<[string, Record<string, unknown>]> = [
  ['name of 201 characters', { name: s(201) }],
  ['name of 201 astral code points', { name: s(201, '😀') }],
  ['empty name', { name: '' }],
  ['name with <', { name: 'a<b' }],
  ['name with >', { name: 'a>b' }],
  ['name as a number', { name: 42 }],
  ['name null', { name: null }],
  ['scopes not an array', { scopes: 'read:x' }],
  ['scopes null', { scopes: null }],
  ['scope without value', { scopes: [{ description: 'd' }] }],
  ['scope value empty', { scopes: [{ value: '' }] }],
  ['scope value of 281 characters', { scopes: [{ value: s(281) }] }],
  ['scope value as a number', { scopes: [{ value: 1 }] }],
  ['scope description of 501 characters', { scopes: [{ value: 'a', description: s(501) }] }],
  ['scope with an unknown member', { scopes: [{ value: 'a', extra: true }] }],
  ['scope item a string', { scopes: ['read:x'] }],
  ['signing_alg outside the enum', { signing_alg: 'HS512' }],
  ['signing_alg in lower case', { signing_alg: 'hs256' }],
  ['signing_alg null', { signing_alg: null }],
  ['signing_secret of 15 characters', { signing_secret: s(15) }],
  // biome-ignore lint/correctness/noPrecisionLoss: any number will do; only its type matters
  ['signing_secret as a number', { signing_secret: 1234567890123456789 }],
  ['boolean as a string', { allow_offline_access: 'true' }],
  ['boolean as a number', { enforce_policies: 1 }],
  ['boolean null', { skip_consent_for_verifiable_first_party_clients: null }],
  ['token_lifetime -1', { token_lifetime: -1 }],
  ['token_lifetime 2592001', { token_lifetime: 2592001 }],
  ['token_lifetime fractional', { token_lifetime: 3600.5 }],
  ['token_lifetime as a string', { token_lifetime: '3600' }],
  ['token_lifetime null', { token_lifetime: null }],
  ['token_dialect outside the enum', { token_dialect: 'jwt' }],
  ['token_encryption a string', { token_encryption: 'compact-nested-jwe' }],
  ['token_encryption without format', { token_encryption: { encryption_key: key() } }],
  ['token_encryption without encryption_key', { token_encryption: { format: 'compact-nested-jwe' } }],
  ['token_encryption format outside the enum', enc1({ format: 'jwe' })],
  ['token_encryption with an unknown member', enc1({ extra: 1 })],
  ['encryption key with an unknown member', enc1({}, { use: 'enc' })],
  ['encryption key without alg', { token_encryption: { format: 'compact-nested-jwe', encryption_key: { pem: 'p' } } }],
  [
    'encryption key without pem',
    { token_encryption: { format: 'compact-nested-jwe', encryption_key: { alg: 'RSA-OAEP-256' } } },
  ],
  ['encryption key alg outside the enum', enc1({}, { alg: 'RSA-OAEP' })],
  ['encryption key name empty', enc1({}, { name: '' })],
  ['encryption key name of 129 characters', enc1({}, { name: s(129) })],
  ['encryption key kid empty', enc1({}, { kid: '' })],
  ['encryption key kid of 129 characters', enc1({}, { kid: s(129) })],
  ['pem empty', enc1({}, { pem: '' })],
  ['pem of 4097 characters', enc1({}, { pem: s(4097) })],
  ['encryption_key null', { token_encryption: { format: 'compact-nested-jwe', encryption_key: null } }],
  ['consent_policy outside the enum', { consent_policy: 'always' }],
  ['consent_policy empty', { consent_policy: '' }],
  ['authorization_details an object', { authorization_details: { type: 'x' } }],
  ['authorization_details a string', { authorization_details: 'x' }],
  ['proof_of_possession without mechanism', { proof_of_possession: { required: true } }],
  ['proof_of_possession without required', { proof_of_possession: { mechanism: 'mtls' } }],
  ['proof_of_possession mechanism outside the enum', { proof_of_possession: { mechanism: 'tls', required: true } }],
  ['proof_of_possession required as a string', { proof_of_possession: { mechanism: 'mtls', required: 'yes' } }],
  [
    'proof_of_possession required_for outside the enum',
    { proof_of_possession: { mechanism: 'mtls', required: true, required_for: 'some_clients' } },
  ],
  [
    'proof_of_possession with an unknown member',
    { proof_of_possession: { mechanism: 'mtls', required: true, extra: 1 } },
  ],
  ['subject_type_authorization null', { subject_type_authorization: null }],
  [
    'subject_type_authorization with an unknown member',
    { subject_type_authorization: { user: { policy: 'allow_all' }, group: {} } },
  ],
  ['user policy outside the enum', { subject_type_authorization: { user: { policy: 'allow_some' } } }],
  [
    'client policy allow_all (not in the client enum)',
    { subject_type_authorization: { client: { policy: 'allow_all' } } },
  ],
  ['user a string', { subject_type_authorization: { user: 'allow_all' } }],
  ['client null', { subject_type_authorization: { client: null } }],
  ['authorization_policy without policy_id', { authorization_policy: {} }],
  ['policy_id empty', { authorization_policy: { policy_id: '' } }],
  ['policy_id of 1025 characters', { authorization_policy: { policy_id: s(1025) } }],
  ['authorization_policy with an unknown member', { authorization_policy: { policy_id: 'p', extra: 1 } }],
  ['authorization_policy a string', { authorization_policy: 'p' }],
  ['identifier (even unchanged)', { identifier: RS_CONFORMANCE_IDENTIFIER }],
  ['identifier changed', { identifier: 'https://changed.test/' }],
  ['unknown top-level member', { colour: 'blue' }],
  ['token_lifetime_for_web (not in the request body)', { token_lifetime_for_web: 60 }],
  ['response-only id', { id: 'rs_x' }],
  ['response-only is_system', { is_system: true }],
  ['response-only client_id', { client_id: 'abc' }],
  ['__proto__ member', JSON.parse('{"__proto__": {"name": "x"}}') as Record<string, unknown>],
];

test.describe('accepted bodies → 201', () => {
  for (const [title, body] of valid) {
    test(title, async () => {
      const r = await c.patchJson('rs_conformance', body, token);
      expect(r.status, r.text).toBe(201);
      for (const [field, value] of Object.entries(body)) {
        if (field !== 'token_lifetime') expect(r.body[field]).toEqual(value);
      }
    });
  }
});

test.describe('rejected bodies → 400, nothing changed', () => {
  for (const [title, body] of invalid) {
    test(title, async () => {
      const before = await c.patchJson('rs_conformance', {}, token);
      const r = await c.patchJson('rs_conformance', body, token);
      expect(r.status, r.text).toBe(400);
      expect(r.body).toMatchObject({
        statusCode: 400,
        error: 'Bad Request',
        errorCode: 'invalid_body',
        message: expect.any(String),
      });
      const after = await c.patchJson('rs_conformance', {}, token);
      expect(after.body).toEqual(before.body);
    });
  }
});

test('a body with one bad member and good ones is rejected whole', async () => {
  const before = await c.patchJson('rs_conformance', {}, token);
  const r = await c.patchJson('rs_conformance', { name: 'Changed', token_lifetime: -5 }, token);
  expect(r.status).toBe(400);
  expect((await c.patchJson('rs_conformance', {}, token)).body.name).toBe(before.body.name);
});

test('response is exactly the §2.1 object', async () => {
  const r = await c.patchJson('rs_other', { name: 'Other' }, token);
  expect(r.status).toBe(201);
  expect(Object.keys(r.body).sort()).toEqual([...RESOURCE_SERVER_FIELDS].sort());
  expect(r.body).toMatchObject({ id: 'rs_other', identifier: 'urn:other', is_system: false });
});

test('partial update: untouched fields keep their values, changes persist', async () => {
  const first = await c.patchJson('rs_other', { name: 'Persisted name', allow_offline_access: true }, token);
  const second = await c.patchJson('rs_other', { enforce_policies: true }, token);
  expect(second.body).toMatchObject({ name: 'Persisted name', allow_offline_access: true, enforce_policies: true });
  expect(second.body.scopes).toEqual(first.body.scopes);
});

test('path id may be the percent-encoded identifier', async () => {
  const r = await c.patchJson(enc(RS_CONFORMANCE_IDENTIFIER), { name: 'By identifier' }, token);
  expect(r.status).toBe(201);
  expect(r.body.id).toBe('rs_conformance');
  const byId = await c.patchJson('rs_conformance', {}, token);
  expect(byId.body.name).toBe('By identifier');
});

test('URN identifier works raw and percent-encoded', async () => {
  expect((await c.patchJson('urn:other', {}, token)).body.id).toBe('rs_other');
  expect((await c.patchJson('urn%3Aother', {}, token)).body.id).toBe('rs_other');
});

test('unknown id or identifier → 404; bad percent-encoding → 404', async () => {
  for (const id of ['rs_nope', enc('https://nope.test/'), '%E0%A4%A']) {
    const r = await c.patchJson(id, { name: 'x' }, token);
    expect(r.status, id).toBe(404);
    expect(r.body.errorCode).toBe('inexistent_resource_server');
  }
});

test('the system resource server cannot be patched (by id or identifier) → 400', async () => {
  for (const id of ['rs_system', enc(`${t.publicUrl}/api/v2/`)]) {
    const r = await c.patchJson(id, { name: 'Hijack' }, token);
    expect(r.status, id).toBe(400);
    expect(r.body.errorCode).toBe('operation_not_supported');
  }
});

test('token_lifetime_for_web is clamped when token_lifetime drops below it, never above it', async () => {
  const low = await c.patchJson('rs_other', { token_lifetime: 100 }, token);
  expect(low.body).toMatchObject({ token_lifetime: 100, token_lifetime_for_web: 100 });
  const high = await c.patchJson('rs_other', { token_lifetime: 90000 }, token);
  expect(high.body.token_lifetime).toBe(90000);
  expect(high.body.token_lifetime_for_web).toBeLessThanOrEqual(90000);
});

test.describe('form bodies', () => {
  const form = (id: string, body: string) =>
    c.send('PATCH', `/api/v2/resource-servers/${id}`, {
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    });

  test('flat fields are typed by the schema', async () => {
    const r = await form(
      'rs_other',
      'name=Form+name&token_lifetime=3600&allow_offline_access=false&enforce_policies=true&consent_policy=null',
    );
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      name: 'Form name',
      token_lifetime: 3600,
      allow_offline_access: false,
      enforce_policies: true,
      consent_policy: null,
    });
  });

  test('non-flat fields carry JSON text', async () => {
    const body = new URLSearchParams({
      scopes: JSON.stringify([{ value: 'read:form' }]),
      proof_of_possession: JSON.stringify({ mechanism: 'dpop', required: true }),
      subject_type_authorization: JSON.stringify({ user: { policy: 'deny_all', x: 1 } }),
      token_encryption: 'null',
    }).toString();
    const r = await form('rs_other', body);
    expect(r.status, r.text).toBe(201);
    expect(r.body.scopes).toEqual([{ value: 'read:form' }]);
    expect(r.body.proof_of_possession).toEqual({ mechanism: 'dpop', required: true });
    expect(r.body.token_encryption).toBeNull();
  });

  test('fields that admit null read an empty value or `null` as null', async () => {
    const r = await form(
      'rs_other',
      'token_encryption=&authorization_details=&proof_of_possession=null&authorization_policy=&consent_policy=',
    );
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({
      token_encryption: null,
      authorization_details: null,
      proof_of_possession: null,
      authorization_policy: null,
      consent_policy: null,
    });
  });

  const bad: Array<[string, string]> = [
    ['empty value for a field that does not admit null', 'scopes='],
    ['null for a non-nullable field', 'subject_type_authorization=null'],
    ['empty name', 'name='],
    ['integer that is not a number', 'token_lifetime=soon'],
    ['integer out of range', 'token_lifetime=2592001'],
    ['boolean that is not true/false', 'allow_offline_access=yes'],
    ['name too long', `name=${s(201)}`],
    ['unknown field', 'colour=blue'],
    ['identifier', `identifier=${enc('urn:other')}`],
    ['repeated field', 'name=a&name=b'],
    ['non-flat field with malformed JSON', 'scopes=%5B%7B'],
    ['non-flat field with an invalid value', `scopes=${enc('[{"value":""}]')}`],
  ];
  for (const [title, body] of bad) {
    test(`${title} → 400`, async () => {
      const r = await form('rs_other', body);
      expect(r.status, r.text).toBe(400);
    });
  }
});
