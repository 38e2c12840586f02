// Hostile bytes on the wire: seeded random HTTP/1.1 requests — every method, HEAD most, routes
// and garbage targets, malformed request and header lines, bodies with broken framing, unmet
// expectations, header blocks over the limit, requests pipelined behind a valid one — each
// connection's bytes written in pieces, a large header block cut every 4 KiB so that the field
// that overflows the limit reaches the tenant in a later packet than the method. Every
// connection gets an answer, none is a 5xx, and a strict client reads every answer without a
// framing error (http-framing.ts). REFERENCE_FUZZ_REQUESTS sets how many requests: 300 by
// default (a few seconds), 100000 for the long run reference/README.md quotes.
import { connect } from 'node:net';
import { expect, test } from '@playwright/test';
import fc from 'fast-check';
import { readAnswers } from './http-framing.ts';
import { tenantPerFile } from './helpers.ts';
import type { RunningTenant } from '../src/index.ts';

const REQUESTS = Number(process.env.REFERENCE_FUZZ_REQUESTS ?? 300);
const SEED = 20261126;
/** Connections open at once. */
const PARALLEL = 24;
/** A connection with no byte for this long is dropped (and counted as unanswered if it had none). */
const IDLE_MS = 10_000;
const PIECE_GAP_MS = 8;
/** Node's limit on a header block (16 KiB); a block this large is refused with 431. */
const OVER_LIMIT = 16 * 1024;

let t: RunningTenant;
let token: string;
tenantPerFile((s) => ({ t, token } = s));

interface Tally {
  requests: number;
  connections: number;
  byStatus: Map<number, number>;
  serverErrors: string[];
  parseErrors: string[];
  unanswered: string[];
  /** HEAD requests with a header block over the tenant's limit, written in pieces. */
  headsOverLimit: number;
  /** Of those, the ones answered 431 (not refused earlier for something else). */
  headsOverLimit431: number;
}

