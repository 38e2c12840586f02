// node:http transport: turns sockets into plain TenantRequest/TenantResponse data.
import http from 'node:http';
import type { Duplex } from 'node:stream';
import type { Handler, TenantRequest } from './types.ts';

/** Bodies are drained up to this many times the limit so a 413 can be answered cleanly; beyond, the socket is cut. */
const DRAIN_FACTOR = 64;

export interface Transport {
  server: http.Server;
  setHandler(handler: Handler, maxBodyBytes: () => number): void;
  listen(host: string, port: number): Promise<number>;
  close(): Promise<void>;
}

export function createTransport(): Transport {
  let handler: Handler | undefined;
  let maxBody: () => number = () => 0;
  const server = http.createServer({ keepAliveTimeout: 5000 }, (req, res) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let seen = 0;
    let dispatched = false;
    const cap = maxBody() + 1; // one byte more than the limit is enough to know it is exceeded
    const dispatch = (cut: boolean) => {
      if (dispatched) return;
      dispatched = true;
      const request: TenantRequest = {
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        headers: flatHeaders(req.headers),
        body: Buffer.concat(chunks),
        remoteAddress: req.socket.remoteAddress,
      };
      const run = handler ?? (async () => ({ status: 503, headers: {}, body: Buffer.from('{"statusCode":503}') }));
      run(request)
        .catch((e: unknown) => {
          console.error('reference tenant: handler failed:', e instanceof Error ? e.message : String(e));
          return {
            status: 500,
            headers: { 'content-type': 'application/json' },
            body: Buffer.from(
              JSON.stringify({
                statusCode: 500,
                error: 'Internal Server Error',
                message: 'Internal error',
                errorCode: 'internal_error',
              }),
            ),
          };
        })
        .then((response) => {
          if (res.destroyed) return;
          const headers: Record<string, string> = {
            ...response.headers,
            // A HEAD answer has no content but may state the length GET would have (RFC 9110 §9.3.2).
            'content-length':
              (request.method === 'HEAD'
                ? (response.headers as Record<string, string>)['content-length']
                : undefined) ?? String(response.body.length),
          };
          if (cut) headers.connection = 'close';
          res.writeHead(response.status, headers);
          res.end(response.body);
          if (cut) res.on('finish', () => req.socket.destroy());
        })
        .catch(() => res.destroy());
    };
    req.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (kept < cap) {
        const part = chunk.subarray(0, cap - kept);
        chunks.push(part);
        kept += part.length;
      }
      if (seen > cap * DRAIN_FACTOR) {
        req.pause();
        dispatch(true);
      }
    });
    req.on('end', () => dispatch(false));
    req.on('error', () => res.destroy());
  });
  server.on('clientError', answerUnparseable);
  // An expectation the tenant does not meet (RFC 9110 §10.1.1): 417 before any content is read,
  // and the connection closed, so content the client sends anyway is never read as a next request
  // (node:http's own 417 kept the connection, and answered such content a second time).
  server.on('checkExpectation', (_req, res) => {
    res.writeHead(417, { 'content-length': '0', connection: 'close' });
    res.end();
  });
  return {
    server,
    setHandler(h, max) {
      handler = h;
      maxBody = max;
    },
    listen(host, port) {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address();
          resolve(typeof address === 'object' && address ? address.port : port);
        });
      });
    },
    close() {
      return new Promise((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      });
    },
  };
}

/** What node:http gives a clientError listener for a parse error (llhttp's code). */
type ParseError = Error & { code?: string };

/**
 * Unparseable HTTP never reaches the handler: it is answered here with a status line and no
 * content, and the connection closed. The status says it (RFC 6585 §5: 431 for a header block
 * over the limit, else 400). No content, because the method of a request that failed to parse
 * cannot always be read (a large header block arrives in several packets), and content in an
 * answer to HEAD is read by its client as data after the answer (RFC 9110 §9.3.2).
 */
function answerUnparseable(err: ParseError, socket: Duplex): void {
  const [status, reason] =
    err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large'] : [400, 'Bad Request'];
  const settle = (): void => {
    const inFlight = (socket as { _httpMessage?: (http.ServerResponse & { _last?: boolean }) | null })._httpMessage;
    // The answer on its way ends the connection (a 417, say, before content that then failed to
    // parse): the bytes belong to a request already answered, and get no answer of their own.
    if (inFlight?._last) {
      if (inFlight.writableFinished) socket.end();
      return;
    }
    // The content of the request being read failed to parse (a broken chunk): that request gets the answer.
    if (inFlight && !inFlight.req.complete && !inFlight.headersSent) {
      inFlight.writeHead(status, reason, { 'content-length': '0', connection: 'close' });
      inFlight.end();
      return;
    }
    // A malformed request pipelined behind answers still being sent: its answer goes after them,
    // never into the middle of one or before it (the client would misread both).
    if (inFlight && !inFlight.writableFinished) {
      let waited = false;
      const next = () => {
        if (waited) return;
        waited = true;
        settle();
      };
      inFlight.once('finish', next);
      inFlight.once('close', next);
      return;
    }
    if (socket.writable) socket.end(`HTTP/1.1 ${status} ${reason}\r\ncontent-length: 0\r\nconnection: close\r\n\r\n`);
    else socket.destroy();
  };
  settle();
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}
