// lib/redact.ts: two nets, known values and patterns. Each case is data: an input, what
// must vanish from the output, what must survive. What the runtime intends for the tenant's
// `signing_secret` (§2.1 "Secret for symmetric signing"): the value the snapshot read is a
// known secret (lib/fixtures.ts adds it), so it is masked wherever it appears; a value the
// suite generated itself (a §2.2 min-length case) is test data and stays visible as evidence.
// The field name alone is therefore not a redaction key, and the cases below hold that.
import { generateKeyPairSync } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { createRedactor } from '../lib/redact.ts';

const FULL_SECRET = 'idmc-selftest-full-Zq81kLr0';
const LIMITED_SECRET = 'idmc-selftest-lim+/=Xy7';
const TENANT_SIGNING_SECRET = 'tenant-signing-secret-0123456789';
const JWT = 'eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjb25mb3JtYW5jZS1mdWxsIn0.c2lnbmF0dXJlLWJ5dGVz';
const PEM = generateKeyPairSync('ec', {
  namedCurve: 'P-256',
  privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  publicKeyEncoding: { type: 'spki', format: 'pem' },
}).privateKey;
const PEM_BODY = PEM.split('\n')[1]!;

const redactor = () => createRedactor([FULL_SECRET, LIMITED_SECRET, TENANT_SIGNING_SECRET]);

interface TextCase {
  title: string;
  input: string;
  gone: string[];
  kept?: string[];
}

const TEXT: TextCase[] = [
  {
    title: 'a known client secret anywhere in free text',
    input: `client said ${FULL_SECRET} twice: ${FULL_SECRET}.`,
    gone: [FULL_SECRET],
    kept: ['client said', 'twice'],
  },
  {
    title: 'a known secret in its percent-encoded form (form body, URL)',
    input: `client_id=x&other=${encodeURIComponent(LIMITED_SECRET)}`,
    gone: [encodeURIComponent(LIMITED_SECRET), LIMITED_SECRET],
    kept: ['client_id=x'],
  },
  {
    title: "the tenant's signing secret (known from the snapshot) in a response body",
    input: `{"id":"rs_1","signing_secret":"${TENANT_SIGNING_SECRET}","name":"api"}`,
    gone: [TENANT_SIGNING_SECRET],
    kept: ['"name":"api"', '"id":"rs_1"'],
  },
  {
    title: 'an Authorization: Bearer header line',
    input: 'Authorization: Bearer abcdefghijklmnop.qrs',
    gone: ['abcdefghijklmnop'],
    kept: ['Authorization: Bearer'],
  },
  {
    title: 'an Authorization: Basic header line',
    input: 'authorization: Basic Y29uZm9ybWFuY2UtZnVsbDpzM2NyZXQ=',
    gone: ['Y29uZm9ybWFuY2UtZnVsbDpzM2NyZXQ='],
    kept: ['Basic'],
  },
  {
    title: 'a JWT with no label around it',
    input: `token was ${JWT} then`,
    gone: [JWT, JWT.split('.')[1]!],
    kept: ['token was', 'then'],
  },
  { title: 'a JWT inside a JSON string', input: JSON.stringify({ note: `x ${JWT}` }), gone: [JWT] },
  {
    title: 'a PKCS#8 PEM private key block',
    input: `key:\n${PEM}\nend`,
    gone: [PEM_BODY, 'BEGIN PRIVATE KEY'],
    kept: ['key:', 'end'],
  },
  {
    title: 'an RSA PEM private key block',
    input: '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEAsecretkeymaterial\n-----END RSA PRIVATE KEY-----',
    gone: ['MIIEowIBAAKCAQEAsecretkeymaterial'],
  },
  { title: 'a PEM block JSON-escaped (\\n) inside a string', input: JSON.stringify({ pem: PEM }), gone: [PEM_BODY] },
  {
    title: 'client_secret in a JSON body',
    input: '{"client_id":"c1","client_secret":"an-unknown-secret-value"}',
    gone: ['an-unknown-secret-value'],
    kept: ['"client_id":"c1"'],
  },
  {
    title: 'client_secret with escaped quotes in a JSON body',
    input: '{"client_secret":"ab\\"cd-unknown","x":1}',
    gone: ['cd-unknown'],
    kept: ['"x":1'],
  },
  {
    title: 'client_assertion in a JSON body',
    input:
      '{"client_assertion":"opaque-assertion-value","client_assertion_type":"urn:ietf:params:oauth:client-assertion-type:jwt-bearer"}',
    gone: ['opaque-assertion-value'],
    kept: ['urn:ietf:params:oauth:client-assertion-type:jwt-bearer'],
  },
  {
    title: 'client_secret in a form body',
    input: 'grant_type=client_credentials&client_id=c1&client_secret=unknown%2Bsecret&audience=x',
    gone: ['unknown%2Bsecret'],
    kept: ['grant_type=client_credentials', 'client_id=c1', 'audience=x'],
  },
  {
    title: 'client_assertion in a form body',
    input:
      'client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=opaque.value.here',
    gone: ['opaque.value.here'],
    kept: ['client_assertion_type=urn%3Aietf'],
  },
  {
    title: 'access_token in a URL query',
    input: 'https://h.test/cb?access_token=opaque-token-123&state=s1',
    gone: ['opaque-token-123'],
    kept: ['state=s1'],
  },
  {
    title: 'a known secret containing another known secret is masked whole',
    input: `${FULL_SECRET}-suffix`,
    gone: [FULL_SECRET],
  },
];

