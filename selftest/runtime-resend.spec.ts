// A staging tenant stumbles: a 502, 503 or 504 during a deploy is sent again once, after the
// Retry-After it asks for (bounded), where sending it again cannot change the outcome; an answer
// that stays a 5xx is what the test sees. What was sent again is said (the `resent` annotation).
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ApiClient, resendable, retryPause, type Resent } from '../lib/http.ts';
import { Pacer } from '../lib/pacer.ts';

const API = 'https://tenant.example/api/v2';

test('what may be sent again: idempotent methods and the management update always, a management creation after a 503 only', () => {
  const at = (m: string, url: string) => resendable(m, url, API);
  expect(at('GET', 'https://tenant.example/userinfo')).toMatchObject({ unanswered: true });
  expect(at('GET', 'https://tenant.example/userinfo').passing(502)).toBe(true);
  expect(at('PATCH', `${API}/resource-servers/rs_1`).passing(504)).toBe(true);
  expect(at('PATCH', `${API}/resource-servers/rs_1`).unanswered).toBe(true);
  // A creation may have been made when a gateway gave up on it; a 503 says it was not handled.
  expect(at('POST', `${API}/experimentation/experiments`).passing(503)).toBe(true);
  expect(at('POST', `${API}/experimentation/experiments`).passing(502)).toBe(false);
  expect(at('POST', `${API}/experimentation/experiments`).unanswered).toBe(false);
  // The authentication API's POSTs (a code exchange, a refresh) are never sent twice.
  expect(at('POST', 'https://tenant.example/oauth/token').passing(503)).toBe(false);
  expect(at('GET', 'https://tenant.example/userinfo').passing(500)).toBe(false);
});

test('the pause before the one resend: Retry-After in seconds or as a date, at most 10 s', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');
  expect(retryPause('1', now)).toBe(1000);
  expect(retryPause('3600', now)).toBe(10_000);
  expect(retryPause('Sat, 28 Nov 2026 12:00:03 GMT', now)).toBe(3000);
  expect(retryPause('Sat, 28 Nov 2026 11:00:00 GMT', now)).toBe(0);
  expect(retryPause(undefined, now)).toBe(1000);
  expect(retryPause('soon', now)).toBe(1000);
});

test.describe('against a tenant that answers 503 once', () => {
  let server: Server;
  let base = '';
  const seen: string[] = [];
  test.beforeAll(async () => {
    let n = 0;
    server = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      // Every other request is a 503 (with Retry-After: 0 on the first path), then the answer.
      if (n++ % 2 === 0) {
        res.writeHead(req.url?.includes('500') ? 500 : 503, { 'retry-after': '0', 'content-type': 'application/json' });
        return res.end('{"error":"unavailable"}');
      }
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end('{"id":"rs_1"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    base = `http://127.0.0.1:${port}/api/v2`;
  });
  test.afterAll(() => new Promise<void>((r) => server.close(() => r())));

  function client(resent: Resent[]): ApiClient {
    return new ApiClient({
      name: 'full',
      token: 't',
      apiBase: base,
      timeoutMs: 2000,
      pacer: new Pacer(mkdtempSync(join(tmpdir(), 'idm-selftest-resend-')), 0),
      counter: { sent: 0, throttled: 0, waitedMs: 0 },
      onResent: (r) => resent.push(r),
    });
  }

  test('a PATCH answered 503 is sent again and its second answer is the one seen', async () => {
    const resent: Resent[] = [];
    const ex = await client(resent).patch('/resource-servers/rs_1', { data: { name: 'x' } });
    expect(ex.status).toBe(201);
    expect(resent).toEqual([{ method: 'PATCH', target: `${base}/resource-servers/rs_1`, status: 503, waitedMs: 0 }]);
  });

  test('a 500 is a fault, never sent again', async () => {
    const resent: Resent[] = [];
    const ex = await client(resent).patch('/resource-servers/rs_500', { data: {} });
    expect(ex.status).toBe(500);
    expect(resent).toEqual([]);
  });
});
