// HTTP layer: bodies (§4), error bodies, size and type limits, routes; no client input yields a 5xx.
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import { connect } from 'node:net';
import { tenantPerFile, type Client } from './helpers.ts';
import type { RunningTenant } from '../src/index.ts';

let t: RunningTenant;
let c: Client;
let token: string;
tenantPerFile((s) => ({ t, c, token } = s));

const patch = (body: string | Buffer, contentType?: string, extra: Record<string, string> = {}) =>
  c.send('PATCH', '/api/v2/resource-servers/rs_conformance', {
    headers: { authorization: `Bearer ${token}`, ...(contentType ? { 'content-type': contentType } : {}), ...extra },
    body,
  });

const expectErrorBody = (body: any, status: number) =>
  expect(body).toEqual({
    statusCode: status,
    error: expect.any(String),
    message: expect.any(String),
    errorCode: expect.any(String),
  });

test.describe('malformed bodies → 400', () => {
  const cases: Array<[string, string | Buffer]> = [
    ['truncated JSON', '{"name":'],
    ['empty body', ''],
    ['trailing comma', '{"name":"x",}'],
    ['JSON null', 'null'],
    ['JSON array', '[{"name":"x"}]'],
    ['JSON string', '"name"'],
    ['JSON number', '42'],
    ['single quotes', "{'name':'x'}"],
    ['invalid UTF-8', Buffer.from([0x7b, 0x22, 0x6e, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
    ['nesting deeper than 32', `{"authorization_details":${'['.repeat(40)}${']'.repeat(40)}}`],
  ];
  for (const [title, body] of cases) {
    test(title, async () => {
      const r = await patch(body, 'application/json');
      expect(r.status).toBe(400);
      expectErrorBody(r.body, 400);
    });
  }
  test('nesting within the limit is fine', async () => {
    const r = await patch(`{"authorization_details":${'['.repeat(30)}${']'.repeat(30)}}`, 'application/json');
    expect(r.status).toBe(201);
  });
});

test.describe('unsupported content types → 415', () => {
  for (const type of [
    undefined,
    'text/plain',
    'application/xml',
    'multipart/form-data; boundary=x',
    'application/json; charset=iso-8859-1',
  ]) {
    test(String(type), async () => {
      const r = await patch('{"name":"x"}', type);
      expect(r.status).toBe(415);
      expectErrorBody(r.body, 415);
    });
  }
  test('application/json with charset=utf-8 is fine', async () => {
    expect((await patch('{"name":"Charset"}', 'application/json; charset=UTF-8')).status).toBe(201);
  });
});

test.describe('oversized bodies → 413', () => {
  const big = (n: number) => JSON.stringify({ name: 'x', authorization_details: ['a'.repeat(n)] });
  test('just over 64 KiB', async () => {
    const r = await patch(big(64 * 1024), 'application/json');
    expect(r.status).toBe(413);
    expectErrorBody(r.body, 413);
  });
  test('one megabyte', async () => {
    expect((await patch(big(1024 * 1024), 'application/json')).status).toBe(413);
  });
  test('chunked (no Content-Length)', async () => {
    const chunk = new TextEncoder().encode('a'.repeat(16 * 1024));
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(ctrl) {
        if (sent++ < 8) ctrl.enqueue(chunk);
        else ctrl.close();
      },
    });
    const res = await fetch(`${t.url}/api/v2/resource-servers/rs_conformance`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(413);
  });
  test('a body of exactly 64 KiB is not refused for its size', async () => {
    const base = JSON.stringify({ authorization_details: [''] });
    const body = JSON.stringify({ authorization_details: ['a'.repeat(64 * 1024 - base.length)] });
    expect(Buffer.byteLength(body)).toBe(64 * 1024);
    expect((await patch(body, 'application/json')).status).toBe(201);
  });
});

test.describe('routes', () => {
  for (const [method, path] of [
    ['GET', '/'],
    ['GET', '/api/v2/nope'],
    ['PATCH', '/api/v2/resource-servers'],
    ['PATCH', '/api/v2/resource-servers/'],
    ['PATCH', '/api/v2/resource-servers/rs_conformance/extra'],
    ['POST', '/api/v2/experimentation/experiments/'],
    ['POST', '/oauth/token/extra'],
  ] as const) {
    test(`${method} ${path} → 404`, async () => {
      const r = await c.send(method, path, { headers: { authorization: `Bearer ${token}` } });
      expect(r.status).toBe(404);
      expectErrorBody(r.body, 404);
    });
  }
  test('known path, other method → 405 with Allow', async () => {
    const r = await c.send('GET', '/api/v2/resource-servers/rs_conformance');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('PATCH');
    expectErrorBody(r.body, 405);
  });
  test('query strings do not change the route', async () => {
    expect(
      (
        await patch('{}', 'application/json').then(() =>
          c.send('PATCH', '/api/v2/resource-servers/rs_conformance?x=1', {
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: '{}',
          }),
        )
      ).status,
    ).toBe(201);
  });
});

test('every response carries the three X-RateLimit-* headers', async () => {
  const replies = [
    await patch('{"name":"Headers"}', 'application/json'),
    await patch('{', 'application/json'),
    await patch('{}', 'text/plain'),
    await c.send('PATCH', '/api/v2/resource-servers/rs_conformance'),
    await c.send('GET', '/nowhere'),
    await c.send('GET', '/.well-known/jwks.json'),
    await c.token({ grant_type: 'client_credentials' }),
  ];
  for (const r of replies) {
    expect(Number(r.headers.get('x-ratelimit-limit'))).toBeGreaterThan(0);
    expect(r.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
    expect(r.headers.get('x-ratelimit-reset')).toMatch(/^\d{10}$/);
  }
});

test('no body or field value yields a 5xx (property test)', async () => {
  const member = fc.constantFrom(
    'name',
    'scopes',
    'token_lifetime',
    'token_encryption',
    'proof_of_possession',
    'subject_type_authorization',
    'authorization_policy',
    'authorization_details',
    'consent_policy',
    'x',
    '__proto__',
  );
  await fc.assert(
    fc.asyncProperty(fc.dictionary(member, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 3 }), async (body) => {
      const r = await patch(JSON.stringify(body), 'application/json');
      return r.status < 500;
    }),
    { numRuns: 150, seed: 4810 },
  );
  const expMember = fc.constantFrom(
    'name',
    'feature_flag_id',
    'allocations',
    'allocation_strategy',
    'assignment_config',
    'description',
  );
  await fc.assert(
    fc.asyncProperty(fc.dictionary(expMember, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 4 }), async (body) => {
      const r = await c.createExperiment(body, token);
      return r.status < 500;
    }),
    { numRuns: 150, seed: 4811 },
  );
  await fc.assert(
    fc.asyncProperty(fc.string({ maxLength: 200 }), async (text) => {
      const r = await c.send('POST', '/oauth/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: text,
      });
      return r.status < 500;
    }),
    { numRuns: 100, seed: 4812 },
  );
});