test.describe('redactor.text: secrets vanish', () => {
  for (const c of TEXT) {
    test(c.title, () => {
      const out = redactor().text(c.input);
      for (const g of c.gone) expect(out).not.toContain(g);
      for (const k of c.kept ?? []) expect(out).toContain(k);
      expect(out).toContain('<redacted');
    });
  }
});

/** Ordinary values the suite must show as they are: masking them hides the evidence. */
const ORDINARY: Array<{ title: string; input: string }> = [
  {
    title: 'a resource-server body with names, identifiers, lifetimes and scopes',
    input:
      '{"id":"rs_conformance","name":"Conformance API","identifier":"https://api.conformance.test/","token_lifetime":86400,"scopes":[{"value":"read:things","description":"Read"}]}',
  },
  {
    title: 'a signing_secret the suite generated (test data, not a tenant secret)',
    input: '{"signing_secret":"generated-16-chars"}',
  },
  {
    title: 'auth-method names that contain credential words',
    input: '{"token_endpoint_auth_method":"client_secret_post","grant_types":["client_credentials"]}',
  },
  {
    title: 'a form body without credentials',
    input: 'name=Conformance+API&token_lifetime=3600&allow_offline_access=true',
  },
  { title: 'a short malformed credential that is part of the case', input: 'Authorization: Bearer abc' },
  {
    title: 'an OAuth error body',
    input: '{"error":"invalid_client","error_description":"Client authentication failed"}',
  },
  { title: 'the word password in prose', input: 'no password field is accepted here' },
  {
    title: 'an ISO date-time and an experiment id',
    input: '{"id":"exp_3mJr7AoUXx2Wqd","created_at":"2026-11-22T04:00:00.000Z"}',
  },
];
test.describe('redactor.text: ordinary values are untouched', () => {
  for (const c of ORDINARY) {
    test(c.title, () => {
      expect(redactor().text(c.input)).toBe(c.input);
    });
  }

  // The reference tenant's own error_description (reference/src/auth/client-auth.ts) is
  // evidence for the §5 observations: it must read as the tenant wrote it.
  test('prose after the word Basic or Bearer is not a credential', () => {
    for (const s of [
      'client_id in the body does not match the Basic credentials',
      'Bearer authentication is required',
      'HTTP Basic authentication is not supported',
    ]) {
      expect(redactor().text(s)).toBe(s);
    }
  });
});

