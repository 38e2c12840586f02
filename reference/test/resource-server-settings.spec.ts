// A custom resource server's settings take effect on the tokens for its API (issue 38): each
// setting PATCHed on rs_conformance, then a token for its identifier through the grant the
// setting governs (client credentials, password, code, implicit, refresh), judged with jose.
// Every test starts its own tenant, so no setting outlives it (token_lifetime_for_web is clamped
// by a lower token_lifetime and never raised again).
import { test, expect } from '@playwright/test';
import { createHash, randomUUID } from 'node:crypto';
import {
  type JWK,
  SignJWT,
  calculateJwkThumbprint,
  compactDecrypt,
  createLocalJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  exportSPKI,
  generateKeyPair,
  jwtVerify,
} from 'jose';
import { readFileSync } from 'node:fs';
import type { ResourceTokenChoices, RunningTenant, TenantOptions } from '../src/index.ts';
import { DEV_MTLS_CERT_PATH } from '../src/index.ts';
import {
  BASIC,
  EDGE_API_KEY,
  FULL,
  POST,
  REDIRECT_URI,
  RS_CONFORMANCE_IDENTIFIER as API,
  SPA,
  USER,
  basicAuth,
  form,
  passwordGrant,
  tenant,
  type Client,
  type Reply,
} from './helpers.ts';

let t: RunningTenant;
let c: Client;
let mgmt: string;

async function start(options: TenantOptions = {}): Promise<void> {
  ({ t, c } = await tenant(options));
  mgmt = await c.accessToken();
}
/** The tenant's choices for custom-API tokens, replaced for one test. */
const withChoices = (change: Partial<ResourceTokenChoices>): Promise<void> =>
  start({ parts: (d) => ({ resourceTokenChoices: { ...d.resourceTokenChoices, ...change } }) });

test.afterEach(async () => t?.close());

async function patch(body: Record<string, unknown>): Promise<void> {
  const r = await c.patchJson('rs_conformance', body, mgmt);
  expect(r.status, r.text).toBe(201);
}

const cc = (client: { id: string; secret: string } = FULL, extra: Record<string, string> = {}, headers = {}) =>
  c.token(
    { grant_type: 'client_credentials', client_id: client.id, client_secret: client.secret, audience: API, ...extra },
    headers,
  );

/** The Basic client (registered for client_secret_basic), which holds no client grant. */
const ccBasic = () =>
  c.token({ grant_type: 'client_credentials', audience: API }, { authorization: basicAuth(BASIC.id, BASIC.secret) });

const password = (scope: string, headers: Record<string, string> = {}) =>
  c.token(passwordGrant({ audience: API, scope }), headers);

const refresh = (client: Record<string, string>, refreshToken: string, headers: Record<string, string> = {}) =>
  c.token({ grant_type: 'refresh_token', refresh_token: refreshToken, ...client }, headers);

const jwks = async () => createLocalJWKSet((await c.send('GET', '/.well-known/jwks.json')).body);

function expectLifetime(r: Reply, seconds: number): void {
  expect(r.status, r.text).toBe(200);
  const claims = decodeJwt(r.body.access_token);
  expect([r.body.expires_in, (claims.exp ?? 0) - (claims.iat ?? 0)]).toEqual([seconds, seconds]);
}

