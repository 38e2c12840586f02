// Starts a variant of the reference tenant in this process, with the harness's two
// additions: a request counter per rate-limit bucket (client and endpoint) and a clock the
// harness can set back to mint a tenant-signed, already expired management token.
import { createHash } from 'node:crypto';
import { decodeJwt } from 'jose';
import {
  type LoginOptions,
  type RateLimiter,
  type RunningTenant,
  startTenant,
  type TenantOptions,
  type TenantParts,
} from '../reference/src/index.ts';

/** The tenant's view of a request, for tests that watch what a run sends (selftest/runtime-kill.spec.ts). */
export type { TenantRequest } from '../reference/src/index.ts';
/** The tenant's default rate limit (the bench states the bound it puts on the embedded verdict). */
export { DEFAULT_RATE_LIMIT } from '../reference/src/index.ts';
import { variantById } from './mutants.ts';
import { DEV_CREDENTIALS } from './suite.ts';
import type { Variant, VariantContext } from './variant.ts';

export interface HarnessTenant {
  tenant: RunningTenant;
  /** A token for the full dev client, issued under a clock two days back: expired, validly signed. */
  mintExpiredToken(): Promise<string | null>;
  stats(): TenantStats;
  /** Forgets the counts so far (e.g. the harness's own requests). */
  resetStats(): void;
}

export interface TenantStats {
  total: number;
  firstAt: number;
  lastAt: number;
  statuses: Record<string, number>;
  /** Statuses of the requests that carried no User-Agent: only the suite's bursts (undici) send none. */
  statusesWithoutUserAgent: Record<string, number>;
  /** 429s of the per-user login limit (its message, as JSON or on the login page): the §8 login-limit test provokes them on purpose. */
  loginLimit429?: number;
  /** 429s served to requests with a User-Agent (paced requests and the browser's), by bucket. */
  throttledWithUserAgent?: Record<string, number>;
  buckets: Record<string, number>;
  /**
   * Paced requests (those with a User-Agent: not the bursts) that repeat an earlier one byte
   * for byte — method, URL, credentials and body — by bucket; issue 19's "no request twice".
   * A repeat may be the point (a code exchanged a second time, PATCH {} reading state back).
   */
  repeats?: { total: number; buckets: Record<string, number> };
}

export interface HarnessOptions {
  /** 0 picks a free port (the public URL then follows it). */
  port: number;
  /**
   * An honest limiter replacing the variant's own: a token bucket (refill per second,
   * capacity), or with `fixedWindowSeconds` a fixed window of `capacity` requests per window
   * aligned to the epoch (Reset = the window's end, Remaining never rises before it).
   */
  rate?: { refillPerSecond: number; capacity: number; fixedWindowSeconds?: number };
  /** The tenant's strict profile (reference/src/profiles/strict.ts): a server we did not write. */
  profile?: 'strict';
  /** The tenant's login pages: identifier-first, a one-time-code challenge, consent, logout confirmation, a login origin. */
  login?: LoginOptions;
}

export async function startHarnessTenant(variant: Variant | 'reference', o: HarnessOptions): Promise<HarnessTenant> {
  const v = variant === 'reference' ? null : variant;
  // The public URL is known only once listening when the port is 0: variants read it lazily.
  let publicUrl = `http://127.0.0.1:${o.port}`;
  const ctx: VariantContext = {
    get publicUrl() {
      return publicUrl;
    },
  };
  const options: TenantOptions = { host: '127.0.0.1', port: o.port, ...(o.port ? { publicUrl } : {}) };
  if (v) Object.assign(options, v.options(ctx));
  if (o.profile) options.profile = o.profile;
  if (o.login) options.login = o.login;
  if (o.rate) options.rateLimit = { capacity: o.rate.capacity, refillPerSecond: o.rate.refillPerSecond };
  const fixedWindow = o.rate?.fixedWindowSeconds
    ? fixedWindowLimiter(o.rate.capacity, o.rate.fixedWindowSeconds)
    : null;

  let clockOffsetMs = 0;
  const variantParts = options.parts;
  options.parts = (d: TenantParts) => {
    const own = typeof variantParts === 'function' ? variantParts(d) : (variantParts ?? {});
    const clock = own.now ?? d.now;
    return { ...own, ...(fixedWindow ? { rateLimiter: fixedWindow } : {}), now: () => clock() + clockOffsetMs };
  };

  const counts = new Map<string, number>();
  const statuses = new Map<number, number>();
  const statusesNoAgent = new Map<number, number>();
  const seen = new Set<string>();
  const repeats = new Map<string, number>();
  let loginLimit429 = 0;
  const throttledWithAgent = new Map<string, number>();
  let total = 0;
  let firstAt = 0;
  let lastAt = 0;
  const inner = options.wrap;
  options.wrap = (next) => {
    const handler = inner ? inner(next) : next;
    return async (req) => {
      total++;
      lastAt = Date.now();
      firstAt ||= lastAt;
      const key = bucketOf(req.method, req.url, req.headers, req.body);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (req.headers['user-agent']) {
        const print = createHash('sha256')
          .update(`${req.method} ${req.url}\n${headerPrint(req.headers)}\n`)
          .update(req.body)
          .digest('hex');
        if (seen.has(print)) repeats.set(key, (repeats.get(key) ?? 0) + 1);
        else seen.add(print);
      }
      const res = await handler(req);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (!req.headers['user-agent']) statusesNoAgent.set(res.status, (statusesNoAgent.get(res.status) ?? 0) + 1);
      if (res.status === 429 && res.body.includes('Too many failed login attempts')) loginLimit429++;
      else if (res.status === 429 && req.headers['user-agent'])
        throttledWithAgent.set(key, (throttledWithAgent.get(key) ?? 0) + 1);
      return res;
    };
  };

  const tenant = await startTenant(options);
  publicUrl = tenant.publicUrl;

  return {
    tenant,
    async mintExpiredToken() {
      clockOffsetMs = -2 * 86400 * 1000;
      try {
        return (await requestDevToken(tenant.url, tenant.publicUrl)).token;
      } finally {
        clockOffsetMs = 0;
      }
    },
    stats: () => ({
      total,
      firstAt,
      lastAt,
      statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
      statusesWithoutUserAgent: Object.fromEntries([...statusesNoAgent].sort((a, b) => a[0] - b[0])),
      loginLimit429,
      throttledWithUserAgent: Object.fromEntries(throttledWithAgent),
      buckets: Object.fromEntries([...counts].sort((a, b) => b[1] - a[1])),
      repeats: {
        total: [...repeats.values()].reduce((a, b) => a + b, 0),
        buckets: Object.fromEntries([...repeats].sort((a, b) => b[1] - a[1])),
      },
    }),
    resetStats() {
      counts.clear();
      statuses.clear();
      statusesNoAgent.clear();
      seen.clear();
      repeats.clear();
      loginLimit429 = 0;
      throttledWithAgent.clear();
      total = 0;
      firstAt = 0;
      lastAt = 0;
    },
  };
}

