// ID-token validation (lib/auth/id-token.ts) without a tenant: a token signed by a published
// key validates; each rule of OIDC Core §3.1.3.7 / §3.2.2.11 broken alone is named; the issuer
// and keys come from the discovery document and its jwks_uri.
import { createHash } from 'node:crypto';
import { test, expect } from '@playwright/test';
import { SignJWT, UnsecuredJWT, createLocalJWKSet, exportJWK, generateKeyPair, type JWTPayload } from 'jose';
import { issuerKeys, validateIdToken, type IssuerKeys } from '../lib/auth/id-token.ts';
import { parseConfig } from '../lib/config.ts';
import type { ApiClient, Exchange } from '../lib/http.ts';
import { received } from '../lib/answer-class.ts';

const ISSUER = 'https://tenant.example.test/';
const CLIENT = 'client-1';
const ACCESS_TOKEN = 'an-access-token';
const atHash = createHash('sha256').update(ACCESS_TOKEN).digest().subarray(0, 16).toString('base64url');

let keys: IssuerKeys;
let sign: (claims: JWTPayload, o?: { foreign?: boolean }) => Promise<string>;

test.beforeAll(async () => {
  const own = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(own.publicKey)), kid: 'k1', alg: 'RS256' };
  keys = { issuer: ISSUER, jwks: createLocalJWKSet({ keys: [jwk] }), set: { keys: [jwk] } };
  sign = (claims, o = {}) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .sign(o.foreign ? foreign.privateKey : own.privateKey);
});

const now = () => Math.floor(Date.now() / 1000);
const claims = (o: JWTPayload = {}): JWTPayload => ({
  iss: ISSUER,
  sub: 'user-1',
  aud: CLIENT,
  iat: now(),
  exp: now() + 600,
  nonce: 'n-1',
  at_hash: atHash,
  ...o,
});
const context = { clientId: CLIENT, nonce: 'n-1', accessToken: ACCESS_TOKEN };

test('a token signed by a published key, with every claim right, validates', async () => {
  const v = await validateIdToken(await sign(claims()), keys, context);
  expect(v).toMatchObject({ ok: true, claims: { sub: 'user-1' } });
  // aud as an array containing the client, no nonce or at_hash asked for: still valid.
  const plain = await sign(claims({ aud: ['other', CLIENT], nonce: undefined, at_hash: undefined }));
  expect((await validateIdToken(plain, keys, { clientId: CLIENT })).ok).toBe(true);
});

test('each rule broken alone is named', async () => {
  const cases: [string, Promise<string>, RegExp][] = [
    ['unknown key', sign(claims(), { foreign: true }), /ERR_JWS_SIGNATURE_VERIFICATION_FAILED/],
    ['alg none', Promise.resolve(new UnsecuredJWT(claims()).encode()), /alg none/],
    ['another issuer', sign(claims({ iss: 'https://other.test/' })), /iss /],
    ['another audience', sign(claims({ aud: 'other' })), /aud /],
    ['expired', sign(claims({ exp: now() - 3600, iat: now() - 7200 })), /ERR_JWT_EXPIRED/],
    ['no iat', sign(claims({ iat: undefined })), /no iat/],
    ['another nonce', sign(claims({ nonce: 'n-2' })), /nonce is not the one sent/],
    ['no nonce', sign(claims({ nonce: undefined })), /no nonce/],
    ['another at_hash', sign(claims({ at_hash: 'AAAAAAAAAAAAAAAAAAAAAA' })), /at_hash does not match/],
    ['not a JWT', Promise.resolve('not-a-jwt'), /not a JWS/],
  ];
  for (const [what, token, problem] of cases) {
    const v = await validateIdToken(await token, keys, context);
    expect(v.ok, what).toBe(false);
    if (!v.ok) expect(v.problems.join('; '), what).toMatch(problem);
  }
});

test('issuer and keys come from the discovery document and its jwks_uri; without them, why', async () => {
  const own = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(own.publicKey)), kid: 'k9', alg: 'RS256' };
  const base = 'http://127.0.0.1:9/idt';
  const docs: Record<string, unknown> = {
    [`${base}/.well-known/openid-configuration`]: { issuer: ISSUER, jwks_uri: `${base}/jwks` },
    [`${base}/jwks`]: { keys: [jwk] },
  };
  const cfg = parseConfig({
    IDM_BASE_URL: base,
    IDM_CLIENT_ID: 'c',
    IDM_CLIENT_SECRET: 's',
    IDM_RESOURCE_SERVER_ID: 'rs',
  });
  const found = await issuerKeys(cfg, fakeClient(docs));
  expect(typeof found).not.toBe('string');
  const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256', kid: 'k9' }).sign(own.privateKey);
  expect((await validateIdToken(token, found as IssuerKeys, context)).ok).toBe(true);

  const bare = parseConfig({
    IDM_BASE_URL: 'http://127.0.0.1:9/none',
    IDM_CLIENT_ID: 'c',
    IDM_CLIENT_SECRET: 's',
    IDM_RESOURCE_SERVER_ID: 'rs',
  });
  expect(await issuerKeys(bare, fakeClient({}))).toMatch(/no discovery document/);
});

// Helpers

function fakeClient(docs: Record<string, unknown>): ApiClient {
  const send = async (method: string, url: string): Promise<Exchange> => {
    const body = docs[url];
    return received({
      request: { method, url, headers: {} },
      status: body === undefined ? 404 : 200,
      headers: { 'content-type': 'application/json' },
      text: JSON.stringify(body ?? {}),
      body,
    });
  };
  return { send } as unknown as ApiClient;
}
