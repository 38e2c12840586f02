// HEAD (RFC 9110 §9.3.2): answered as GET would be, status and header fields alike, without
// content, on every route; a route that serves GET lists HEAD in its Allow header. A HEAD the
// tenant cannot parse gets no content either, even when its header block arrives in pieces
// and the method is in a packet the parser has already consumed.
import { expect, test } from '@playwright/test';
import net from 'node:net';
import { startTenant, type RunningTenant, type TenantResponse } from '../src/index.ts';
import { NO_THROTTLE } from './helpers.ts';

let t: RunningTenant;
/** What the tenant's handler answered (before the socket), last request first. */
const answered: TenantResponse[] = [];
test.beforeAll(async () => {
  t = await startTenant({
    rateLimit: NO_THROTTLE,
    wrap: (next) => async (req) => {
      const res = await next(req);
      answered.unshift(res);
      return res;
    },
  });
});
test.afterAll(async () => t.close());

const ROUTES = [
  '/.well-known/openid-configuration',
  '/.well-known/jwks.json',
  '/authorize?client_id=nobody',
  '/v2/logout',
  '/userinfo',
  '/oauth/token',
  '/api/v2/resource-servers/rs_conformance',
  '/no/such/route',
];

for (const path of ROUTES) {
  test(`HEAD ${path}: the GET answer's status and headers, no content`, async () => {
    const get = await raw('GET', path);
    const getAnswer = answered[0]!;
    const head = await raw('HEAD', path);
    expect(answered[0]!.body.length).toBe(0);
    expect(head.status).toBe(get.status);
    expect(head.rest).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.headers['content-length']).toBe(String(getAnswer.body.length));
  });
}

test('a route that serves GET lists HEAD in Allow', async () => {
  const r = await raw('DELETE', '/.well-known/jwks.json');
  expect(r.status).toBe(405);
  expect(r.headers.allow).toBe('GET, HEAD');
});

test('a HEAD whose header block splits across packets: 431 or 400 with no content, nothing after the header block', async () => {
  const start = 'HEAD /.well-known/jwks.json HTTP/1.1\r\nHost: 127.0.0.1\r\n';
  const large = Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'b'.repeat(40)}\r\n`).join('');
  for (const [rest, status] of [
    [[large.slice(0, 8000), `${large.slice(8000)}\r\n`], 431],
    [['X-A: 1\r\n', 'No colon here\r\n\r\n'], 400],
  ] as const) {
    const answer = await inPackets([start, ...rest]);
    const [head = '', ...after] = answer.split('\r\n\r\n');
    expect(head, answer.slice(0, 80)).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    expect(after.join('\r\n\r\n'), 'bytes after the answer to a HEAD').toBe('');
    expect(head).toMatch(/\r\ncontent-length: 0(\r\n|$)/i);
  }
});

// Helpers

/** Writes each piece as its own packet, after the tenant has read the one before; reads until it closes. */
function inPackets(pieces: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(t.port, '127.0.0.1', async () => {
      s.setNoDelay(true);
      for (const piece of pieces) {
        if (s.destroyed) break;
        s.write(piece);
        await new Promise((r) => setTimeout(r, 30));
      }
    });
    let data = '';
    s.on('data', (c) => (data += c.toString('latin1')));
    s.on('error', reject);
    s.on('close', () => resolve(data));
  });
}

/** One request on its own connection; status, headers and whatever bytes followed them. */
function raw(method: string, path: string): Promise<{ status: number; headers: Record<string, string>; rest: string }> {
  return new Promise((resolve, reject) => {
    const s = net.connect(t.port, '127.0.0.1', () =>
      s.write(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
    );
    let data = '';
    s.on('data', (c) => (data += c));
    s.on('error', reject);
    s.on('end', () => {
      const [head = '', rest = ''] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1]), headers, rest: method === 'HEAD' ? rest : '' });
    });
  });
}
