// A strict HTTP/1.1 client's reading of the bytes a connection received (RFC 9112 §6.3), for
// tests that write raw requests: the answers, in order, each with the body length the client
// must read given the method it sent — none for HEAD, 204 and 304, else Transfer-Encoding
// chunked, else Content-Length, else up to the close — and the first framing error a client
// would stop at (a bad status or header line, content shorter than declared, bytes after an
// answer that said `Connection: close`, bytes no request asked for).

export interface Answer {
  status: number;
  headers: Record<string, string>;
}

export interface Framing {
  answers: Answer[];
  /** The first error a strict client would report, or null. */
  error: string | null;
}

const STATUS_LINE = /^HTTP\/1\.[01] (\d{3}) [^\r\n]*$/;
const FIELD_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*([^\r\n]*?)[ \t]*$/;

/** Reads `data` as the answers to `methods`, the requests written on one connection, in order. */
export function readAnswers(data: Buffer, methods: readonly string[]): Framing {
  const answers: Answer[] = [];
  const fail = (error: string): Framing => ({ answers, error });
  let pos = 0;
  for (let i = 0; i < methods.length && pos < data.length; ) {
    const end = data.indexOf('\r\n\r\n', pos);
    if (end < 0) return fail('header block not terminated');
    const [statusLine = '', ...lines] = data.toString('latin1', pos, end).split('\r\n');
    const status = Number(STATUS_LINE.exec(statusLine)?.[1] ?? Number.NaN);
    if (Number.isNaN(status)) return fail(`bad status line ${JSON.stringify(statusLine.slice(0, 60))}`);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const m = FIELD_LINE.exec(line);
      if (!m) return fail(`bad header line ${JSON.stringify(line.slice(0, 60))}`);
      const name = (m[1] as string).toLowerCase();
      if (name === 'content-length' && headers[name] !== undefined && headers[name] !== m[2])
        return fail('two different Content-Length values');
      headers[name] =
        headers[name] === undefined || name === 'content-length' ? (m[2] as string) : `${headers[name]}, ${m[2]}`;
    }
    pos = end + 4;
    if (status >= 100 && status < 200) continue; // interim: the final answer to the same request follows
    answers.push({ status, headers });
    i += 1;
    const method = methods[i - 1] as string;
    const body = bodyLength(data, pos, method, status, headers);
    if (typeof body === 'string') return fail(body);
    pos += body;
    if (/(^|,)\s*close\s*(,|$)/i.test(headers.connection ?? '')) {
      if (pos < data.length) return fail('data after Connection: close');
      return { answers, error: null };
    }
  }
  return pos < data.length ? fail('data after the last answer') : { answers, error: null };
}

/** The length of the content that starts at `pos` (chunk framing included), or the error. */
function bodyLength(
  data: Buffer,
  pos: number,
  method: string,
  status: number,
  headers: Record<string, string>,
): number | string {
  if (method === 'HEAD' || status === 204 || status === 304) return 0;
  if (headers['transfer-encoding'] !== undefined) {
    if (!/(^|,)\s*chunked\s*$/i.test(headers['transfer-encoding'])) return data.length - pos;
    let at = pos;
    for (;;) {
      const eol = data.indexOf('\r\n', at);
      const size = eol < 0 ? Number.NaN : Number.parseInt(data.toString('latin1', at, eol).split(';')[0] as string, 16);
      if (Number.isNaN(size)) return 'bad chunk size';
      if (size === 0) {
        const trailersEnd = data.indexOf('\r\n\r\n', eol); // the last chunk's line, any trailer fields, a blank line
        return trailersEnd < 0 ? 'chunked content not terminated' : trailersEnd + 4 - pos;
      }
      at = eol + 2 + size;
      if (data.toString('latin1', at, at + 2) !== '\r\n') return 'chunk shorter than its size';
      at += 2;
    }
  }
  const declared = headers['content-length'];
  if (declared === undefined) return data.length - pos; // up to the close
  if (!/^\d+$/.test(declared)) return `bad Content-Length ${JSON.stringify(declared)}`;
  const length = Number(declared);
  return pos + length > data.length ? 'content shorter than its Content-Length' : length;
}
