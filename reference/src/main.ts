// CLI: `npm run reference -- --host 127.0.0.1 --port 4810 --public-url http://127.0.0.1:4810`
import { startTenant } from './index.ts';
import { parseCli } from './config.ts';

const t0 = performance.now();
let cli;
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
  const tenant = await startTenant({ host: cli.host, port: cli.port, publicUrl: cli.publicUrl, rateLimit: cli.rateLimit });
  const ms = Math.round(performance.now() - t0);
  console.log(`reference tenant listening on ${tenant.url} (public URL ${tenant.publicUrl}, ready in ${ms} ms)`);
  let closing = false;
  const stop = (signal: string) => {
    if (closing) return;
    closing = true;
    tenant.close().then(
      () => process.exit(0),
      () => process.exit(signal === 'SIGTERM' ? 0 : 1),
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
} catch (e) {
  console.error(`reference tenant: cannot start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
