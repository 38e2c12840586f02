// Starts one variant of the reference tenant (a mutant, a benign variant, or `reference`
// itself) on a loopback port and prints `ready <origin>` once it listens.
//   tsx mutation/launch.ts --variant <id> --port 5000 [--rate <req/s>] [--capacity <n>]
//                          [--fixed-window <seconds>] [--expired-token-file <path>] [--stats-file <path>]
// --fixed-window: the limiter is a fixed window of --capacity requests per that many seconds
// (epoch-aligned) instead of a token bucket refilled at --rate.
// --expired-token-file: also mint a tenant-signed management token that has already expired
// and write it there (mode 0600), so the suite's expired-token case (IDM_EXPIRED_TOKEN)
// differs from a valid token only by its expiry, as a staging user would configure it.
// --stats-file: count the requests served per rate-limit bucket and write the counts there
// on SIGTERM; the bench measures requests at the tenant, not on the client's word.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { resolveVariant, startHarnessTenant } from './tenant.ts';

const { values } = parseArgs({
  options: {
    variant: { type: 'string', default: 'reference' },
    port: { type: 'string' },
    rate: { type: 'string' },
    capacity: { type: 'string' },
    'fixed-window': { type: 'string' },
    'expired-token-file': { type: 'string' },
    'stats-file': { type: 'string' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port <= 0) {
  console.error('launch: --port <n> is required');
  process.exit(2);
}
const variant = resolveVariant(values.variant!);
if (!variant) {
  console.error(`launch: unknown variant ${values.variant}`);
  process.exit(2);
}
const rate = values.rate ? Number(values.rate) : undefined;

const h = await startHarnessTenant(variant, {
  port,
  ...(rate
    ? {
        rate: {
          refillPerSecond: rate,
          capacity: Number(values.capacity ?? rate),
          ...(values['fixed-window'] ? { fixedWindowSeconds: Number(values['fixed-window']) } : {}),
        },
      }
    : {}),
});

if (values['expired-token-file']) {
  const token = await h.mintExpiredToken();
  if (token) writeFileSync(values['expired-token-file'], token, { mode: 0o600 });
}
h.resetStats(); // the harness's own requests are not the client's traffic

console.log(`ready ${h.tenant.url}`);

const stop = (): void => {
  if (values['stats-file']) writeFileSync(values['stats-file'], JSON.stringify(h.stats(), null, 2) + '\n');
  void h.tenant.close().finally(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
