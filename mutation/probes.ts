// What a mutant's probe is (each mutant carries its own in its `probe` field): a few
// requests whose observation differs between the mutant and the reference tenant. The
// self-test runs each probe against both, so a mutant that is accidentally identical to the
// reference (and would "survive" for nothing) fails loudly. Here: the probe client and the
// small builders probes share.
import { SignJWT, decodeJwt, generateKeyPair } from 'jose';
import { DEV_AUTH, DEV_CREDENTIALS, DEV_RESOURCES } from './suite.ts';

export type Auth = 'full' | 'limited' | 'none' | 'malformed' | 'bad-signature' | 'expired' | 'wrong-audience';

export interface Seen {
  status: number;
  headers: Record<string, string>;
  // eslint-style strictness would cost every probe a cast; probes read response fields freely
  body: any;
}

export interface ProbeClient {
  patch(body: unknown, o?: { id?: string; auth?: Auth; form?: boolean; raw?: string }): Promise<Seen>;
  create(body: unknown, o?: { auth?: Auth }): Promise<Seen>;
  /** PATCH {} with the full client, in concurrent waves, until a 429 (answered last) or `max` requests. */
  burst(max: number): Promise<Seen[]>;
  /** The tenant's origin (its public URL): audiences of client assertions. */
  origin: string;
  /** Any request, no credentials added, redirects not followed (authentication-API probes). */
  request(
    method: string,
    path: string,
    o?: { query?: Record<string, string>; body?: unknown; form?: boolean; headers?: Record<string, string> },
  ): Promise<Seen>;
}

export type Probe = (c: ProbeClient) => Promise<unknown>;

/** A string of `n` ASCII characters. */
export const chars = (n: number): string => 'a'.repeat(n);
const PEM =
  '-----BEGIN PUBLIC KEY-----\r\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\r\n-----END PUBLIC KEY-----\r\n';
const key = (o: Record<string, unknown> = {}): Record<string, unknown> => ({ alg: 'RSA-OAEP-256', pem: PEM, ...o });
/** An update body setting token_encryption, with `k` merged into its key and `o` into it. */
export const withEncryption = (k: Record<string, unknown> = {}, o: Record<string, unknown> = {}): unknown => ({
  token_encryption: { format: 'compact-nested-jwe', encryption_key: key(k), ...o },
});
export const VALID_EXPERIMENT = {
  name: 'Probe experiment',
  description: 'A probe of the mutation self-test',
  feature_flag_id: DEV_RESOURCES.IDM_FEATURE_FLAG_ID,
  authentication_flow: 'login',
  assignment_config: { subject: 'device' },
  allocation_strategy: 'percentage',
  allocations: [
    { variation_id: 'var_control', weight: 50, is_control: true },
    { variation_id: 'var_treatment', weight: 50 },
  ],
};
export const experimentWith = (o: Record<string, unknown>): Record<string, unknown> => ({ ...VALID_EXPERIMENT, ...o });
export const statusOf = async (p: Promise<Seen>): Promise<number> => (await p).status;

/** The dev clients a probe asks for a token with its secret: the client_secret_post one and the two management clients. */
type SecretClient = 'post' | 'full' | 'limited';
const SECRET_CLIENTS: Record<SecretClient, [id: string, secret: string]> = {
  post: [DEV_AUTH.IDM_POST_CLIENT_ID, DEV_AUTH.IDM_POST_CLIENT_SECRET],
  full: [DEV_CREDENTIALS.IDM_CLIENT_ID, DEV_CREDENTIALS.IDM_CLIENT_SECRET],
  limited: [DEV_CREDENTIALS.IDM_LIMITED_CLIENT_ID, DEV_CREDENTIALS.IDM_LIMITED_CLIENT_SECRET],
};

