// Management API authorization: 401 for every bad token, 403 naming the missing scope (§5.1, §7.1).
import { test, expect } from '@playwright/test';
import { SignJWT, generateKeyPair } from 'jose';
import { FULL, LIMITED, RS_CONFORMANCE_IDENTIFIER, tenant, type Client } from './helpers.ts';
import type { RunningTenant } from '../src/index.ts';

let t: RunningTenant;
let c: Client;
let clockShiftMs = 0;
test.beforeAll(async () => ({ t, c } = await tenant({ parts: { now: () => Date.now() + clockShiftMs } })));
test.afterAll(async () => t.close());

const operations = [
  {
    title: 'PATCH resource server',
    method: 'PATCH',
    path: '/api/v2/resource-servers/rs_conformance',
    body: { name: 'Auth probe' },
    scope: 'update:resource_servers',
  },
  {
    title: 'POST experiment',
    method: 'POST',
    path: '/api/v2/experimentation/experiments',
    scope: 'create:experimentation',
    body: {
      name: 'Auth probe',
      feature_flag_id: 'flg_7Hq2kPzR',
      allocations: [{ variation_id: 'var_control', weight: 100 }],
    },
  },
];

for (const op of operations) {
  test.describe(op.title, () => {
    const call = (authorization?: string) =>
      c.send(op.method, op.path, {
        headers: { 'content-type': 'application/json', ...(authorization === undefined ? {} : { authorization }) },
        body: JSON.stringify(op.body),
      });

    const expect401 = async (authorization: string | undefined) => {
      const r = await call(authorization);
      expect(r.status).toBe(401);
      expect(r.body).toMatchObject({ statusCode: 401, error: 'Unauthorized', errorCode: 'invalid_token' });
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer /);
    };

    test('no Authorization header → 401', async () => expect401(undefined));
    test('malformed Authorization headers → 401', async () => {
      for (const h of ['Bearer', 'Bearer ', 'Token abc', 'Basic Zm9vOmJhcg==', 'Bearer a b', 'bearer'])
        await expect401(h);
    });
    test('a token that is not a JWT → 401', async () => expect401('Bearer not-a-jwt'));
    test('a token with a tampered payload (signature no longer matches) → 401', async () => {
      const good = await c.accessToken();
      const [h, p, s] = good.split('.');
      const claims = JSON.parse(Buffer.from(p ?? '', 'base64url').toString());
      claims.scope += ' extra:scope';
      await expect401(`Bearer ${h}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${s}`);
    });
    test('a token signed by another key → 401', async () => {
      const { privateKey } = await generateKeyPair('RS256');
      const forged = await new SignJWT({ scope: op.scope, azp: FULL.id })
        .setProtectedHeader({ alg: 'RS256' })
        .setIssuer(`${t.publicUrl}/`)
        .setAudience(`${t.publicUrl}/api/v2/`)
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(privateKey);
      await expect401(`Bearer ${forged}`);
    });
    test('an unsigned (alg none) token → 401', async () => {
      const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
      const now = Math.floor(Date.now() / 1000);
      await expect401(
        `Bearer ${enc({ alg: 'none' })}.${enc({ iss: `${t.publicUrl}/`, aud: `${t.publicUrl}/api/v2/`, scope: op.scope, exp: now + 60 })}.`,
      );
    });
    test('an expired token → 401', async () => {
      const token = await c.accessToken();
      clockShiftMs = 2 * 86400 * 1000;
      try {
        await expect401(`Bearer ${token}`);
      } finally {
        clockShiftMs = 0;
      }
    });
    test('a token for another audience → 401', async () => {
      await expect401(`Bearer ${await c.accessToken(FULL, RS_CONFORMANCE_IDENTIFIER)}`);
    });
    test(`a token without ${op.scope} → 403 naming the scope`, async () => {
      const r = await call(`Bearer ${await c.accessToken(LIMITED)}`);
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ statusCode: 403, error: 'Forbidden', errorCode: 'insufficient_scope' });
      expect(r.body.message).toContain(op.scope);
    });
    test('a valid token with the scope → 201', async () => {
      const r = await call(`Bearer ${await c.accessToken()}`);
      expect(r.status).toBe(201);
    });
  });
}

test('auth is checked before the body: a bad body without a token is 401, not 400', async () => {
  const r = await c.send('PATCH', '/api/v2/resource-servers/rs_conformance', {
    headers: { 'content-type': 'application/json' },
    body: '{',
  });
  expect(r.status).toBe(401);
});
