// Starts one variant of the reference tenant (a mutant, a benign variant, or `reference`
// itself) on a loopback port and prints `ready <origin>` once it listens.
//   tsx mutation/launch.ts --variant <id> --port 5000 [--rate <req/s>] [--capacity <n>]
//                          [--expired-token-file <path>] [--stats-file <path>]
// With --expired-token-file, the launcher also mints a tenant-signed management token that
// has already expired (issued under a clock set two days back) and writes it to that file,
// so the suite's expired-token case (IDM_EXPIRED_TOKEN) differs from a valid token only by
// its expiry, exactly as a staging user would configure it.
// With --stats-file, it counts the requests it serves per rate-limit bucket (client and
// endpoint, as the tenant keys them) and writes the counts there when it stops: the bench's
// request figures are measured at the tenant, whatever the client under test reports.
import { writeFileSync } from 'node:fs';
import { decodeJwt } from 'jose';
import { parseArgs } from 'node:util';
import { startTenant } from '../reference/src/index.ts';
import type { TenantOptions, TenantParts } from '../reference/src/types.ts';
import { variantById } from './mutants.ts';
import { DEV_CREDENTIALS } from './suite.ts';

const { values } = parseArgs({
  options: {
    variant: { type: 'string', default: 'reference' },
    port: { type: 'string' },
    rate: { type: 'string' },
    capacity: { type: 'string' },
    'expired-token-file': { type: 'string' },
    'stats-file': { type: 'string' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port <= 0) {
  console.error('launch: --port <n> is required');
  process.exit(2);
}

const publicUrl = `http://127.0.0.1:${port}`;
const options: TenantOptions = { host: '127.0.0.1', port, publicUrl };
if (values.variant !== 'reference') {
  const v = variantById(values.variant!);
  if (!v) {
    console.error(`launch: unknown variant ${values.variant}`);
    process.exit(2);
  }
  Object.assign(options, v.options({ publicUrl }));
}
// A bench-imposed rate overrides the variant's own (honest token bucket, same headers).
if (values.rate) {
  const rate = Number(values.rate);
  options.rateLimit = { refillPerSecond: rate, capacity: Number(values.capacity ?? rate) };
}

// The harness's clock offset (only non-zero while minting the expired token).
let clockOffsetMs = 0;
const variantParts = options.parts;
options.parts = (d: TenantParts) => {
  const own = typeof variantParts === 'function' ? variantParts(d) : (variantParts ?? {});
  const clock = own.now ?? d.now;
  return { ...own, now: () => clock() + clockOffsetMs };
};

// Request counting, outermost (sees what the client sent, before any variant wrapper).
const counts = new Map<string, number>();
const statuses = new Map<number, number>();
let total = 0;
let firstAt = 0;
let lastAt = 0;
if (values['stats-file']) {
  const inner = options.wrap;
  options.wrap = (next) => {
    const handler = inner ? inner(next) : next;
    return async (req) => {
      total++;
      lastAt = Date.now();
      firstAt ||= lastAt;
      const key = bucketOf(req.method, req.url, req.headers, req.body);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      const res = await handler(req);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      return res;
    };
  };
}

const tenant = await startTenant(options);

if (values['expired-token-file']) {
  clockOffsetMs = -2 * 86400 * 1000;
  try {
    const res = await fetch(`${tenant.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: DEV_CREDENTIALS.IDM_CLIENT_ID,
        client_secret: DEV_CREDENTIALS.IDM_CLIENT_SECRET,
        audience: `${publicUrl}/api/v2/`,
      }),
    });
    const body = (await res.json()) as { access_token?: string };
    if (body.access_token) writeFileSync(values['expired-token-file'], body.access_token, { mode: 0o600 });
  } finally {
    clockOffsetMs = 0;
  }
}

// The harness's own minting request is not the client's traffic.
counts.clear();
statuses.clear();
total = 0;
firstAt = 0;
lastAt = 0;

console.log(`ready ${tenant.url}`);

const stop = (): void => {
  if (values['stats-file']) {
    const stats = {
      total, firstAt, lastAt,
      statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
      buckets: Object.fromEntries([...counts].sort((a, b) => b[1] - a[1])),
    };
    writeFileSync(values['stats-file'], JSON.stringify(stats, null, 2) + '\n');
  }
  void tenant.close().finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);

// Helpers

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
