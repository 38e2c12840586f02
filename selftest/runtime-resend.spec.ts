// A staging tenant stumbles: a 502, 503 or 504 during a deploy is sent again while it lasts, after
// the Retry-After it asks for or a back-off, where sending it again cannot change the outcome,
// within a bound per request and one per run; an answer that stays a 5xx past them is what the
// test sees. What was sent again is said (the `resent` annotation).
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { ApiClient, resendable, retryPause, type Resent } from '../lib/http.ts';
import { Pacer } from '../lib/pacer.ts';
import { RunWaits } from '../lib/resend-bounds.ts';
import type { ConformanceReport } from '../reporters/model.ts';
import { resentLine } from '../reporters/summary.ts';

const API = 'https://tenant.example/api/v2';

test('what may be sent again: idempotent methods, the management update and a client-credentials token request always, a management creation after a 503 only', () => {
  const at = (m: string, url: string, data?: unknown) => resendable(m, url, API, data);
  expect(at('GET', 'https://tenant.example/userinfo')).toMatchObject({ unanswered: true });
  expect(at('GET', 'https://tenant.example/userinfo').passing(502)).toBe(true);
  expect(at('PATCH', `${API}/resource-servers/rs_1`).passing(504)).toBe(true);
  expect(at('PATCH', `${API}/resource-servers/rs_1`).unanswered).toBe(true);
  // A creation may have been made when a gateway gave up on it; a 503 says it was not handled.
  expect(at('POST', `${API}/experimentation/experiments`).passing(503)).toBe(true);
  expect(at('POST', `${API}/experimentation/experiments`).passing(502)).toBe(false);
  expect(at('POST', `${API}/experimentation/experiments`).unanswered).toBe(false);
  // A client-credentials token request gets a new token either way; one with a client assertion
  // only after a 503 (its jti may have been spent by a request that was handled).
  const token = 'https://tenant.example/oauth/token';
  const cc = { grant_type: 'client_credentials', client_id: 'c', client_secret: 's' };
  expect(at('POST', token, cc).passing(502)).toBe(true);
  expect(at('POST', token, cc).unanswered).toBe(true);
  const asserted = { grant_type: 'client_credentials', client_assertion: 'eyJ.x.y' };
  expect(at('POST', token, asserted).passing(503)).toBe(true);
  expect(at('POST', token, asserted).passing(504)).toBe(false);
  expect(at('POST', token, asserted).unanswered).toBe(false);
  // The authentication API's other POSTs (a code exchange, a refresh) are never sent twice.
  expect(at('POST', token).passing(503)).toBe(false);
  expect(at('POST', token, { grant_type: 'authorization_code', code: 'x' }).passing(503)).toBe(false);
  expect(at('POST', token, { grant_type: 'refresh_token', refresh_token: 'x' }).passing(503)).toBe(false);
  expect(at('GET', 'https://tenant.example/userinfo').passing(500)).toBe(false);
});

test('the pause before each resend: Retry-After in seconds or as a date, at most 10 s; else 1, 2, 4, 8 s', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');
  expect(retryPause('1', 0, now)).toBe(1000);
  expect(retryPause('1', 5, now)).toBe(1000);
  expect(retryPause('3600', 0, now)).toBe(10_000);
  expect(retryPause('Sat, 28 Nov 2026 12:00:03 GMT', 0, now)).toBe(3000);
  expect(retryPause('Sat, 28 Nov 2026 11:00:00 GMT', 0, now)).toBe(0);
  expect([0, 1, 2, 3, 4, 9].map((n) => retryPause(undefined, n, now))).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
  expect(retryPause('soon', 1, now)).toBe(2000);
});

test('the run bound is shared through one file: the processes together never wait past it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'idm-selftest-run-waits-'));
  const a = new RunWaits(1000, dir);
  const b = new RunWaits(1000, dir);
  expect(a.take(600)).toBe(600);
  expect(b.take(600)).toBe(400);
  expect(a.take(100)).toBe(0);
  const alone = new RunWaits(500, null);
  expect([alone.take(300), alone.take(300), alone.take(300)]).toEqual([300, 200, 0]);
});

test('the report says how many requests were sent again, how often, how long the run waited, and what stayed', () => {
  const at = { method: 'PATCH', target: `${API}/resource-servers/rs_1`, test: 't' };
  const report = (resent: unknown[]) => ({ run: { resent } }) as unknown as ConformanceReport;
  expect(resentLine(report([]))).toBeNull();
  expect(
    resentLine(
      report([
        { ...at, status: 503, resends: 4, waitedMs: 4000, final: 200 },
        { ...at, status: 502, resends: 1, waitedMs: 1000, final: 200 },
        { ...at, status: 503, resends: 0, waitedMs: 0, final: 503, spent: 'IDM_RESEND_RUN_S' },
      ]),
    ),
  ).toBe(
    'Sent again: 2 of 3 request(s) the target answered 2× 503, 1× 502, 5 resend(s) in all; the run waited 5.0 s for the target (lib/http.ts, IDM_RESEND_WINDOW_S, IDM_RESEND_RUN_S); 1 still a 5xx when the bound was spent (IDM_RESEND_RUN_S): a fault',
  );
});