test('seeded hostile requests on raw sockets: every connection answered, no 5xx, no framing error a client would stop at', async () => {
  expect(Number.isInteger(REQUESTS) && REQUESTS > 0, 'REFERENCE_FUZZ_REQUESTS: a positive integer').toBe(true);
  test.setTimeout(60_000 + REQUESTS * 20);
  const tally: Tally = {
    requests: 0,
    connections: 0,
    byStatus: new Map(),
    serverErrors: [],
    parseErrors: [],
    unanswered: [],
    headsOverLimit: 0,
    headsOverLimit431: 0,
  };
  const started = Date.now();
  const source = connections(token);
  const worker = async () => {
    while (tally.requests < REQUESTS) {
      const c = source.next().value as Connection;
      tally.requests += c.methods.length;
      await exchange(c, tally);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  const statuses = [...tally.byStatus].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`);
  console.log(
    `wire fuzz: ${tally.requests} requests on ${tally.connections} connections in ${((Date.now() - started) / 1000).toFixed(1)} s · ` +
      `5xx ${tally.serverErrors.length} · client parse errors ${tally.parseErrors.length} · unanswered ${tally.unanswered.length} · ` +
      `HEADs with a header block over 16 KiB in pieces ${tally.headsOverLimit} (${tally.headsOverLimit431} answered 431) · ` +
      `statuses ${statuses.join(' ')}`,
  );
  expect(tally.serverErrors.slice(0, 5), `${tally.serverErrors.length} 5xx`).toEqual([]);
  expect(tally.parseErrors.slice(0, 5), `${tally.parseErrors.length} client parse errors`).toEqual([]);
  expect(tally.unanswered.slice(0, 5), `${tally.unanswered.length} connections without an answer`).toEqual([]);
  expect(tally.headsOverLimit431, 'HEADs with a header block over the limit in pieces, answered 431').toBeGreaterThan(
    0,
  );
});

// Helpers

/** One connection's requests: the pieces to write in turn, and the method of each request on it. */
interface Connection {
  pieces: Buffer[];
  methods: string[];
  /** Where among `methods` a HEAD with a header block over the limit, written in pieces, is; or null. */
  headOverLimit: number | null;
}

const ROUTES = [
  '/',
  '/.well-known/openid-configuration',
  '/.well-known/jwks.json',
  '/oauth/token',
  '/authorize?client_id=conformance-spa&response_type=code',
  '/userinfo',
  '/v2/logout',
  '/u/login',
  '/api/v2/resource-servers/rs_conformance',
  '/api/v2/resource-servers/rs_system',
  '/api/v2/experimentation/experiments',
  '/no/such/route',
];

/** A request's body and the header fields that frame it; `next`: bytes past the framing read as one more request. */
interface Body {
  fields: string[];
  content: string;
  next?: string;
}

/** The seeded stream of connections, drawn a thousand at a time. */
function* connections(token: string): Generator<Connection> {
  for (let batch = 0; ; batch++) yield* fc.sample(connectionArb(token), { numRuns: 1000, seed: SEED + batch });
}

function connectionArb(token: string): fc.Arbitrary<Connection> {
  const method = fc.oneof(
    { weight: 6, arbitrary: fc.constant('HEAD') },
    { weight: 6, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'PUT', 'DELETE', 'OPTIONS', 'TRACE') },
    { weight: 1, arbitrary: fc.constantFrom('get', 'FOO', 'G@T', 'HEAD\t', '') },
  );
  const target = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...ROUTES) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('*', 'http://127.0.0.1/.well-known/jwks.json', '/a b', '/\xff\xfe', '//', ''),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((s) => `/${encodeURI(s)}`) },
  );
  const version = fc.oneof(
    { weight: 10, arbitrary: fc.constant('HTTP/1.1') },
    { weight: 1, arbitrary: fc.constantFrom('HTTP/1.0', 'HTTP/2.0', 'HTTP/1.x', 'HTP/1.1', '') },
  );
  const fieldValue = fc.oneof(
    fc.string({ maxLength: 30 }).map((s) => s.replace(/[\r\n]/g, '')),
    fc.constantFrom('', ' spaced ', 'a\tb', '\x7f', 'é'),
  );
  const field = fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .tuple(
          fc.constantFrom('accept', 'content-type', 'x-fuzz', 'user-agent', 'cookie', 'expect', 'connection'),
          fieldValue,
        )
        .map(([n, v]) => `${n}: ${v}`),
    },
    { weight: 1, arbitrary: fc.constant(`authorization: Bearer ${token}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'No colon here',
        ' leading: space',
        'X-A : 1',
        'X-B: a\x00b',
        'X(C): 1',
        ': empty name',
      ),
    },
  );
  const large = fc.oneof(
    { weight: 3, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 4 * 1024, max: OVER_LIMIT - 1024 }) },
    { weight: 2, arbitrary: fc.integer({ min: OVER_LIMIT + 1, max: 40 * 1024 }) },
  );
  const body = fc.oneof(
    { weight: 6, arbitrary: fc.constant<Body>({ fields: [], content: '' }) },
    {
      weight: 2,
      arbitrary: fc.json().map((j): Body => ({ fields: [`content-length: ${Buffer.byteLength(j)}`], content: j })),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Body>(
        { fields: ['transfer-encoding: chunked'], content: '2\r\n{}\r\n0\r\n\r\n' },
        { fields: ['transfer-encoding: chunked'], content: 'zz\r\n{}\r\n0\r\n\r\n' },
        { fields: ['transfer-encoding: chunked', 'content-length: 2'], content: '2\r\n{}\r\n0\r\n\r\n' },
        { fields: ['content-length: 2', 'content-length: 3'], content: '{}x' },
        { fields: ['content-length: -1'], content: '' },
        { fields: ['content-length: abc'], content: '' },
        { fields: ['content-length: 1'], content: '{}\r\n\r\n', next: '}' }, // the rest reads as a next request
        { fields: ['transfer-encoding: gzip, chunked'], content: '0\r\n\r\n' },
      ),
    },
  );
  const request = fc.record({ method, target, version, fields: fc.array(field, { maxLength: 6 }), large, body });
  return fc
    .record({
      request,
      /** A valid request written first on the same connection, answered before the fuzzed one. */
      behind: fc.oneof(
        { weight: 4, arbitrary: fc.constant(null) },
        { weight: 1, arbitrary: fc.constantFrom('GET', 'HEAD') },
      ),
      cuts: fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 3 }),
    })
    .map(({ request: r, behind, cuts }) => {
      const bigBlock = Array.from(
        { length: Math.ceil(r.large / 48) },
        (_, i) => `x-large-${i}: ${'b'.repeat(34)}\r\n`,
      ).join('');
      const head = `${r.method} ${r.target} ${r.version}\r\nhost: 127.0.0.1\r\n${[...r.fields, ...r.body.fields].map((f) => `${f}\r\n`).join('')}${bigBlock}\r\n`;
      const first = behind ? `${behind} /.well-known/jwks.json HTTP/1.1\r\nhost: 127.0.0.1\r\n\r\n` : '';
      const bytes = Buffer.from(first + head + r.body.content, 'latin1');
      // A large header block is cut where it starts and every 4 KiB in it: the request line
      // reaches the tenant in one packet, the field that overflows the limit in a later one.
      const blockAt = first.length + head.length - bigBlock.length - 2;
      const at = [
        ...cuts.map((f) => Math.floor(first.length + f * head.length)),
        ...Array.from({ length: Math.ceil(bigBlock.length / 4096) }, (_, i) => blockAt + i * 4096),
      ];
      const points = [...new Set(at)].filter((p) => p > 0 && p < bytes.length).sort((a, b) => a - b);
      const pieces = [0, ...points].map((p, i) => bytes.subarray(p, points[i] ?? bytes.length));
      return {
        pieces,
        methods: [...(behind ? [behind] : []), r.method, ...(r.body.next ? [r.body.next] : [])],
        headOverLimit: r.method === 'HEAD' && bigBlock.length > OVER_LIMIT ? (behind ? 1 : 0) : null,
      };
    });
}