/** A management token for the full dev client (client credentials at the tenant's token endpoint). */
export async function requestDevToken(url: string, publicUrl = url): Promise<{ token: string | null; status: number }> {
  const res = await fetch(`${url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: DEV_CREDENTIALS.IDM_CLIENT_ID,
      client_secret: DEV_CREDENTIALS.IDM_CLIENT_SECRET,
      audience: `${publicUrl}/api/v2/`,
    }),
  });
  const body = (await res.json().catch(() => ({}))) as { access_token?: string };
  return { token: body.access_token ?? null, status: res.status };
}

export function resolveVariant(id: string): Variant | 'reference' | undefined {
  return id === 'reference' ? 'reference' : variantById(id);
}

// Helpers

/** `capacity` requests per window of `seconds`, windows aligned to the epoch; keyed like the tenant's own. */
function fixedWindowLimiter(capacity: number, seconds: number): RateLimiter {
  const windows = new Map<string, { start: number; used: number }>();
  const ms = seconds * 1000;
  return {
    take(key, nowMs) {
      const start = Math.floor(nowMs / ms) * ms;
      const w = windows.get(key);
      const cur = w && w.start === start ? w : { start, used: 0 };
      const allowed = cur.used < capacity;
      if (allowed) cur.used++;
      windows.set(key, cur);
      const reset = Math.ceil((start + ms) / 1000);
      return {
        allowed,
        limit: capacity,
        remaining: capacity - cur.used,
        reset,
        retryAfter: Math.max(1, Math.ceil((start + ms - nowMs) / 1000)),
      };
    },
  };
}

/** The headers that make two requests different (credentials, certificates, media type), not transport ones. */
function headerPrint(headers: Record<string, string>): string {
  const transport = new Set([
    'user-agent',
    'content-length',
    'connection',
    'host',
    'accept-encoding',
    'accept-language',
  ]);
  return Object.entries(headers)
    .filter(([k]) => !transport.has(k.toLowerCase()))
    .map(([k, v]) => `${k.toLowerCase()}: ${v}`)
    .sort()
    .join('\n');
}

/** `<client> <endpoint>`: the client from the bearer token's azp or the token request, else anon. */
function bucketOf(method: string, url: string, headers: Record<string, string>, body: Buffer): string {
  const path = url.split('?')[0] ?? url;
  const endpoint = /^\/api\/v2\/resource-servers\/[^/]+\/?$/.test(path)
    ? `${method} /api/v2/resource-servers/{id}`
    : `${method} ${path.replace(/\/$/, '')}`;
  let client = 'anon';
  const bearer = /^Bearer\s+(\S+)/i.exec(headers.authorization ?? '')?.[1];
  if (bearer) {
    try {
      const c = decodeJwt(bearer);
      client = String(c.azp ?? c.sub ?? 'anon');
    } catch {
      client = 'malformed';
    }
  } else if (/^\/oauth\/token/.test(path)) {
    const text = body.toString('utf8');
    try {
      client = String((JSON.parse(text) as { client_id?: unknown }).client_id ?? 'anon');
    } catch {
      client = new URLSearchParams(text).get('client_id') ?? 'anon';
    }
  }
  return `${client} ${endpoint}`;
}
