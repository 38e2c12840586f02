// The §5.2 request builders and the auth-error record (lib/auth-target.ts, lib/auth-errors.ts):
// each assertion fault breaks exactly its property (the others still verify), the Basic header
// is form-encoded per RFC 6749 §2.3.1, the mTLS headers can be replaced or left out one by one.
import { readFileSync } from 'node:fs';
import { expect, test, type TestInfo } from '@playwright/test';
import { compactVerify, decodeJwt, decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import { parseConfig, EMBEDDED, withDiscovered, type Config } from '../lib/config.ts';
import { ASSERTION_FAULTS, clientAssertion, type AssertionFault } from '../lib/auth/methods/client-assertion.ts';
import { basicAuthorization, needsFormEncoding } from '../lib/auth/methods/client-secret-basic.ts';
import { FOREIGN_CERT_FILE, mtlsHeaders } from '../lib/auth/methods/mtls.ts';
import { describeAuthError, recordAuthError } from '../lib/auth/error-records.ts';
import { alterToken, truncateToken } from '../lib/auth/forge.ts';
import { isJwt } from '../lib/auth/jwt-read.ts';
import type { Exchange } from '../lib/http.ts';
import { received, type AnswerContext } from '../lib/answer-class.ts';
import type { Endpoint } from '../lib/auth/endpoints.ts';

const cfg = parseConfig({});
const PUBLIC_KEY = EMBEDDED.pkjwtKeyFile.replace('.private.pem', '.public.pem');

test.describe('Basic header (RFC 6749 §2.3.1)', () => {
  test('id and secret are form-encoded before Base64; encode=false keeps them raw', () => {
    const decoded = (h: string) => Buffer.from(h.replace(/^Basic /, ''), 'base64').toString('utf8');
    expect(decoded(basicAuthorization('my client', 'p:w%&= +'))).toBe('my+client:p%3Aw%25%26%3D+%2B');
    expect(decoded(basicAuthorization('my client', 'p:w', false))).toBe('my client:p:w');
    expect(decoded(basicAuthorization('plain', 'Secret-123_~.'))).toBe('plain:Secret-123_~.');
  });
  test('needsFormEncoding tells which credentials exercise the encoding', () => {
    expect(needsFormEncoding(EMBEDDED.basic.secret)).toBe(true);
    expect(needsFormEncoding('dev-secret-post-0123456789')).toBe(false);
  });
});

test.describe('client assertions (RFC 7523 §3): one fault at a time', () => {
  test('a valid assertion verifies with the registered key, for the tenant as issuer, iss = sub = client id', async () => {
    const key = await importSPKI(readFileSync(PUBLIC_KEY, 'utf8'), 'RS256');
    const { payload } = await jwtVerify(await clientAssertion(cfg), key, {
      audience: 'http://127.0.0.1:4810/',
      issuer: EMBEDDED.pkjwtClientId,
      subject: EMBEDDED.pkjwtClientId,
    });
    expect(typeof payload.jti).toBe('string');
  });
  test('two assertions carry different jti unless one is given', async () => {
    expect(decodeJwt(await clientAssertion(cfg)).jti).not.toBe(decodeJwt(await clientAssertion(cfg)).jti);
    expect(decodeJwt(await clientAssertion(cfg, undefined, 'fixed')).jti).toBe('fixed');
  });
  const BROKEN: Record<AssertionFault, (token: string) => Promise<boolean>> = {
    'wrong-aud': async (t) => decodeJwt(t).aud !== cfg.auth.assertionAudience,
    expired: async (t) => (decodeJwt(t).exp ?? Infinity) < Date.now() / 1000,
    'iss-not-sub': async (t) => decodeJwt(t).iss !== decodeJwt(t).sub && decodeJwt(t).sub !== undefined,
    'no-sub': async (t) => decodeJwt(t).sub === undefined,
    'alg-none': async (t) => decodeProtectedHeader(t).alg === 'none' && t.endsWith('.'),
    'foreign-key': async (t) => {
      const key = await importSPKI(readFileSync(PUBLIC_KEY, 'utf8'), 'RS256');
      return compactVerify(t, key).then(
        () => false,
        () => true,
      ); // the signature alone, not the claims
    },
  };
  for (const fault of Object.keys(ASSERTION_FAULTS) as AssertionFault[]) {
    test(`${fault}: ${ASSERTION_FAULTS[fault]}, and nothing else changes`, async () => {
      const t = await clientAssertion(cfg, fault);
      expect(await BROKEN[fault](t)).toBe(true);
      // Every other fault's property still holds: the case is sharp (no sub has no iss ≠ sub
      // either; an unsigned token is signed by no key at all).
      const implied = (o: AssertionFault) =>
        (fault === 'no-sub' && o === 'iss-not-sub') || (fault === 'alg-none' && o === 'foreign-key');
      for (const other of Object.keys(BROKEN) as AssertionFault[])
        if (other !== fault && !implied(other))
          expect(await BROKEN[other](t), `${fault} also breaks ${other}`).toBe(false);
    });
  }
});

test.describe('the assertion audience: discovery issuer, tenant URL or a setting (RFC 7523 §3)', () => {
  const ISSUER = 'https://login.example.test/';
  const TOKEN = 'https://login.example.test/oauth/token';
  const staging = {
    IDM_AUTH_URL: 'https://auth.example.test',
    IDM_PKJWT_CLIENT_ID: 'pk',
    IDM_PKJWT_KEY_FILE: EMBEDDED.pkjwtKeyFile,
  };
  const choices: Array<[string, Config, string]> = [
    ['no discovery', parseConfig(staging), 'https://auth.example.test/'],
    ['the discovery issuer', withDiscovered(parseConfig(staging), { issuer: ISSUER, tokenEndpoint: TOKEN }), ISSUER],
    [
      'IDM_ASSERTION_AUDIENCE=token-endpoint',
      withDiscovered(parseConfig({ ...staging, IDM_ASSERTION_AUDIENCE: 'token-endpoint' }), {
        issuer: ISSUER,
        tokenEndpoint: TOKEN,
      }),
      TOKEN,
    ],
    [
      'IDM_ASSERTION_AUDIENCE naming another tenant token endpoint',
      parseConfig({ ...staging, IDM_ASSERTION_AUDIENCE: 'https://another-tenant.example.test/oauth/token' }),
      'https://another-tenant.example.test/oauth/token',
    ],
  ];
  for (const [what, c, aud] of choices)
    test(`${what}: signed for ${aud}; the wrong audience stays wrong`, async () => {
      expect(c.auth.assertionAudience).toBe(aud);
      expect(decodeJwt(await clientAssertion(c)).aud).toBe(aud);
      expect(decodeJwt(await clientAssertion(c, 'wrong-aud')).aud).not.toBe(aud);
      expect(decodeJwt(await clientAssertion(c, 'wrong-aud')).aud).not.toMatch(
        /^https:\/\/(auth|login)\.example\.test\//,
      );
    });
});

test.describe('mTLS edge headers', () => {
  const client = { id: 'm', apiKey: 'key-1', certFile: FOREIGN_CERT_FILE };
  test('the three headers by default, the certificate URL-encoded PEM, SUCCESS', () => {
    const h = mtlsHeaders(client);
    expect(Object.keys(h).sort()).toEqual(['client-certificate', 'client-certificate-ca-verified', 'cname-api-key']);
    expect(decodeURIComponent(h['client-certificate']!)).toBe(readFileSync(FOREIGN_CERT_FILE, 'utf8'));
    expect(h['client-certificate']).not.toMatch(/[\s\n]/);
    expect(h['client-certificate-ca-verified']).toBe('SUCCESS');
  });
  test('each header can be replaced or left out', () => {
    expect(mtlsHeaders(client, { apiKey: 'other' })['cname-api-key']).toBe('other');
    expect(mtlsHeaders(client, { apiKey: null })).not.toHaveProperty('cname-api-key');
    expect(mtlsHeaders(client, { certFile: null })).not.toHaveProperty('client-certificate');
    expect(mtlsHeaders(client, { verified: 'FAILED: x' })['client-certificate-ca-verified']).toBe('FAILED: x');
  });
  test('the suite-owned foreign certificate is a certificate, with no private key beside it', () => {
    expect(readFileSync(FOREIGN_CERT_FILE, 'utf8')).toMatch(/^-----BEGIN CERTIFICATE-----/);
    expect(readFileSync(FOREIGN_CERT_FILE, 'utf8')).not.toMatch(/PRIVATE KEY/);
  });
});

test.describe('auth-error records (§7.3)', () => {
  const ex = (status: number, body: unknown): Exchange =>
    received({
      request: { method: 'POST', url: 'http://127.0.0.1/oauth/token?x=1', headers: {} },
      status,
      headers: {},
      text: JSON.stringify(body),
      body,
    });
  test('code and description found under the usual member names', () => {
    expect(describeAuthError(ex(401, { error: 'invalid_client', error_description: 'bad' }))).toEqual({
      at: 'POST /oauth/token',
      status: 401,
      object: true,
      members: ['error', 'error_description'],
      code: 'invalid_client',
      description: true,
      // The answer's content type, where the rule is about JSON (none given here).
      type: null,
    });
    expect(describeAuthError(ex(400, { code: 'x', message: 'y' }))).toMatchObject({ code: 'x', description: true });
  });
  test('an error object nested under error carries its name and message as code and description', () => {
    const nested = { error: { name: 'InvalidClientError', message: 'bad', stack: 'at x' } };
    expect(describeAuthError(ex(401, nested))).toMatchObject({
      members: ['error'],
      code: 'InvalidClientError',
      description: true,
    });
    expect(describeAuthError(ex(401, { error: { stack: 'at x' } }))).toMatchObject({ code: null, description: false });
  });
  test('empty strings and non-objects carry neither', () => {
    expect(describeAuthError(ex(400, { error: '', error_description: ' ' }))).toMatchObject({
      object: true,
      code: null,
      description: false,
    });
    expect(describeAuthError(ex(400, 'Bad Request'))).toMatchObject({
      object: false,
      members: [],
      code: null,
      description: false,
    });
  });
  test("a page for the user is no API answer: the authorization endpoint's text page is not recorded (issue 47)", () => {
    const annotations: { type: string; description?: string }[] = [];
    const info = { annotations } as unknown as TestInfo;
    const authorize: Endpoint = {
      which: 'authorize',
      url: 'http://t/authorize',
      source: 'default',
      setting: 'IDM_AUTHORIZE_PATH',
    };
    const plain = (ctx: AnswerContext) =>
      received(
        {
          request: { method: 'GET', url: 'http://t/authorize', headers: {} },
          status: 400,
          headers: { 'content-type': 'text/plain' },
          text: 'auth request is missing client_id',
          body: undefined,
        },
        ctx,
      );
    expect(recordAuthError(info, plain({ endpoint: authorize }))).toBeNull();
    // The same answer from an endpoint the run does not know as the authorization endpoint counts.
    expect(recordAuthError(info, plain({}))).toMatchObject({ object: false, type: 'text/plain' });
    expect(annotations).toHaveLength(1);
  });
});

test.describe('user-token variants that need no decoding (RFC 6749 §1.4)', () => {
  test('a JWT is told from an opaque token', async () => {
    expect(isJwt(await clientAssertion(cfg))).toBe(true);
    for (const t of ['Xq3v9kZP0wYtR7uQ2mN5bL8a', 'abc.def.ghi', 'not-a-jwt']) expect(isJwt(t), t).toBe(false);
  });
  test('an altered token keeps its length and no longer verifies; a truncated one is shorter', async () => {
    const key = await importSPKI(readFileSync(PUBLIC_KEY, 'utf8'), 'RS256');
    const token = await clientAssertion(cfg);
    const altered = alterToken(token);
    expect(altered.length).toBe(token.length);
    expect([...altered].filter((c, i) => c !== token[i]).length).toBe(1);
    await expect(compactVerify(altered, key)).rejects.toThrow();
    expect(truncateToken(token)).toBe(token.slice(0, -8));
    expect(alterToken('AAAAAAAAAA')).toBe('AAAAABAAAA');
  });
});