/** A client-credentials request of a dev client at the token endpoint, `o` added to (or replacing part of) its body. */
export function clientCredentials(c: ProbeClient, who: SecretClient, o: Record<string, unknown> = {}): Promise<Seen> {
  const [id, secret] = SECRET_CLIENTS[who];
  return c.request('POST', '/oauth/token', {
    body: { grant_type: 'client_credentials', client_id: id, client_secret: secret, ...o },
  });
}
export const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A probe client for a tenant at `origin` (public URL = origin), minting tokens as needed. */
export function probeClient(origin: string, expired: () => Promise<string | null>): ProbeClient {
  // Promises, not tokens: a wave of concurrent requests asks for one token, not one each
  // (the token endpoint's own limit would refuse the rest).
  const tokens = new Map<Auth, Promise<string>>();
  const mint = async (auth: Auth): Promise<string> => {
    if (auth === 'full' || auth === 'limited') return issue(origin, auth, `${origin}/api/v2/`);
    if (auth === 'wrong-audience') return issue(origin, 'full', 'https://api.conformance.test/');
    if (auth === 'expired') return (await expired()) ?? 'no-expired-token';
    return resign((await token('full'))!);
  };
  const token = async (auth: Auth): Promise<string | null> => {
    if (auth === 'none') return null;
    if (auth === 'malformed') return 'not-a-jwt';
    let t = tokens.get(auth);
    if (!t) {
      t = mint(auth);
      tokens.set(auth, t);
    }
    return t;
  };
  const send = async (
    method: string,
    path: string,
    body: string | undefined,
    contentType: string | undefined,
    auth: Auth,
  ): Promise<Seen> => {
    const t = await token(auth);
    const headers: Record<string, string> = {};
    if (t) headers.authorization = `Bearer ${t}`;
    if (contentType) headers['content-type'] = contentType;
    const res = await fetch(`${origin}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
    return seen(res);
  };
  const rsPath = (id?: string): string => `/api/v2/resource-servers/${id ?? DEV_RESOURCES.IDM_RESOURCE_SERVER_ID}`;
  return {
    patch: (body, o = {}) => {
      if (o.raw !== undefined) return send('PATCH', rsPath(o.id), o.raw, 'application/json', o.auth ?? 'full');
      if (o.form) {
        const form = new URLSearchParams(
          Object.entries(body as Record<string, unknown>).map(([k, v]): [string, string] => [
            k,
            typeof v === 'string' ? v : JSON.stringify(v),
          ]),
        );
        return send('PATCH', rsPath(o.id), form.toString(), 'application/x-www-form-urlencoded', o.auth ?? 'full');
      }
      return send('PATCH', rsPath(o.id), JSON.stringify(body), 'application/json', o.auth ?? 'full');
    },
    create: (body, o = {}) =>
      send('POST', '/api/v2/experimentation/experiments', JSON.stringify(body), 'application/json', o.auth ?? 'full'),
    origin,
    async request(method, path, o = {}) {
      const headers: Record<string, string> = { ...(o.headers ?? {}) };
      let body: string | undefined;
      if (o.body !== undefined) {
        body =
          typeof o.body === 'string'
            ? o.body
            : o.form
              ? new URLSearchParams(o.body as Record<string, string>).toString()
              : JSON.stringify(o.body);
        headers['content-type'] ??= o.form ? 'application/x-www-form-urlencoded' : 'application/json';
      }
      const q = o.query ? `?${new URLSearchParams(o.query).toString()}` : '';
      const res = await fetch(`${origin}${path}${q}`, {
        method,
        headers,
        redirect: 'manual',
        ...(body !== undefined ? { body } : {}),
      });
      return seen(res);
    },
    async burst(max) {
      // In waves of concurrent requests, each twice the last: sent one at a time, or in waves
      // too small, on a loaded machine they arrive slower than the tenant refills (100/s) and
      // never meet its limit.
      const seen: Seen[] = [];
      for (let size = BURST_WAVE; seen.length < max; size *= 2) {
        const n = Math.min(size, max - seen.length);
        const wave = await Promise.all(
          Array.from({ length: n }, () => send('PATCH', rsPath(), '{}', 'application/json', 'full')),
        );
        const refused = wave.findIndex((s) => s.status === 429);
        if (refused < 0) {
          seen.push(...wave);
          continue;
        }
        // The answers before the first 429, then that 429 last.
        seen.push(...wave.filter((s) => s.status !== 429), wave[refused]!);
        break;
      }
      return seen;
    },
  };
}

// Helpers

const BURST_WAVE = 25;

async function issue(origin: string, who: 'full' | 'limited', audience: string): Promise<string> {
  const [id, secret] = SECRET_CLIENTS[who];
  const res = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: id, client_secret: secret, audience }),
  });
  const body = (await res.json()) as { access_token?: string };
  if (!body.access_token) throw new Error(`probe: token request for ${who} (${audience}) answered ${res.status}`);
  return body.access_token;
}

/** The same claims as a real token, signed by a key the tenant has never seen. */
async function resign(real: string | null): Promise<string> {
  const { privateKey } = await generateKeyPair('RS256');
  return new SignJWT(decodeJwt(real ?? '')).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(privateKey);
}

/** A fetch answer as a probe sees it: status, headers, and the body parsed as JSON when it is JSON. */
async function seen(res: Response): Promise<Seen> {
  const text = await res.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: res.status, headers: Object.fromEntries(res.headers), body };
}
