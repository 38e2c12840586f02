// Test helpers: a tenant per file, tokens, and small request shortcuts (fetch, plain data).
import { readFileSync } from 'node:fs';
import { test } from '@playwright/test';
import { SignJWT, importPKCS8 } from 'jose';
import { randomUUID } from 'node:crypto';
import { startTenant, DEV_PKJWT_PRIVATE_KEY_PATH, type RunningTenant, type TenantOptions } from '../src/index.ts';

export const FULL = { id: 'conformance-full', secret: 'dev-secret-full-0123456789' };
export const LIMITED = { id: 'conformance-limited', secret: 'dev-secret-limited-0123456789' };
export const PKJWT = { id: 'conformance-pkjwt' };
export const RS_CONFORMANCE_IDENTIFIER = 'https://api.conformance.test/';

/** Generous limiter so tests that are not about rate limiting never meet a 429. */
export const NO_THROTTLE = { capacity: 100000, refillPerSecond: 100000 };

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export class Client {
  constructor(readonly tenant: RunningTenant) {}

  async send(
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string | Buffer } = {},
  ): Promise<Reply> {
    const res = await fetch(this.tenant.url + path, { method, headers: init.headers, body: init.body });
    const text = await res.text();
    let body: unknown;
    try {
      body = text === '' ? undefined : JSON.parse(text);
    } catch {
      body = undefined;
    }
    return { status: res.status, headers: res.headers, text, body };
  }

  token(params: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
    return this.send('POST', '/oauth/token', {
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(params),
    });
  }

  async accessToken(
    client: { id: string; secret: string } = FULL,
    audience = `${this.tenant.publicUrl}/api/v2/`,
  ): Promise<string> {
    const r = await this.token(
      clientCredentials(this.tenant, { client_id: client.id, client_secret: client.secret, audience }),
    );
    if (r.status !== 200) throw new Error(`token request failed: ${r.status} ${r.text}`);
    return r.body.access_token as string;
  }

  patchJson(id: string, body: unknown, token: string): Promise<Reply> {
    return this.send('PATCH', `/api/v2/resource-servers/${id}`, {
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }

  createExperiment(body: unknown, token: string): Promise<Reply> {
    return this.send('POST', '/api/v2/experimentation/experiments', {
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  }
}

/** The client-credentials grant's body for `t`'s management API, with `extra` added. */
export const clientCredentials = (t: RunningTenant, extra: Record<string, string> = {}): Record<string, string> => ({
  grant_type: 'client_credentials',
  audience: `${t.publicUrl}/api/v2/`,
  ...extra,
});

export async function tenant(options: TenantOptions = {}): Promise<{ t: RunningTenant; c: Client }> {
  const t = await startTenant({ host: '127.0.0.1', port: 0, rateLimit: NO_THROTTLE, ...options });
  return { t, c: new Client(t) };
}

/**
 * One tenant per test file, with the full client's token: started before the file's tests,
 * closed after them. `use` receives it (the file keeps its own variables).
 */
export function tenantPerFile(
  use: (s: { t: RunningTenant; c: Client; token: string }) => void,
  options: TenantOptions = {},
): void {
  let started: RunningTenant | undefined;
  test.beforeAll(async () => {
    const { t, c } = await tenant(options);
    started = t;
    use({ t, c, token: await c.accessToken() });
  });
  test.afterAll(async () => started?.close());
}

let devKey: Awaited<ReturnType<typeof importPKCS8>> | undefined;

/** A client assertion signed with the documented dev key; claims overridable. */
export async function assertion(
  t: RunningTenant,
  claims: Record<string, unknown> = {},
  alg = 'RS256',
): Promise<string> {
  devKey ??= await importPKCS8(readFileSync(DEV_PKJWT_PRIVATE_KEY_PATH, 'utf8'), 'RS256');
  const key = alg === 'RS256' ? devKey : await importPKCS8(readFileSync(DEV_PKJWT_PRIVATE_KEY_PATH, 'utf8'), alg);
  const now = Math.floor(Date.now() / 1000);
  const payload = {
    iss: PKJWT.id,
    sub: PKJWT.id,
    aud: `${t.publicUrl}/`,
    iat: now,
    exp: now + 60,
    jti: randomUUID(),
    ...claims,
  };
  return new SignJWT(payload).setProtectedHeader({ alg }).sign(key);
}

export const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

export function enc(s: string): string {
  return encodeURIComponent(s);
}

// Authentication-API dev clients and users (reference/README.md "Dev credentials").
export const POST = { id: 'conformance-post', secret: 'dev-secret-post-0123456789' };
export const BASIC = { id: 'conformance-basic', secret: 'dev-secret:basic+0123456789 %&=' };
export const SPA = { id: 'conformance-spa' };
export const MTLS = { id: 'conformance-mtls' };
export const MTLS_CA = { id: 'conformance-mtls-ca' };
export const EDGE_API_KEY = 'dev-cname-api-key-0123456789';
export const USER = { username: 'conformance-user@example.test', password: 'dev-password-0123456789!' };
export const LOCKOUT = { username: 'conformance-lockout@example.test', password: 'dev-password-lockout-0123!' };

/** The password grant's body: the Post client and the test user, with `extra` added. */
export const passwordGrant = (extra: Record<string, string> = {}): Record<string, string> => ({
  grant_type: 'password',
  client_id: POST.id,
  client_secret: POST.secret,
  username: USER.username,
  password: USER.password,
  ...extra,
});
export const REDIRECT_URI = 'https://app.conformance.test/callback';
export const LOGOUT_URL = 'https://app.conformance.test/logged-out';

/** RFC 6749 §2.3.1: form-encode id and secret, then Base64 of `id:secret`. */
export function basicAuth(id: string, secret: string): string {
  const form = (s: string) => new URLSearchParams({ v: s }).toString().slice(2);
  return `Basic ${Buffer.from(`${form(id)}:${form(secret)}`).toString('base64')}`;
}

export function form(params: Record<string, string>): { headers: Record<string, string>; body: string } {
  return {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  };
}

export function jsonBody(params: unknown): { headers: Record<string, string>; body: string } {
  return { headers: { 'content-type': 'application/json' }, body: JSON.stringify(params) };
}

/** Every authentication-API error: a JSON object with `error` and `error_description` strings. */
export function isAuthError(body: unknown): boolean {
  const b = body as Record<string, unknown> | undefined;
  return typeof b?.error === 'string' && typeof b.error_description === 'string';
}
