// Starts one variant of the reference tenant (a mutant, a benign variant, or `reference`
// itself) on a loopback port and prints `ready <origin>` once it listens.
//   tsx mutation/launch.ts --variant <id> --port 5000 [--rate <req/s>] [--capacity <n>]
//                          [--expired-token-file <path>]
// With --expired-token-file, the launcher also mints a tenant-signed management token that
// has already expired (issued under a clock set two days back) and writes it to that file,
// so the suite's expired-token case (IDM_EXPIRED_TOKEN) differs from a valid token only by
// its expiry, exactly as a staging user would configure it.
import { writeFileSync } from 'node:fs';
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

console.log(`ready ${tenant.url}`);

const stop = (): void => {
  void tenant.close().finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