test.describe('redactor.value: structured bodies', () => {
  test('credential fields are masked at any depth, whatever their type', () => {
    const input = {
      name: 'api',
      token_lifetime: 3600,
      nested: {
        client_secret: 'deep-unknown-secret',
        list: [{ access_token: 'opaque-at' }, { refresh_token: 12345 }],
        ok: 'fine',
      },
      Client_Assertion: 'mixed-case-key-value',
      private_key: { kty: 'RSA', d: 'private-exponent' },
      password: null,
    };
    const out = redactor().value(input);
    const s = JSON.stringify(out);
    for (const g of ['deep-unknown-secret', 'opaque-at', '12345', 'mixed-case-key-value', 'private-exponent'])
      expect(s).not.toContain(g);
    expect(out).toMatchObject({ name: 'api', token_lifetime: 3600, nested: { ok: 'fine' }, password: null });
  });

  test('known values and patterns inside nested strings are masked, other strings kept', () => {
    const out = redactor().value({ a: [`x ${FULL_SECRET}`, { b: `Bearer ${JWT}` }], c: 'plain', d: 7, e: true });
    expect(JSON.stringify(out)).not.toContain(FULL_SECRET);
    expect(JSON.stringify(out)).not.toContain(JWT);
    expect(out).toMatchObject({ c: 'plain', d: 7, e: true });
  });

  test('the input object is not modified', () => {
    const input = { client_secret: 'kept-in-the-original' };
    redactor().value(input);
    expect(input.client_secret).toBe('kept-in-the-original');
  });

  test('a signing_secret is masked by value (the tenant one), not by name (generated test data)', () => {
    const out = redactor().value({
      before: { signing_secret: TENANT_SIGNING_SECRET },
      sent: { signing_secret: 'generated-16-chars' },
    });
    expect(out).toEqual({ before: { signing_secret: '<redacted>' }, sent: { signing_secret: 'generated-16-chars' } });
  });
});

test.describe('redactor.headers', () => {
  const CASES: Array<{ title: string; headers: Record<string, string>; expected: Record<string, string> }> = [
    {
      title: 'Authorization Bearer keeps the scheme only',
      headers: { Authorization: `Bearer ${JWT}` },
      expected: { Authorization: 'Bearer <redacted>' },
    },
    {
      title: 'Authorization Basic keeps the scheme only',
      headers: { authorization: 'Basic Y2xpZW50OnNlY3JldA==' },
      expected: { authorization: 'Basic <redacted>' },
    },
    {
      title: 'a short malformed Authorization is still masked in headers',
      headers: { authorization: 'Bearer x' },
      expected: { authorization: 'Bearer <redacted>' },
    },
    {
      title: 'cookies and API keys are masked whole',
      headers: { Cookie: 'sid=abc123', 'set-cookie': 'sid=abc; HttpOnly', 'X-Api-Key': 'k-123456' },
      expected: { Cookie: '<redacted>', 'set-cookie': '<redacted>', 'X-Api-Key': '<redacted>' },
    },
    {
      title: 'rate-limit and content headers are kept',
      headers: { 'x-ratelimit-remaining': '4', 'content-type': 'application/json' },
      expected: { 'x-ratelimit-remaining': '4', 'content-type': 'application/json' },
    },
    {
      title: 'a known secret echoed in another header is masked',
      headers: { 'x-debug': `secret=${FULL_SECRET}` },
      expected: { 'x-debug': 'secret=<redacted>' },
    },
  ];
  for (const c of CASES) {
    test(c.title, () => {
      expect(createRedactor([FULL_SECRET]).headers(c.headers)).toEqual(c.expected);
    });
  }
});

test.describe('redactor.add and known-value edges', () => {
  test('a secret learnt at runtime is masked from then on', () => {
    const r = createRedactor();
    expect(r.text('late-token-value-123')).toBe('late-token-value-123');
    r.add('late-token-value-123');
    expect(r.text('x late-token-value-123 y')).toBe('x <redacted> y');
  });

  test('values shorter than 4 characters are not treated as secrets (they would mask everything)', () => {
    const r = createRedactor(['ab', '']);
    expect(r.text('about a tab')).toBe('about a tab');
  });

  test('a PEM private key cut off by evidence truncation (no END line) is still masked', () => {
    const cut = PEM.slice(0, PEM.length - 40);
    expect(redactor().text(cut)).not.toContain(PEM_BODY);
  });
});
