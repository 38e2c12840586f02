// The reference tenant, as the embedded default target, holds the bar the suite sets for a
// staging tenant: a bounded fuzz of hostile input gets an answer, never a 5xx, and the
// tenant's memory does not grow with it (the rate-limit bucket map is pruned).
import { connect } from 'node:net';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { MAX_BUCKETS, tokenBucketLimiter, type BoundedRateLimiter } from '../src/ratelimit.ts';
import { NO_THROTTLE, tenant, type Client } from './helpers.ts';
import type { RunningTenant } from '../src/index.ts';

const RS = '/api/v2/resource-servers/rs_conformance';
const SEED = 20261123;

let t: RunningTenant;
let c: Client;
let token: string;
/** The tenant's own limiter, small enough that the bound is reached within the test. */
let limiter: BoundedRateLimiter;
const SMALL_BOUND = 64;

test.beforeAll(async () => {
  limiter = tokenBucketLimiter(NO_THROTTLE, SMALL_BOUND);
  ({ t, c } = await tenant({ parts: { rateLimiter: limiter } }));
  token = await c.accessToken();
});
test.afterAll(async () => t?.close());

const auth = () => ({ authorization: `Bearer ${token}` });

/** Every answer is a 2xx or 4xx: a 5xx (or no answer) is the tenant's fault. */
function noServerError(status: number, what: string): void {
  expect(status, what).toBeGreaterThanOrEqual(200);
  expect(status, what).toBeLessThan(500);
}

test('malformed JSON bodies on both operations and the token endpoint: 4xx, never 5xx', async () => {
  const texts = fc.sample(
    fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.json().map((j) => j.slice(0, Math.max(1, j.length - 1))), // truncated
      fc.json().map((j) => `${j}}`),
      fc.constantFrom(
        '{',
        '{"name":',
        '{"name":"x",}',
        '[1,2',
        '{"a":1e999999}',
        '{"__proto__":{"x":1}}',
        '{"constructor":{"prototype":{}}}',
        'null',
        '"str"',
        '\u0000',
        '{"name":"\\ud800"}',
      ),
    ),
    { numRuns: 120, seed: SEED },
  );
  for (const body of texts) {
    for (const path of [RS, '/api/v2/experimentation/experiments']) {
      const method = path === RS ? 'PATCH' : 'POST';
      const r = await c.send(method, path, { headers: { ...auth(), 'content-type': 'application/json' }, body });
      noServerError(r.status, `${method} ${path} ${JSON.stringify(body).slice(0, 80)}`);
    }
    const tok = await c.send('POST', '/oauth/token', { headers: { 'content-type': 'application/json' }, body });
    noServerError(tok.status, `token ${JSON.stringify(body).slice(0, 80)}`);
  }
});

test('deeply nested JSON, in a JSON body and inside a form field: 4xx, never 5xx', async () => {
  for (const depth of [33, 1000, 20_000]) {
    for (const [open, close] of [
      ['[', ']'],
      ['{"a":', '}'],
    ] as const) {
      const nested = open.repeat(depth) + '1' + close.repeat(depth);
      const asJson = await c.send('PATCH', RS, {
        headers: { ...auth(), 'content-type': 'application/json' },
        body: `{"authorization_details":${nested}}`,
      });
      noServerError(asJson.status, `JSON depth ${depth}`);
      const asForm = await c.send('PATCH', RS, {
        headers: { ...auth(), 'content-type': 'application/x-www-form-urlencoded' },
        body: `authorization_details=${encodeURIComponent(nested)}`,
      });
      noServerError(asForm.status, `form depth ${depth}`);
    }
  }
});

test('invalid UTF-8 in bodies, paths and headers: 4xx, never 5xx', async () => {
  const bad = [
    Buffer.from([0xff, 0xfe]),
    Buffer.from([0xc3, 0x28]),
    Buffer.from([0xed, 0xa0, 0x80]),
    Buffer.from([0xf4, 0x90, 0x80, 0x80]),
  ];
  for (const b of bad) {
    for (const ct of ['application/json', 'application/x-www-form-urlencoded']) {
      const body = Buffer.concat([Buffer.from('{"name":"'), b, Buffer.from('"}')]);
      noServerError(
        (await c.send('PATCH', RS, { headers: { ...auth(), 'content-type': ct }, body })).status,
        `body ${b.toString('hex')} as ${ct}`,
      );
      noServerError(
        (await c.send('POST', '/oauth/token', { headers: { 'content-type': ct }, body })).status,
        `token body ${b.toString('hex')}`,
      );
    }
  }
  // Raw bytes on the wire: fetch would percent-encode the path and refuse the header.
  for (const raw of [
    '/api/v2/resource-servers/%ff%fe',
    '/api/v2/resource-servers/%C3%28',
    '/api/v2/resource-servers/\xff',
  ]) {
    const status = await rawRequest(
      `PATCH ${raw} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`,
    );
    noServerError(status, `path ${JSON.stringify(raw)}`);
  }
  const hdr = await rawRequest(
    `PATCH ${RS} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer \xff\xfe\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`,
  );
  noServerError(hdr, 'authorization header with invalid UTF-8');
});

