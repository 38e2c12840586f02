// A small node:http server in front of a reference tenant that misbehaves in one chosen
// way: the broken and hostile staging tenants the suite must survive (a login wall, a
// redirect to https, a stall mid-body, an enormous body, connection resets, invalid JSON
// under a JSON content type, intermittent 503s that pass, intermittent 500s that stay). Requests the tests send (Playwright's
// client) are told apart from the runtime's own (Node's fetch: setup, restore), so a case
// can hit the tests and leave the restore a path to the tenant.
import http from 'node:http';

export type Misbehaviour =
  | 'login-wall-token'
  | 'login-wall-api'
  | 'redirect-https'
  | 'stall-mid-body'
  | 'huge-body'
  | 'reset'
  | 'invalid-json'
  | 'intermittent-503'
  | 'intermittent-500';

export interface HostileProxy {
  url: string;
  /** Requests that met the misbehaviour. */
  hits(): number;
  close(): Promise<void>;
}

/** Size of the enormous body: hundreds of MB, streamed, never held here. */
const HUGE_BYTES = 300 * 1024 * 1024;

export async function startHostileProxy(upstream: string, how: Misbehaviour): Promise<HostileProxy> {
  const up = new URL(upstream);
  let testRequests = 0;
  let hits = 0;
  // The suite sends an unanswered request once more (lib/http.ts): a stall or a reset meets that
  // resend too, so that it stays (method and URL: the tests' requests go one at a time).
  let unanswered = '';
  const staysUnanswered = (req: http.IncomingMessage, nth: boolean): boolean => {
    const key = `${req.method} ${req.url}`;
    const again = key === unanswered;
    unanswered = nth && !again ? key : '';
    return nth || again;
  };
  const open = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const fromTests = (req.headers['user-agent'] ?? '') !== 'node';
    const api = (req.url ?? '').startsWith('/api/v2/');
    if (fromTests && api) testRequests++;
    const hit = (): true => {
      hits++;
      return true;
    };
    switch (how) {
      case 'login-wall-token':
        if (req.url?.startsWith('/oauth/token') && hit()) return html(res);
        break;
      case 'login-wall-api':
        if (api && hit()) return html(res);
        break;
      case 'redirect-https':
        hit();
        res.writeHead(301, { location: `https://${req.headers.host}${req.url}`, 'content-length': '0' });
        return res.end();
      case 'stall-mid-body':
        if (fromTests && api && staysUnanswered(req, testRequests % 4 === 2) && hit()) {
          req.resume();
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"id":"rs_conformance","name":"Conf'); // …and nothing more, ever
          return;
        }
        break;
      case 'huge-body':
        if (fromTests && api && testRequests === 3 && hit()) {
          req.resume();
          return hugeBody(res);
        }
        break;
      case 'reset':
        if (fromTests && api && staysUnanswered(req, testRequests % 3 === 0) && hit()) return req.socket.destroy();
        break;
      case 'invalid-json':
        if (fromTests && api)
          return forward(req, res, (status, body) =>
            status < 300 && hit() ? body.subarray(0, Math.max(0, body.length - 2)) : body,
          );
        break;
      case 'intermittent-503':
      case 'intermittent-500':
        // Never handled upstream: a gateway that could not pass the request on, a handler that crashed first.
        if (fromTests && api && testRequests % 5 === 0 && hit()) {
          req.resume();
          const status = how === 'intermittent-503' ? 503 : 500;
          res.writeHead(status, { 'content-type': 'application/json' });
          return res.end(
            JSON.stringify({ statusCode: status, error: http.STATUS_CODES[status], message: 'upstream busy' }),
          );
        }
        break;
    }
    forward(req, res);
  });
  server.on('connection', (s) => {
    open.add(s);
    s.on('close', () => open.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hits: () => hits,
    close: () =>
      new Promise<void>((r) => {
        for (const s of open) s.destroy();
        server.close(() => r());
      }),
  };

  function forward(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    rewrite?: (status: number, body: Buffer) => Buffer,
  ): void {
    const out = http.request(
      {
        host: up.hostname,
        port: up.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: up.host },
      },
      (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => {
          let body: Buffer = Buffer.concat(chunks);
          if (rewrite) body = rewrite(r.statusCode ?? 502, body);
          const headers = { ...r.headers, 'content-length': String(body.length) };
          delete headers['transfer-encoding'];
          res.writeHead(r.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  }
}

function html(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(
    '<!doctype html><html><head><title>Sign in</title></head><body><form action="/login">Corporate SSO: sign in to continue</form></body></html>',
  );
}

/** 200, JSON content type, HUGE_BYTES of a JSON string, written as the reader takes it. */
function hugeBody(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(HUGE_BYTES) });
  const chunk = Buffer.alloc(1024 * 1024, 0x61);
  let sent = 0;
  const head = Buffer.from('{"name":"');
  res.write(head);
  sent += head.length;
  const pump = (): void => {
    while (sent < HUGE_BYTES - 2) {
      const n = Math.min(chunk.length, HUGE_BYTES - 2 - sent);
      sent += n;
      if (!res.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
        res.once('drain', pump);
        return;
      }
    }
    res.end('"}');
  };
  res.on('close', () => (sent = HUGE_BYTES));
  pump();
}