/** Writes a connection's pieces, a moment apart, and judges what came back by readAnswers. */
function exchange(c: Connection, tally: Tally): Promise<void> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(t.port, '127.0.0.1');
    socket.setNoDelay(true);
    let lastActivity = Date.now();
    // Judged after the poll phase: a test process held up for IDLE_MS (a long collection, a busy
    // machine) finds its timers due before it has read what the tenant sent meanwhile.
    socket.setTimeout(IDLE_MS, () =>
      setImmediate(() => {
        if (Date.now() - lastActivity >= IDLE_MS) socket.destroy();
      }),
    );
    socket.on('error', () => undefined);
    socket.on('data', (d) => {
      lastActivity = Date.now();
      chunks.push(d);
      // Every request answered on a connection kept alive: say we are done; the tenant closes.
      const read = readAnswers(Buffer.concat(chunks), c.methods);
      if (read.error === null && read.answers.length === c.methods.length && !socket.writableEnded) socket.end();
    });
    socket.on('connect', async () => {
      for (const piece of c.pieces) {
        if (socket.destroyed || socket.writableEnded) break;
        socket.write(piece);
        // A moment for the tenant to read this piece on its own, before the next arrives.
        if (c.pieces.length > 1) {
          await new Promise((r) => setTimeout(r, PIECE_GAP_MS));
          await new Promise((r) => setImmediate(r));
          await new Promise((r) => setImmediate(r));
        }
      }
    });
    socket.on('close', () => {
      tally.connections += 1;
      const what = `${c.methods.join(' then ')} ${JSON.stringify(Buffer.concat(c.pieces).toString('latin1').slice(0, 80))}`;
      const read = readAnswers(Buffer.concat(chunks), c.methods);
      if (read.error) tally.parseErrors.push(`${read.error}: ${what}`);
      if (read.answers.length === 0) tally.unanswered.push(what);
      if (c.headOverLimit !== null) {
        tally.headsOverLimit += 1;
        if (read.answers[c.headOverLimit]?.status === 431) tally.headsOverLimit431 += 1;
      }
      for (const a of read.answers) {
        tally.byStatus.set(a.status, (tally.byStatus.get(a.status) ?? 0) + 1);
        if (a.status >= 500) tally.serverErrors.push(`${a.status}: ${what}`);
      }
      resolve();
    });
  });
}