/** A login through /authorize and the login page: the Location it redirects to. */
async function login(query: Record<string, string>): Promise<URL> {
  const page = await fetch(`${t.url}/authorize?${new URLSearchParams(query)}`, { redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) return new URL(page.headers.get('location') ?? '/', t.url);
  const state = /name="state" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const done = await fetch(`${t.url}/u/login`, {
    method: 'POST',
    redirect: 'manual',
    ...form({ username: USER.username, password: USER.password, state }),
  });
  return new URL(done.headers.get('location') ?? '/', t.url);
}

/** The implicit flow for the API: the fragment of the redirect. */
async function implicit(scope = 'read:things'): Promise<URLSearchParams> {
  const to = await login({
    response_type: 'token',
    client_id: SPA.id,
    redirect_uri: REDIRECT_URI,
    audience: API,
    scope,
  });
  return new URLSearchParams(to.hash.slice(1));
}

/** The public client's code flow (PKCE S256) for the API, up to the code. */
async function spaCode(scope: string): Promise<{ code: string; verifier: string }> {
  const verifier = randomUUID() + randomUUID();
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const to = await login({
    response_type: 'code',
    client_id: SPA.id,
    redirect_uri: REDIRECT_URI,
    audience: API,
    scope,
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  return { code: to.searchParams.get('code') ?? '', verifier };
}

const exchange = (code: { code: string; verifier: string }, headers: Record<string, string> = {}) =>
  c.token(
    {
      grant_type: 'authorization_code',
      client_id: SPA.id,
      code: code.code,
      code_verifier: code.verifier,
      redirect_uri: REDIRECT_URI,
    },
    headers,
  );

// DPoP proofs (RFC 9449 §4.2), made with a key generated in memory.
type ProofKey = { privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey']; jwk: JWK };
async function proofKey(): Promise<ProofKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  return { privateKey, jwk: await exportJWK(publicKey) };
}
async function proof(
  key: ProofKey,
  o: { claims?: Record<string, unknown>; header?: Record<string, unknown> } = {},
): Promise<{ dpop: string }> {
  const now = Math.floor(Date.now() / 1000);
  const dpop = await new SignJWT({
    jti: randomUUID(),
    htm: 'POST',
    htu: `${t.publicUrl}/oauth/token`,
    iat: now,
    ...o.claims,
  })
    .setProtectedHeader({ alg: 'ES256', typ: 'dpop+jwt', jwk: key.jwk, ...o.header })
    .sign(key.privateKey);
  return { dpop };
}

test.describe('defaults and the JWKS', () => {
  test('a client-credentials token for the seeded API: RS256, typ JWT, its kid published, 86400 s, Bearer', async () => {
    await start();
    const r = await cc();
    expectLifetime(r, 86400);
    expect(r.body).toMatchObject({ token_type: 'Bearer', scope: 'read:things' });
    const { payload, protectedHeader } = await jwtVerify(r.body.access_token, await jwks(), {
      issuer: `${t.publicUrl}/`,
      audience: API,
    });
    expect(protectedHeader).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    expect(payload).toMatchObject({ sub: `${FULL.id}@clients`, azp: FULL.id, scope: 'read:things' });
    expect(payload.cnf).toBeUndefined();
  });

  test('the JWKS publishes one key per asymmetric signing_alg, each with its alg and its own kid, RS256 first', async () => {
    await start();
    const keys = (await c.send('GET', '/.well-known/jwks.json')).body.keys as JWK[];
    expect(keys.map((k) => k.alg)).toEqual(['RS256', 'RS512', 'PS256']);
    expect(new Set(keys.map((k) => k.kid)).size).toBe(3);
    for (const k of keys) expect(Object.keys(k).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
  });
});

test.describe('token_lifetime and token_lifetime_for_web', () => {
  test('token_lifetime: expires_in and exp − iat of client credentials, password and refresh', async () => {
    await start();
    await patch({ token_lifetime: 600, allow_offline_access: true });
    expectLifetime(await cc(), 600);
    const p = await password('openid offline_access read:things');
    expectLifetime(p, 600);
    await patch({ token_lifetime: 1234 });
    // A refresh follows the settings of its own moment.
    expectLifetime(await refresh({ client_id: POST.id, client_secret: POST.secret }, p.body.refresh_token), 1234);
  });

  test('implicit: token_lifetime_for_web (7200 seeded), clamped by a lower token_lifetime', async () => {
    await start();
    const seeded = await implicit();
    expect(seeded.get('expires_in')).toBe('7200');
    const claims = decodeJwt(seeded.get('access_token') ?? '');
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(7200);
    await patch({ token_lifetime: 300 });
    expect((await implicit()).get('expires_in')).toBe('300');
  });

  test('token_lifetime 0: a token that expires as it is issued, said so', async () => {
    await start();
    await patch({ token_lifetime: 0 });
    expectLifetime(await cc(), 0);
  });
});

test.describe('signing_alg and signing_secret', () => {
  test('HS256: signed with signing_secret as UTF-8 bytes; no kid', async () => {
    await start();
    const secret = 'ünïcode-signing-secret-0123456789';
    await patch({ signing_alg: 'HS256', signing_secret: secret });
    const r = await cc();
    const { protectedHeader } = await jwtVerify(r.body.access_token, new TextEncoder().encode(secret), {
      audience: API,
    });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
    // Another secret stored afterwards signs the next token: the one before no longer verifies it.
    await patch({ signing_secret: 'another-secret-0123456789' });
    await expect(
      jwtVerify((await cc()).body.access_token, new TextEncoder().encode(secret), { audience: API }),
    ).rejects.toThrow();
  });

  for (const alg of ['RS256', 'RS512', 'PS256']) {
    test(`${alg}: signed with the tenant's ${alg} key, found in the JWKS by kid`, async () => {
      await start();
      await patch({ signing_alg: alg });
      const r = await cc();
      const { protectedHeader } = await jwtVerify(r.body.access_token, await jwks(), { algorithms: [alg] });
      const keys = (await c.send('GET', '/.well-known/jwks.json')).body.keys as JWK[];
      expect(keys.find((k) => k.kid === protectedHeader.kid)?.alg).toBe(alg);
    });
  }
});

test.describe('token_dialect and enforce_policies', () => {
  const ACCESS = ['iss', 'sub', 'aud', 'azp', 'exp', 'iat', 'scope'];
  const RFC9068 = ['iss', 'exp', 'aud', 'sub', 'client_id', 'iat', 'jti', 'scope'];
  for (const [dialect, typ, claims] of [
    ['access_token', 'JWT', ACCESS],
    ['access_token_authz', 'JWT', ACCESS],
    ['rfc9068_profile', 'at+jwt', RFC9068],
    ['rfc9068_profile_authz', 'at+jwt', RFC9068],
  ] as const) {
    test(`${dialect}: typ ${typ}, its claims; permissions only with _authz and enforce_policies`, async () => {
      await start();
      await patch({ token_dialect: dialect });
      const plain = await cc();
      expect(decodeProtectedHeader(plain.body.access_token).typ).toBe(typ);
      const payload = decodeJwt(plain.body.access_token);
      for (const claim of claims) expect(payload[claim], claim).toBeDefined();
      expect(payload.permissions).toBeUndefined();
      await patch({ enforce_policies: true });
      const enforced = decodeJwt((await password('openid read:things')).body.access_token);
      if (dialect.endsWith('_authz')) expect(enforced.permissions).toEqual(['read:things']);
      else expect(enforced.permissions).toBeUndefined();
    });
  }
});

test.describe('token_encryption', () => {
  test('a compact JWE to the pem (alg, kid, A256GCM, cty JWT) wrapping the signed JWT; null turns it off', async () => {
    await start();
    const { publicKey, privateKey } = await generateKeyPair('RSA-OAEP-256', { extractable: true });
    const pem = await exportSPKI(publicKey);
    await patch({
      token_encryption: {
        format: 'compact-nested-jwe',
        encryption_key: { alg: 'RSA-OAEP-256', kid: 'run-key-1', pem },
      },
    });
    const r = await cc();
    expect(r.status, r.text).toBe(200);
    expect(r.body.access_token.split('.')).toHaveLength(5);
    expect(decodeProtectedHeader(r.body.access_token)).toEqual({
      alg: 'RSA-OAEP-256',
      enc: 'A256GCM',
      cty: 'JWT',
      kid: 'run-key-1',
    });
    const inner = new TextDecoder().decode((await compactDecrypt(r.body.access_token, privateKey)).plaintext);
    expect((await jwtVerify(inner, await jwks(), { audience: API })).protectedHeader.alg).toBe('RS256');

    await patch({ token_encryption: null });
    expect((await cc()).body.access_token.split('.')).toHaveLength(3);
  });

  test('a pem that is no usable public key: the token request → 500 server_error naming the setting', async () => {
    await start();
    const placeholder = '-----BEGIN PUBLIC KEY-----\r\nplaceholder\r\n-----END PUBLIC KEY-----';
    await patch({
      token_encryption: { format: 'compact-nested-jwe', encryption_key: { alg: 'RSA-OAEP-512', pem: placeholder } },
    });
    const r = await cc();
    expect([r.status, r.body.error]).toEqual([500, 'server_error']);
    expect(r.body.error_description).toContain('token_encryption');
  });
});

test.describe('proof_of_possession: dpop', () => {
  test('required: no proof → 400 invalid_request; a valid proof → token_type DPoP, cnf.jkt its thumbprint', async () => {
    await start();
    await patch({ proof_of_possession: { mechanism: 'dpop', required: true, required_for: 'all_clients' } });
    const none = await cc();
    expect([none.status, none.body.error]).toEqual([400, 'invalid_request']);
    const key = await proofKey();
    const r = await cc(FULL, {}, await proof(key));
    expect(r.status, r.text).toBe(200);
    expect(r.body.token_type).toBe('DPoP');
    expect(decodeJwt(r.body.access_token).cnf).toEqual({ jkt: await calculateJwkThumbprint(key.jwk, 'sha256') });
  });

  test('each fault of RFC 9449 §4.3 → 400 invalid_dpop_proof', async () => {
    await start();
    await patch({ proof_of_possession: { mechanism: 'dpop', required: true } });
    const key = await proofKey();
    const other = await proofKey();
    const now = Math.floor(Date.now() / 1000);
    const { privateKey: rsaPrivate, publicKey: rsaPublic } = await generateKeyPair('RS256', { extractable: true });
    const faults: Array<[string, () => Promise<{ dpop: string }>]> = [
      ['not a JWT', async () => ({ dpop: 'not-a-jwt' })],
      ['typ JWT', () => proof(key, { header: { typ: 'JWT' } })],
      ['no jwk', () => proof(key, { header: { jwk: undefined } })],
      ['signed by another key than its jwk', () => proof(key, { header: { jwk: other.jwk } })],
      [
        'a private key in its jwk',
        async () => {
          const jwk = await exportJWK(rsaPrivate);
          const dpop = await new SignJWT({
            jti: randomUUID(),
            htm: 'POST',
            htu: `${t.publicUrl}/oauth/token`,
            iat: now,
          })
            .setProtectedHeader({ alg: 'RS256', typ: 'dpop+jwt', jwk })
            .sign(rsaPrivate);
          return { dpop };
        },
      ],
      [
        'a MAC',
        async () => {
          const dpop = await new SignJWT({
            jti: randomUUID(),
            htm: 'POST',
            htu: `${t.publicUrl}/oauth/token`,
            iat: now,
          })
            .setProtectedHeader({ alg: 'HS256', typ: 'dpop+jwt', jwk: await exportJWK(rsaPublic) })
            .sign(new TextEncoder().encode('a-shared-secret-0123456789abcdef'));
          return { dpop };
        },
      ],
      ['htm GET', () => proof(key, { claims: { htm: 'GET' } })],
      ['htu another endpoint', () => proof(key, { claims: { htu: `${t.publicUrl}/oauth/revoke` } })],
      ['iat ten minutes old', () => proof(key, { claims: { iat: now - 600 } })],
      ['iat ten minutes ahead', () => proof(key, { claims: { iat: now + 600 } })],
      ['no jti', () => proof(key, { claims: { jti: undefined } })],
      ['two DPoP headers', async () => ({ dpop: `${(await proof(key)).dpop}, ${(await proof(key)).dpop}` })],
    ];
    for (const [what, make] of faults) {
      const r = await cc(FULL, {}, await make());
      expect([r.status, r.body.error], what).toEqual([400, 'invalid_dpop_proof']);
    }
    const once = await proof(key);
    expect((await cc(FULL, {}, once)).status).toBe(200);
    const replay = await cc(FULL, {}, once);
    expect([replay.status, replay.body.error], 'a replayed jti').toEqual([400, 'invalid_dpop_proof']);
  });

  test('required false: bound only when a proof comes', async () => {
    await start();
    await patch({ proof_of_possession: { mechanism: 'dpop', required: false } });
    const bearer = await cc();
    expect([bearer.body.token_type, decodeJwt(bearer.body.access_token).cnf]).toEqual(['Bearer', undefined]);
    const bound = await cc(FULL, {}, await proof(await proofKey()));
    expect(bound.body.token_type).toBe('DPoP');
  });

  test('required_for public_clients: the confidential client goes without; the public one must, and its refresh token is bound', async () => {
    await start();
    await patch({
      proof_of_possession: { mechanism: 'dpop', required: true, required_for: 'public_clients' },
      allow_offline_access: true,
    });
    expect((await cc()).body.token_type).toBe('Bearer');
    const refused = await exchange(await spaCode('openid offline_access read:things'));
    expect([refused.status, refused.body.error]).toEqual([400, 'invalid_request']);

    const key = await proofKey();
    const r = await exchange(await spaCode('openid offline_access read:things'), await proof(key));
    expect(r.status, r.text).toBe(200);
    expect(r.body.token_type).toBe('DPoP');
    const spa = { client_id: SPA.id };
    // RFC 9449 §5: the public client's refresh token needs a proof by the same key.
    expect((await refresh(spa, r.body.refresh_token)).body.error).toBe('invalid_dpop_proof');
    expect((await refresh(spa, r.body.refresh_token, await proof(await proofKey()))).body.error).toBe(
      'invalid_dpop_proof',
    );
    const again = await refresh(spa, r.body.refresh_token, await proof(key));
    expect([again.status, again.body.token_type]).toEqual([200, 'DPoP']);
  });

  test('implicit cannot carry a proof: a required one refuses it at /authorize', async () => {
    await start();
    await patch({ proof_of_possession: { mechanism: 'dpop', required: true } });
    expect((await implicit()).get('error')).toBe('invalid_request');
  });

  test('the nonce choice (RFC 9449 §8): use_dpop_nonce with a DPoP-Nonce first, then the proof with it passes', async () => {
    await withChoices({ dpopNonce: true });
    await patch({ proof_of_possession: { mechanism: 'dpop', required: true } });
    const key = await proofKey();
    const first = await cc(FULL, {}, await proof(key));
    expect([first.status, first.body.error]).toEqual([400, 'use_dpop_nonce']);
    const nonce = first.headers.get('dpop-nonce') ?? '';
    expect(nonce).not.toBe('');
    const second = await cc(FULL, {}, await proof(key, { claims: { nonce } }));
    expect([second.status, second.body.token_type]).toEqual([200, 'DPoP']);
  });
});

test.describe('proof_of_possession: mtls', () => {
  const certificate = readFileSync(DEV_MTLS_CERT_PATH, 'utf8');
  const edge = { 'cname-api-key': EDGE_API_KEY, 'client-certificate': encodeURIComponent(certificate) };

  test('required: none forwarded → 400 invalid_request; forwarded → cnf.x5t#S256 of the certificate', async () => {
    await start();
    await patch({ proof_of_possession: { mechanism: 'mtls', required: true } });
    const none = await cc(POST);
    expect([none.status, none.body.error]).toEqual([400, 'invalid_request']);
    const untrusted = await cc(POST, {}, { ...edge, 'cname-api-key': 'wrong' });
    expect(untrusted.status).toBe(400);
    const r = await cc(POST, {}, edge);
    expect(r.status, r.text).toBe(200);
    const der = Buffer.from(certificate.replace(/-----[^-]+-----|\s/g, ''), 'base64');
    expect(decodeJwt(r.body.access_token).cnf).toEqual({
      'x5t#S256': createHash('sha256').update(der).digest('base64url'),
    });
  });

  test('required false: unbound without a certificate', async () => {
    await start();
    await patch({ proof_of_possession: { mechanism: 'mtls', required: false } });
    const r = await cc(POST);
    expect([r.status, decodeJwt(r.body.access_token).cnf]).toEqual([200, undefined]);
  });
});

test.describe('subject_type_authorization', () => {
  test('client: deny_all → 403 access_denied for every client; require_client_grant → only a client holding a grant', async () => {
    await start();
    // Seeded: require_client_grant; the full client holds a grant, the Basic one none.
    expect((await cc()).status).toBe(200);
    const basic = await ccBasic();
    expect([basic.status, basic.body.error]).toEqual([403, 'access_denied']);
    await patch({ subject_type_authorization: { client: {} } });
    expect((await ccBasic()).status, 'no policy: allowed').toBe(200);
    await patch({ subject_type_authorization: { client: { policy: 'deny_all' } } });
    const denied = await cc();
    expect([denied.status, denied.body.error]).toEqual([403, 'access_denied']);
    // The user flows are another subject type.
    expect((await password('openid read:things')).status).toBe(200);
  });

  test('user: deny_all refuses the user flows, at the token endpoint and at /authorize; client credentials go on', async () => {
    await start();
    await patch({ subject_type_authorization: { user: { policy: 'deny_all' } } });
    const r = await password('openid read:things');
    expect([r.status, r.body.error]).toEqual([403, 'access_denied']);
    expect((await implicit()).get('error')).toBe('access_denied');
    expect((await cc()).status).toBe(200);
  });

  test('user: require_client_grant → the client with a grant passes, the public client without one is refused', async () => {
    await start();
    await patch({ subject_type_authorization: { user: { policy: 'require_client_grant' } } });
    expect((await password('openid read:things')).status).toBe(200);
    expect((await implicit()).get('error')).toBe('access_denied');
    await patch({ subject_type_authorization: { user: { policy: 'allow_all' } } });
    expect((await implicit()).get('access_token')).toBeTruthy();
  });
});

test.describe('allow_offline_access', () => {
  test('false (seeded): no refresh token, offline_access dropped; true: one; false again: the refresh is refused', async () => {
    await start();
    const none = await password('openid offline_access read:things');
    expect(none.body.refresh_token).toBeUndefined();
    expect(none.body.scope).toBe('openid read:things');
    await patch({ allow_offline_access: true });
    const some = await password('openid offline_access read:things');
    expect(typeof some.body.refresh_token).toBe('string');
    await patch({ allow_offline_access: false });
    const r = await refresh({ client_id: POST.id, client_secret: POST.secret }, some.body.refresh_token);
    expect([r.status, r.body.error]).toEqual([400, 'invalid_grant']);
  });

  test('the invalid_scope choice: offline_access asked → 400 invalid_scope', async () => {
    await withChoices({ offlineAccessDenied: 'refuse' });
    const r = await password('openid offline_access read:things');
    expect([r.status, r.body.error]).toEqual([400, 'invalid_scope']);
  });
});

test.describe('scopes', () => {
  test('a value the API does not define is dropped; the OpenID scopes stay; a scope removed from the API goes', async () => {
    await start();
    expect((await cc(FULL, { scope: 'read:things write:other' })).body.scope).toBe('read:things');
    expect((await password('openid email read:things write:other')).body.scope).toBe('openid email read:things');
    await patch({ scopes: [{ value: 'write:other' }] });
    expect((await password('openid read:things write:other')).body.scope).toBe('openid write:other');
    // The full client's grant names read:things only: the API no longer defines it.
    expect((await cc(FULL, { scope: 'read:things' })).body.scope).toBe('');
  });

  test('the invalid_scope choice: an undefined value → 400 invalid_scope; the defined ones pass', async () => {
    await withChoices({ undefinedScope: 'refuse' });
    const r = await cc(FULL, { scope: 'read:things write:other' });
    expect([r.status, r.body.error]).toEqual([400, 'invalid_scope']);
    expect((await password('openid read:things')).status).toBe(200);
  });
});

test.describe('other settings and choices', () => {
  test('extra claims (a choice): added to every custom-API token, never replacing the tenant’s', async () => {
    await withChoices({ extraClaims: { tenant_region: 'eu', iss: 'https://elsewhere.test/' } });
    const claims = decodeJwt((await cc()).body.access_token);
    expect(claims).toMatchObject({ tenant_region: 'eu', iss: `${t.publicUrl}/` });
  });

  test('skip_consent_for_verifiable_first_party_clients false: the consent page (in a profile that has one)', async () => {
    await start({ login: { consent: 'offline' } });
    await patch({ skip_consent_for_verifiable_first_party_clients: false });
    const to = await login({
      response_type: 'code',
      client_id: POST.id,
      redirect_uri: REDIRECT_URI,
      audience: API,
      scope: 'openid',
    });
    expect(to.pathname).toBe('/u/consent');
  });

  test('the management API keeps its own tokens whatever the custom API says', async () => {
    await start();
    await patch({ signing_alg: 'HS256', token_lifetime: 60, token_dialect: 'rfc9068_profile' });
    const token = await c.accessToken();
    expect(decodeProtectedHeader(token)).toMatchObject({ alg: 'RS256', typ: 'JWT' });
    const claims = decodeJwt(token);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(86400);
  });
});
