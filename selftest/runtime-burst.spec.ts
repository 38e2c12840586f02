// The bounded burst (lib/burst.ts) ends on its first 429, its request bound or its time bound,
// and says which; a bound reached without a 429 is the tenant's, the same on any machine; a
// bucket that refills faster than four requests in flight can spend still gets drained.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { burst, burstUnbreached } from '../lib/burst.ts';

let server: Server;
let origin = '';
/** /refilling: a token bucket of 10 refilling 400 a second, each answer 50 ms late (at most 80/s with four in flight). */
const bucket = { tokens: 10, at: Date.now() };
let resets = 0;
test.beforeAll(async () => {
  let served = 0;
  server = createServer((req, res) => {
    served++;
    const mode = new URL(req.url ?? '/', 'http://x').pathname;
    if (mode === '/refilling') {
      const now = Date.now();
      bucket.tokens = Math.min(10, bucket.tokens + ((now - bucket.at) / 1000) * 400);
      bucket.at = now;
      const allowed = bucket.tokens >= 1;
      if (allowed) bucket.tokens -= 1;
      const headers = { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': String(Math.floor(bucket.tokens)) };
      setTimeout(() => res.writeHead(allowed ? 200 : 429, headers).end('{}'), 50);
      return;
    }
    if (mode === '/hang') return; // never answered
    // The seventh request's connection reset, once: a stumble under load.
    if (mode === '/reset-once' && ++resets === 7) {
      req.socket.destroy();
      return;
    }
    const answer = () => {
      if (mode === '/limited' && served % 1000 > 5) res.writeHead(429).end('{}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    };
    if (mode === '/slow') setTimeout(answer, 40);
    else answer();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((ok) => server.close(() => ok())));

const at = (path: string, max: number, budgetMs: number) =>
  burst({ url: `${origin}${path}`, method: 'POST', headers: {}, max, budgetMs, timeoutMs: 5000 });

test('a burst says which bound ended it: its 429, the request bound or the time bound', async () => {
  const limited = await at('/limited', 1000, 30_000);
  expect(limited.endedBy).toBe('429');
  expect(limited.first429?.status).toBe(429);

  const fast = await at('/open', 12, 30_000);
  expect(fast).toMatchObject({ endedBy: 'requests', sent: 12, first429: null });

  const slow = await at('/slow', 1000, 300);
  expect(slow.endedBy).toBe('time');
  expect(slow.sent).toBeLessThan(1000);
});

test('no 429 within a bound is the tenant’s, named with the bound that ended the burst', async () => {
  const byRequests = burstUnbreached(await at('/open', 12, 30_000), 'token requests');
  expect(byRequests).toMatchObject({ by: 'tenant', cause: { answer: 'accepted' } });
  expect(byRequests.text).toMatch(
    /^no 429 after 12 token requests, [^(]*\(the request bound \(12\) ended it in \d+ ms\)/,
  );
  const byTime = burstUnbreached(await at('/slow', 1000, 300), 'updates');
  // The same record whatever the machine's speed: only the words differ.
  expect({ ...byTime, text: '' }).toEqual({ ...byRequests, text: '' });
  expect(byTime.text).toMatch(/\(the time bound \(\d+ s\) ended it\)/);
});

test('a bucket that refills faster than four in flight can spend: more go in flight until it drains', async () => {
  const r = await burst({
    url: `${origin}/refilling`,
    method: 'POST',
    headers: {},
    max: 1000,
    boundByLimit: true,
    budgetMs: 30_000,
    timeoutMs: 5000,
  });
  expect(r.endedBy).toBe('429');
  expect(r.inFlight).toBeGreaterThan(4);
  // The bound grew a bucket's worth for each doubling, never past `max`.
  expect(r.max).toBeGreaterThan(3 * 10 + 50);
});

test('no Remaining, no ramp; a request left unanswered ends the burst as the run’s one cause', async () => {
  const open = await at('/open', 100, 30_000);
  expect(open).toMatchObject({ endedBy: 'requests', inFlight: 4 });
  const hang = await burst({ url: `${origin}/hang`, method: 'POST', headers: {}, max: 50, timeoutMs: 300 });
  expect(hang).toMatchObject({ endedBy: 'no-answer', first: null });
  // Sent once more before it counts: the same request lost twice.
  expect(hang.sent).toBe(2);
  const cause = burstUnbreached(hang, 'updates');
  expect(cause).toMatchObject({ by: 'run', cause: { answer: 'no-answer' } });
  expect(cause.text).toContain('sent twice');
});

test('one connection reset in a burst is sent again and the burst goes on: the same verdict as without it', async () => {
  const r = await at('/reset-once', 20, 30_000);
  expect(resets).toBeGreaterThanOrEqual(7);
  expect(r).toMatchObject({ endedBy: 'requests', unanswered: null, sent: 20 });
  expect(r.statuses).toHaveLength(19);
  expect(burstUnbreached(r, 'updates')).toMatchObject({ by: 'tenant', cause: { answer: 'accepted' } });
});
