// Drives the Keycloak leg by hand until `npm run interop` drives every leg: prepares, starts,
// runs the suite's authentication half against the realm (the management half stays the embedded
// reference tenant) and stops Keycloak, also when the run fails or is interrupted. Prints the
// names of the settings it adds, never their values.
//   npx tsx interop/keycloak/try.ts [portBase=6200] [reportsDir=reports/interop-keycloak]
import { spawn } from 'node:child_process';
import type { RunningServer } from '../leg.ts';
import leg from './leg.ts';

const portBase = Number(process.argv[2] ?? 6200);
const reportsDir = process.argv[3] ?? 'reports/interop-keycloak';
const log = (line: string) => console.log(`[${leg.name}] ${line}`);
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

let server: RunningServer | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void (server?.stop() ?? Promise.resolve()).then(() => process.exit(130));
  });

let code = 1;
try {
  let t = Date.now();
  await leg.prepare(log);
  log(`prepare: ${seconds(t)}`);
  t = Date.now();
  server = await leg.start(portBase, log);
  log(`start: ${seconds(t)}; settings added: ${Object.keys(server.env).sort().join(', ')}`);
  t = Date.now();
  code = await suite({ ...process.env, ...server.env, IDM_REPORTS_DIR: reportsDir });
  log(`suite: ${seconds(t)}, exit ${code}; reports in ${reportsDir}`);
} catch (e) {
  log(`failed: ${e instanceof Error ? e.message : String(e)}`);
} finally {
  const t = Date.now();
  await server?.stop();
  log(`stop: ${seconds(t)}`);
}
process.exit(code);

function suite(env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['playwright', 'test', '--project=conformance', 'specs/authentication'], {
      env,
      stdio: 'inherit',
    });
    child.once('exit', (c) => resolve(c ?? 1));
  });
}