test('unparseable HTTP gets a 400 without content, Content-Length: 0 and Connection: close; the tenant keeps serving', async () => {
  expect(await exchange('NOT HTTP AT ALL\r\n\r\n')).toBe(
    'HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n',
  );
  expect((await c.send('GET', '/.well-known/jwks.json')).status).toBe(200);
});

test('an unparseable request has no content in its answer whatever its method: HEAD, GET, or behind an answered request', async () => {
  for (const method of ['HEAD', 'GET', 'POST']) {
    const raw = await exchange(`${method} / HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n`);
    expect(raw, method).toMatch(/^HTTP\/1\.1 400 [^\r]*\r\n(?:[^\r]+\r\n)*\r\n$/);
    expect(raw, method).toMatch(/\r\ncontent-length: 0\r\n/i);
  }
  // Pipelined: the GET's answer whole, then a 400 that ends the connection with its header block.
  for (const [first, second] of [
    ['GET', 'HEAD / HTTP/1.1\r\nNo colon here\r\n\r\n'],
    ['HEAD', 'NOT HTTP AT ALL\r\n\r\n'],
  ]) {
    const answers = (await exchange(`${first} /.well-known/jwks.json HTTP/1.1\r\nHost: x\r\n\r\n${second}`)).split(
      /(?=HTTP\/1\.1 )/,
    );
    expect(answers.map((a) => a.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 400']);
    expect(answers[1]?.endsWith('\r\n\r\n'), `${first} then a malformed request`).toBe(true);
  }
});

test('an expectation the tenant does not meet: 417 and the connection closed; content sent anyway gets no second answer', async () => {
  for (const content of ['2\r\n{}\r\n0\r\n\r\n', 'zz\r\nnot a chunk\r\n\r\n']) {
    const raw = await exchange(
      `POST /oauth/token HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\nTransfer-Encoding: chunked\r\n\r\n${content}`,
    );
    expect(raw, JSON.stringify(content)).toMatch(/^HTTP\/1\.1 417 [^\r]*\r\n(?:[^\r]+\r\n)*\r\n$/);
    expect(raw).toMatch(/\r\nconnection: close\r\n/i);
  }
  // Behind a pending answer too: the 200, the 417, and nothing for the content after it.
  const answers = (
    await exchange(
      'GET /.well-known/jwks.json HTTP/1.1\r\nHost: x\r\n\r\nPOST /oauth/token HTTP/1.1\r\nHost: x\r\nExpect: odd\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n\r\n',
    )
  ).split(/(?=HTTP\/1\.1 )/);
  expect(answers.map((a) => a.slice(0, 12))).toEqual(['HTTP/1.1 200', 'HTTP/1.1 417']);
});

test('content that fails to parse (a broken chunk) gets its request a 400 without content, not a connection left waiting', async () => {
  for (const method of ['GET', 'POST', 'HEAD']) {
    const raw = await exchange(
      `${method} /oauth/token HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    );
    expect(raw, method).toMatch(/^HTTP\/1\.1 400 [^\r]*\r\n(?:[^\r]+\r\n)*\r\n$/);
    expect(raw, method).toMatch(/\r\ncontent-length: 0\r\n/i);
  }
});

test('a header block over the limit gets 431 without content (RFC 6585 §5)', async () => {
  // Node's default limit is 16 KiB for the whole header block.
  const raw = await exchange(`GET /.well-known/jwks.json HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
  expect(raw).toBe('HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
  const many = Array.from({ length: 400 }, (_, i) => `X-H${i}: ${'b'.repeat(40)}\r\n`).join('');
  expect(await exchange(`HEAD / HTTP/1.1\r\nHost: x\r\n${many}\r\n`)).toMatch(/^HTTP\/1\.1 431 [\s\S]*\r\n\r\n$/);
  expect((await c.send('GET', '/.well-known/jwks.json')).status).toBe(200);
});

// Helpers

/** Writes `data` on a fresh connection and reads until the tenant closes it. */
function exchange(data: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(t.port, '127.0.0.1', () => socket.write(data));
    socket.setTimeout(5000, () =>
      socket.destroy(new Error(`no close within 5 s; received ${JSON.stringify(received)}`)),
    );
    let received = '';
    socket.on('data', (d) => (received += d.toString('latin1')));
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}
