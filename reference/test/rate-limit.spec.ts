// Rate limiting (§7.1 429, §7.3, §8): token bucket per client and endpoint, X-RateLimit-* headers.
// The clock is the tenant's `now` part, frozen here, so no assertion depends on timing.
import { test, expect } from '@playwright/test';
import { FULL, LIMITED, tenant, type Client } from './helpers.ts';
import { DEFAULT_RATE_LIMIT, type RunningTenant } from '../src/index.ts';

let clock = Date.UTC(2030, 0, 1);
const frozen = { parts: { now: () => clock } };

test.describe('a tight limit (capacity 5, refill 1/s)', () => {
  let t: RunningTenant;
  let c: Client;
  let full: string;
  let limited: string;
  test.beforeAll(async () => {
    ({ t, c } = await tenant({ ...frozen, rateLimit: { capacity: 5, refillPerSecond: 1 } }));
    full = await c.accessToken(FULL);
    limited = await c.accessToken(LIMITED);
  });
  test.afterAll(async () => t.close());

  const patch = (token: string) => c.patchJson('rs_conformance', {}, token);

  test('the 6th request in the same second is 429 with the three headers; other buckets are untouched', async () => {
    const remaining: number[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await patch(full);
      expect(r.status).toBe(201);
      expect(r.headers.get('x-ratelimit-limit')).toBe('5');
      remaining.push(Number(r.headers.get('x-ratelimit-remaining')));
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const over = await patch(full);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ statusCode: 429, errorCode: 'too_many_requests' });
    expect(over.body.message).toContain('X-RateLimit-Reset');
    expect(over.headers.get('x-ratelimit-limit')).toBe('5');
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(over.headers.get('x-ratelimit-reset'))).toBe(Math.ceil(clock / 1000) + 5);
    expect(over.headers.get('retry-after')).toBe('1');

    // Another endpoint for the same client, and the same endpoint for another client, have their own buckets.
    const exp = await c.createExperiment(
      {
        name: 'Other bucket',
        feature_flag_id: 'flg_7Hq2kPzR',
        allocations: [{ variation_id: 'var_control', weight: 100 }],
      },
      full,
    );
    expect(exp.status).toBe(201);
    expect((await patch(limited)).status).toBe(403);

    // One second later one request is allowed again.
    clock += 1000;
    expect((await patch(full)).status).toBe(201);
    expect((await patch(full)).status).toBe(429);
  });

  test('the token endpoint is limited per client, with OAuth-shaped 429', async () => {
    const params = {
      grant_type: 'client_credentials',
      client_id: LIMITED.id,
      client_secret: 'wrong-secret-0000',
      audience: `${t.publicUrl}/api/v2/`,
    };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await c.token(params)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
    const over = await c.token(params);
    expect(over.body.error).toBe('too_many_requests');
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
  });
});

test('defaults: a burst reaches 429 within 100 requests (clock frozen)', async () => {
  expect(DEFAULT_RATE_LIMIT).toMatchObject({ capacity: 50, refillPerSecond: 100 });
  const { t, c } = await tenant({ ...frozen, rateLimit: DEFAULT_RATE_LIMIT });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 100; i++) statuses.push((await c.send('GET', '/.well-known/jwks.json')).status);
    expect(statuses.indexOf(429)).toBe(50);
  } finally {
    await t.close();
  }
});

test('defaults: a client pacing on the headers is never throttled', async () => {
  const { t, c } = await tenant({ ...frozen, rateLimit: DEFAULT_RATE_LIMIT });
  try {
    for (let i = 0; i < 300; i++) {
      const r = await c.send('GET', '/.well-known/openid-configuration');
      expect(r.status).toBe(200);
      // Pacing: when nothing remains, wait (here: move the clock) until one request refills.
      if (r.headers.get('x-ratelimit-remaining') === '0') clock += 1000 / DEFAULT_RATE_LIMIT.refillPerSecond;
    }
  } finally {
    await t.close();
  }
});

test('defaults differ per endpoint (§8): updates allow 30 at once, the token endpoint 20, the others 50', async () => {
  const { t, c } = await tenant({ ...frozen, rateLimit: DEFAULT_RATE_LIMIT });
  try {
    const full = await c.accessToken(FULL);
    const update = await c.patchJson('rs_conformance', {}, full);
    expect(update.headers.get('x-ratelimit-limit')).toBe('30');
    const jwks = await c.send('GET', '/.well-known/jwks.json');
    expect(jwks.headers.get('x-ratelimit-limit')).toBe('50');
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++)
      statuses.push((await c.token({ grant_type: 'client_credentials', client_id: 'nobody' })).status);
    expect(statuses.indexOf(429)).toBe(20);
  } finally {
    await t.close();
  }
});
