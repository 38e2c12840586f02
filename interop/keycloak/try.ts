// Drives the Keycloak leg by hand until `npm run interop` drives every leg: prepares, then for
// each run starts Keycloak afresh, runs the suite's authentication half against the realm (the
// management half stays the embedded reference tenant) and stops Keycloak, also when the run
// fails or is interrupted. Then says which failed clauses expected.json does not hold and where
// the runs' verdicts differ. Prints the names of the settings it adds, never their values.
//   npx tsx interop/keycloak/try.ts [portBase=6200] [runs=2]
// Exit 0: every run finished, every failure is in expected.json, and the runs agree clause by clause.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { RunningServer } from '../leg.ts';
import leg from './leg.ts';

const portBase = Number(process.argv[2] ?? 6200);
const runs = Number(process.argv[3] ?? 2);
const log = (line: string) => console.log(`[${leg.name}] ${line}`);
const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const expected = JSON.parse(readFileSync(new URL('expected.json', import.meta.url), 'utf8')) as Record<string, unknown>;

let server: RunningServer | null = null;
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void (server?.stop() ?? Promise.resolve()).then(() => process.exit(130));
  });

const verdicts: Map<string, string>[] = [];
let ok = true;
try {
  let t = Date.now();
  await leg.prepare(log);
  log(`prepare: ${seconds(t)}`);
  for (let run = 1; run <= runs; run++) {
    t = Date.now();
    server = await leg.start(portBase, log);
    log(`run ${run}: start ${seconds(t)}; settings added: ${Object.keys(server.env).sort().join(', ')}`);
    const reportsDir = `reports/interop-keycloak/run-${run}`;
    t = Date.now();
    const code = await suite({ ...process.env, ...server.env, IDM_REPORTS_DIR: reportsDir });
    log(`run ${run}: suite ${seconds(t)}, exit ${code}; reports in ${reportsDir}`);
    t = Date.now();
    await server.stop();
    server = null;
    log(`run ${run}: stop ${seconds(t)}`);
    const v = verdictsOf(`${reportsDir}/conformance.json`);
    verdicts.push(v);
    const unexpected = [...v].filter(([id, status]) => status === 'failed' && !(id in expected)).map(([id]) => id);
    const held = Object.keys(expected).filter((id) => v.get(id) !== 'failed');
    log(`run ${run}: failed outside expected.json: ${unexpected.join(', ') || 'none'}`);
    if (held.length > 0) log(`run ${run}: in expected.json but not failed: ${held.join(', ')}`);
    ok &&= unexpected.length === 0;
  }
  const [first, ...rest] = verdicts;
  for (const [i, v] of rest.entries()) {
    const differ = [...first!].filter(([id, status]) => v.get(id) !== status);
    log(
      `runs 1 and ${i + 2}: ${differ.length === 0 ? 'the same verdict for every clause' : `differ on ${differ.map(([id, s]) => `${id} (${s} / ${v.get(id)})`).join(', ')}`}`,
    );
    ok &&= differ.length === 0;
  }
} catch (e) {
  ok = false;
  log(`failed: ${e instanceof Error ? e.message : String(e)}`);
} finally {
  await server?.stop();
}
process.exit(ok && verdicts.length === runs ? 0 : 1);

// Helpers

function suite(env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['playwright', 'test', '--project=conformance', 'specs/authentication'], {
      env,
      stdio: 'inherit',
    });
    child.once('exit', (c) => resolve(c ?? 1));
  });
}

/** Each clause's status in a run's report. */
function verdictsOf(file: string): Map<string, string> {
  const report = JSON.parse(readFileSync(file, 'utf8')) as { clauses: { id: string; status: string }[] };
  return new Map(report.clauses.map((c) => [c.id, c.status]));
}
