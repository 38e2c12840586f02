// Redaction: every piece of evidence passes through here before it is recorded, attached or
// printed. Two nets: known values (client secrets, the run's tokens, the snapshot's signing
// secret) and patterns (JWTs, PEM private keys, credential headers, credential fields).

const MASK = '<redacted>';

const SECRET_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'cname-api-key',
  'client-certificate',
]);

/** Body fields that carry credentials wherever they appear. */
const SECRET_KEYS = new Set([
  'client_secret',
  'client_assertion',
  'access_token',
  'refresh_token',
  'id_token',
  'password',
  'private_key',
  'privatekey',
  'assertion',
  'code_verifier',
  'otp',
]);

const PATTERNS: Array<[RegExp, string]> = [
  // Up to the END line, or to the end of the text when evidence was cut short.
  [/-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g, '<redacted:private-key>'],
  // A JWS/JWE compact serialisation: base64url header starting with '{"' (eyJ), then dots.
  [/eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*(?:\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*)?/g, '<redacted:jwt>'],
  // A credential has a digit or symbol, or is long; a plain word after "Basic" in prose is kept.
  [/\b(Bearer|Basic|DPoP)\s+(?=[A-Za-z0-9._~+/=-]*[0-9._~+/=-]|[A-Za-z]{20,})[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${MASK}`],
  [
    /("(?:client_secret|client_assertion|access_token|refresh_token|id_token|password|private_key|assertion)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi,
    `$1"${MASK}"`,
  ],
  [
    /\b(client_secret|client_assertion|access_token|refresh_token|id_token|password|assertion)=[^&\s'"]*/gi,
    `$1=${MASK}`,
  ],
];

export interface Redactor {
  text(s: string): string;
  headers(h: Record<string, string>): Record<string, string>;
  value<T>(v: T): T;
  /** Learn another secret value at runtime (e.g. a token fetched mid-test). */
  add(secret: string): void;
  /**
   * `s` redacted except where it holds `kept`, a credential the suite forged (lib/credential-origin.ts),
   * unless `kept` itself holds a secret this redactor knows.
   */
  keeping(s: string, kept: string): string;
}

export function createRedactor(known: Iterable<string> = []): Redactor {
  const secrets = new Set<string>();
  const add = (s: string): void => {
    if (typeof s !== 'string' || s.length < 4) return;
    secrets.add(s);
    const enc = encodeURIComponent(s);
    if (enc !== s) secrets.add(enc);
  };
  for (const s of known) add(s);

  const text = (s: string): string => {
    let out = s;
    // Longest first so a secret that contains another is masked whole.
    for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
      if (out.includes(secret)) out = out.split(secret).join(MASK);
    }
    for (const [re, rep] of PATTERNS) out = out.replace(re, rep);
    return out;
  };

  const headers = (h: Record<string, string>): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(h)) {
      if (SECRET_HEADERS.has(k.toLowerCase())) {
        const scheme = /^(\w+)\s+/.exec(v)?.[1];
        out[k] = scheme ? `${scheme} ${MASK}` : MASK;
      } else {
        out[k] = text(String(v));
      }
    }
    return out;
  };

  const value = <T>(v: T): T => deep(v, text) as T;

  const keeping = (s: string, kept: string): string =>
    kept.length < 4 || [...secrets].some((secret) => kept.includes(secret))
      ? text(s)
      : s.split(kept).map(text).join(kept);

  return { text, headers, value, add, keeping };
}

// Helpers

function deep(v: unknown, text: (s: string) => string, depth = 0): unknown {
  if (depth > 50) return '<redacted:too-deep>';
  if (typeof v === 'string') return text(v);
  if (Array.isArray(v)) return v.map((x) => deep(x, text, depth + 1));
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      out[k] = SECRET_KEYS.has(k.toLowerCase()) && x !== null && x !== undefined ? MASK : deep(x, text, depth + 1);
    }
    return out;
  }
  return v;
}