test('oversized bodies and headers: 413 / 431 / 4xx, never 5xx, and the tenant still answers', async () => {
  for (const size of [64 * 1024 + 1, 1024 * 1024, 8 * 1024 * 1024]) {
    const body = `{"name":"${'x'.repeat(size)}"}`;
    noServerError(
      (await sendOrCut('PATCH', RS, { ...auth(), 'content-type': 'application/json' }, body)) ?? 413,
      `body of ${size} bytes`,
    );
    noServerError(
      (await sendOrCut(
        'POST',
        '/oauth/token',
        { 'content-type': 'application/x-www-form-urlencoded' },
        `client_id=${'y'.repeat(size)}`,
      )) ?? 413,
      `token body of ${size} bytes`,
    );
  }
  for (const size of [8 * 1024, 20 * 1024, 100 * 1024]) {
    const status = await rawRequest(
      `PATCH ${RS} HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token}\r\nx-big: ${'h'.repeat(size)}\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`,
    );
    noServerError(status, `a header of ${size} bytes`);
  }
  const many = Array.from({ length: 3000 }, (_, i) => `x-h${i}: v`).join('\r\n');
  noServerError(
    await rawRequest(`PATCH ${RS} HTTP/1.1\r\nhost: x\r\n${many}\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}`),
    '3000 headers',
  );
  expect((await c.patchJson('rs_conformance', {}, token)).status).toBeLessThan(300);
});

test('many distinct client ids: no 5xx, and the bucket map stays bounded', async () => {
  for (let i = 0; i < 4 * SMALL_BOUND; i++) {
    const tok = await c.token({
      grant_type: 'client_credentials',
      client_id: `fuzz-client-${i}`,
      client_secret: 'nope',
      audience: `${t.publicUrl}/api/v2/`,
    });
    noServerError(tok.status, `client ${i}`);
    const forged = await c.send('PATCH', RS, {
      headers: { authorization: `Bearer forged.${i}.x`, 'content-type': 'application/json' },
      body: '{}',
    });
    noServerError(forged.status, `forged token ${i}`);
  }
  expect(limiter.size()).toBeLessThanOrEqual(SMALL_BOUND);
  // The real client still gets through and is still limited by its own bucket.
  expect((await c.patchJson('rs_conformance', {}, token)).status).toBeLessThan(300);
});

test('the limiter at its default bound: 50 000 invented keys keep it at MAX_BUCKETS; an active bucket keeps its count', () => {
  const l = tokenBucketLimiter({ capacity: 10, refillPerSecond: 1 });
  const now = 1_000_000;
  for (let i = 0; i < 5; i++) l.take('honest', now);
  for (let i = 0; i < 50_000; i++) {
    l.take(`invented-${i}`, now);
    if (i % 1000 === 0) l.take('honest', now); // in use: recently used, never the one evicted
  }
  expect(l.size()).toBeLessThanOrEqual(MAX_BUCKETS);
  expect(l.take('honest', now).remaining, 'the honest client was not handed a fresh bucket').toBeLessThan(10 - 5 - 1);
  // Refilled buckets are dropped at the next sweep: after a quiet minute, the map empties.
  const later = now + 60_000;
  for (let i = 0; i <= MAX_BUCKETS; i++) l.take(`late-${i}`, later);
  expect(l.size()).toBeLessThanOrEqual(MAX_BUCKETS);
});

// Helpers

/** A request written byte for byte; the status of the answer, or 0 when the tenant cut the connection without one. */
function rawRequest(text: string): Promise<number> {
  return new Promise((resolve) => {
    const socket = connect(t.port, '127.0.0.1');
    let data = '';
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on('data', (d) => (data += d.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0)));
    // Written without a half-close: Node's server drops a pending answer to a client that sent FIN.
    socket.write(Buffer.from(text, 'latin1'));
  });
}

/** fetch, where a tenant that cuts the upload after answering 413 counts as that answer (null). */
async function sendOrCut(
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string,
): Promise<number | null> {
  try {
    return (await c.send(method, path, { headers, body })).status;
  } catch {
    return null;
  }
}