test.describe('against a tenant that is deploying', () => {
  let server: Server;
  let base = '';
  /** Until when each path answers 503 (from its first request), or a status it answers for ever. */
  const deploys: Record<string, number> = {};
  test.beforeAll(async () => {
    server = createServer((req, res) => {
      const path = req.url ?? '';
      const forever = /\/(50\d)$/.exec(path)?.[1];
      const until = (deploys[path] ??= Date.now() + Number(/deploy-(\d+)/.exec(path)?.[1] ?? 0));
      if (forever || Date.now() < until) {
        res.writeHead(Number(forever ?? 503), { 'retry-after': '0', 'content-type': 'application/json' });
        return res.end('{"error":"unavailable"}');
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"id":"rs_1"}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    base = `http://127.0.0.1:${port}/api/v2`;
  });
  test.afterAll(() => new Promise<void>((r) => server.close(() => r())));

  function client(resent: Resent[], requestMs: number, run = new RunWaits(60_000, null)) {
    const counter = { sent: 0, throttled: 0, waitedMs: 0 };
    const api = new ApiClient({
      name: 'full',
      token: 't',
      apiBase: base,
      timeoutMs: 2000,
      pacer: new Pacer(mkdtempSync(join(tmpdir(), 'idm-selftest-resend-')), 0),
      counter,
      resend: { requestMs, run },
      onResent: (r) => resent.push(r),
    });
    return { api, counter };
  }

  /** The record of a request to the path answering `status` for ever. */
  const stayed = (method: string, status: string, o: Pick<Resent, 'resends' | 'waitedMs' | 'spent'>): Resent => ({
    method,
    target: `${base}/resource-servers/${status}`,
    status: Number(status),
    final: Number(status),
    ...o,
  });

  test('a PATCH answered 503 for a while is sent again until it passes: one exchange, the waits said', async () => {
    const resent: Resent[] = [];
    const seen: number[] = [];
    const { api, counter } = client(resent, 5000);
    api.opts.onExchange = (ex) => seen.push(ex.status);
    const ex = await api.patch('/resource-servers/deploy-700', { data: { name: 'x' } });
    expect(ex.status).toBe(200);
    expect(seen, 'the test sees the answer alone').toEqual([200]);
    const [r] = resent;
    expect(resent).toHaveLength(1);
    // Retry-After: 0 is waited at least 100 ms apart: 700 ms of deploy takes several resends.
    expect(r).toMatchObject({
      method: 'PATCH',
      target: `${base}/resource-servers/deploy-700`,
      status: 503,
      final: 200,
    });
    expect(r!.resends).toBeGreaterThanOrEqual(3);
    expect(r!.waitedMs).toBe(100 * r!.resends);
    expect(r!.spent).toBeUndefined();
    expect(counter.sent).toBe(r!.resends + 1);
  });

  test('a tenant that stays 503: the 5xx is returned once the request bound is spent', async () => {
    const resent: Resent[] = [];
    const started = Date.now();
    const ex = await client(resent, 450).api.patch('/resource-servers/503', { data: {} });
    expect(ex.status).toBe(503);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(resent).toEqual([stayed('PATCH', '503', { resends: 5, waitedMs: 450, spent: 'IDM_RESEND_WINDOW_S' })]);
  });

  test('once the run bound is spent, a 503 is not waited for', async () => {
    const run = new RunWaits(250, null);
    const first: Resent[] = [];
    expect((await client(first, 5000, run).api.patch('/resource-servers/502', { data: {} })).status).toBe(502);
    expect(first[0]).toMatchObject({ resends: 3, waitedMs: 250, spent: 'IDM_RESEND_RUN_S' });
    const then: Resent[] = [];
    const { api, counter } = client(then, 5000, run);
    expect((await api.send('GET', '/resource-servers/504')).status).toBe(504);
    expect(then).toEqual([stayed('GET', '504', { resends: 0, waitedMs: 0, spent: 'IDM_RESEND_RUN_S' })]);
    expect(counter.sent).toBe(1);
  });

  test('a 500 is a fault, never sent again', async () => {
    const resent: Resent[] = [];
    const ex = await client(resent, 5000).api.patch('/resource-servers/500', { data: {} });
    expect(ex.status).toBe(500);
    expect(resent).toEqual([]);
  });
});
