// Unparseable HTTP pipelined behind a request still being answered: the client reads that
// answer first, whole, then the 400 — never a 400 that overtakes it or cuts into it.
import { expect, test } from '@playwright/test';
import net from 'node:net';
import { startTenant, type RunningTenant } from '../src/index.ts';
import { NO_THROTTLE } from './helpers.ts';

let t: RunningTenant;
test.beforeAll(async () => {
  // The first answer is slow, so the malformed request behind it is parsed while it is pending.
  t = await startTenant({
    rateLimit: NO_THROTTLE,
    wrap: (next) => async (req) => {
      const res = await next(req);
      await new Promise((r) => setTimeout(r, 150));
      return res;
    },
  });
});
test.afterAll(async () => t.close());

test('a malformed request behind a pending one: its answer first, then the 400', async () => {
  const raw: string = await new Promise((resolve, reject) => {
    const s = net.connect(t.port, '127.0.0.1', () =>
      s.write('GET /.well-known/jwks.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nNOT HTTP AT ALL\r\n\r\n'),
    );
    let data = '';
    s.on('data', (c) => (data += c));
    s.on('error', reject);
    s.on('close', () => resolve(data));
  });
  const first = raw.indexOf('HTTP/1.1 200');
  const second = raw.indexOf('HTTP/1.1 400');
  expect(first, raw.slice(0, 200)).toBe(0);
  expect(second).toBeGreaterThan(first);
  // The 200's content is whole before the 400 begins.
  const length = Number(/content-length: (\d+)/i.exec(raw)?.[1]);
  const bodyStart = raw.indexOf('\r\n\r\n') + 4;
  expect(second).toBe(bodyStart + length);
  // The whole key set: one signing key per algorithm the tenant signs with, RS256 first.
  expect(JSON.parse(raw.slice(bodyStart, bodyStart + length)).keys.map((k: { alg: string }) => k.alg)).toEqual([
    'RS256',
    'RS512',
    'PS256',
  ]);
  // The 400 is the last thing on the connection: a header block without content.
  expect(raw.slice(second)).toBe('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
});
