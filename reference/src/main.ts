// CLI: `npm run reference -- --host 127.0.0.1 --port 4810 --public-url http://127.0.0.1:4810`
import { startTenant } from './index.ts';
import { parseCli, type CliOptions } from './config.ts';
import type { RunningTenant } from './types.ts';

const t0 = performance.now();

// Installed first, so a SIGTERM that arrives while starting still ends cleanly.
let tenant: RunningTenant | undefined;
let stopping = false;
const stop = () => {
  if (stopping) return;
  stopping = true;
  (tenant ? tenant.close() : Promise.resolve()).then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

let cli: CliOptions | { help: string };
try {
  cli = parseCli(process.argv.slice(2));
} catch (e) {
  console.error(`reference tenant: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(2);
}
if ('help' in cli) {
  console.log(cli.help);
  process.exit(0);
}
try {
  tenant = await startTenant({
    host: cli.host,
    port: cli.port,
    publicUrl: cli.publicUrl,
    rateLimit: cli.rateLimit,
    profile: cli.profile,
    login: cli.login,
    refreshRotation: cli.refreshRotation,
    experiments: cli.experiments,
    revocationAnnounced: cli.revocationAnnounced,
  });
  if (stopping) await tenant.close().then(() => process.exit(0));
  const ms = Math.round(performance.now() - t0);
  console.log(`reference tenant listening on ${tenant.url} (public URL ${tenant.publicUrl}, ready in ${ms} ms)`);
} catch (e) {
  console.error(`reference tenant: cannot start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
