// `npm run interop [-- --leg <name>] [--runs <n>]`: the interop matrix (docs/interop.md). For each
// leg (interop/<name>/leg.ts): prepare the server, start it, run the suite's authentication half
// against it `--runs` times (default 2; IDM_APIS=authentication, reports in
// reports/interop/<leg>/run-<n>/), stop it (also on failure and on Ctrl-C), then judge the runs
// (interop/verdict.ts). Writes reports/interop/matrix.json and prints the table server × clause
// group and each leg's wall time. Exit 0 only when every leg is clean; 1 otherwise; 2 on a usage
// error; 130 when interrupted.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runSettings } from '../lib/config/run.ts';
import type { InteropLeg, RunningServer } from './leg.ts';
import { type ExpectedDeviation, type GroupCounts, judgeLeg, type LegVerdict, type ReportClause } from './verdict.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HERE = fileURLToPath(new URL('.', import.meta.url));
/** Ports per leg: a leg uses portBase..portBase+9 (interop/leg.ts). */
const PORTS_PER_LEG = 10;
/**
 * The legs (folders of interop/ with a leg.ts), in the matrix's order. Each keeps its ports
 * whichever legs a run picks: IDM_INTEROP_PORT_BASE + PORTS_PER_LEG × its place here.
 */
const LEGS = ['keycloak', 'oidc-provider', 'hydra', 'django-oauth-toolkit'];
/**
 * Settings of the invoking environment a leg's run keeps: how this machine runs the suite (its
 * Chromium, state folder, depth, timeout). Every other IDM_* setting, and any .env, would point
 * the run at something other than the leg's server.
 */
const KEPT = ['IDM_CHROMIUM', 'IDM_STATE_DIR', 'IDM_DEPTH', 'IDM_TIMEOUT_MS'];

interface LegResult extends LegVerdict {
  name: string;
  wallMs: number;
  runWallMs: number[];
  exitCodes: number[];
}

const args = parseArgs(process.argv.slice(2));
const reportsDir = resolve(runSettings().reportsDir, 'interop');
const legNames = args.legs.length > 0 ? args.legs : availableLegs();

let running: { server: RunningServer | null; child: ReturnType<typeof spawn> | null } = { server: null, child: null };
let interrupted = false;
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    process.stderr.write(`\ninterop: ${sig}: stopping the suite and the server\n`);
    running.child?.kill('SIGINT');
    void Promise.resolve(running.server?.stop()).finally(() => process.exit(130));
  });
}

const results: LegResult[] = [];
for (const name of legNames)
  results.push(await runLeg(name, runSettings().interopPortBase + PORTS_PER_LEG * LEGS.indexOf(name)));
mkdirSync(reportsDir, { recursive: true });
writeFileSync(
  join(reportsDir, 'matrix.json'),
  `${JSON.stringify({ generatedAt: new Date().toISOString(), runs: args.runs, legs: results }, null, 2)}\n`,
);
process.stdout.write(`\n${table(results)}\n`);
for (const r of results) {
  process.stdout.write(
    `\n${r.name}: ${r.clean ? 'clean' : 'FAILED'} (wall ${seconds(r.wallMs)}; runs ${r.runWallMs.map(seconds).join(', ')})\n`,
  );
  for (const p of r.problems) process.stdout.write(`  - ${p}\n`);
}
process.stdout.write(`\nMatrix: ${join(reportsDir, 'matrix.json')}\n`);
process.exit(results.every((r) => r.clean) ? 0 : 1);

async function runLeg(name: string, ports: number): Promise<LegResult> {
  const started = Date.now();
  const log = (line: string) => process.stderr.write(`interop[${name}]: ${line}\n`);
  const out: LegResult = {
    name,
    wallMs: 0,
    runWallMs: [],
    exitCodes: [],
    clean: false,
    problems: [],
    groups: {},
    clauses: {},
  };
  const legDir = join(reportsDir, name);
  rmSync(legDir, { recursive: true, force: true });
  try {
    const leg = ((await import(join(HERE, name, 'leg.ts'))) as { default: InteropLeg }).default;
    const expected = JSON.parse(readFileSync(join(HERE, name, 'expected.json'), 'utf8')) as Record<
      string,
      ExpectedDeviation
    >;
    await leg.prepare(log);
    running = { server: null, child: null };
    running.server = await leg.start(ports, log);
    const reports: ReportClause[][] = [];
    for (let n = 1; n <= args.runs && !interrupted; n++) {
      const dir = join(legDir, `run-${n}`);
      const t = Date.now();
      const code = await runSuite(running.server.env, dir);
      out.runWallMs.push(Date.now() - t);
      out.exitCodes.push(code);
      const report = join(dir, 'conformance.json');
      if (!existsSync(report))
        throw new Error(`run ${n} wrote no report (exit ${code}; see ${join(dir, 'output.log')})`);
      reports.push((JSON.parse(readFileSync(report, 'utf8')) as { clauses: ReportClause[] }).clauses);
      log(`run ${n}: exit ${code} in ${seconds(Date.now() - t)} (${join(dir, 'conformance.html')})`);
    }
    Object.assign(out, judgeLeg(reports, expected));
  } catch (e) {
    out.clean = false;
    out.problems.push(`the leg broke: ${(e as Error).message}`);
  } finally {
    await running.server?.stop();
    running = { server: null, child: null };
    out.wallMs = Date.now() - started;
  }
  return out;
}

/** One run of the suite's authentication half against the leg's server; its output goes to run-<n>/output.log. */
function runSuite(legEnv: Record<string, string>, dir: string): Promise<number> {
  mkdirSync(dir, { recursive: true });
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && (!k.startsWith('IDM_') || KEPT.includes(k))) env[k] = v;
  Object.assign(env, {
    // The authentication API's opt-ins: a server started for this run alone, so neither the
    // burst nor the locked user outlives it (a leg that offers passwordless adds its opt-in).
    IDM_ALLOW: 'burst,lockout',
    ...legEnv,
    IDM_APIS: 'authentication',
    IDM_BASE_URL: legEnv.IDM_AUTH_URL ?? '',
    IDM_ENV_FILE: '/dev/null',
    IDM_REPORTS_DIR: dir,
    IDM_FAIL_ON_INCOMPLETE: 'false',
  });
  return new Promise((done) => {
    const logFile = join(dir, 'output.log');
    writeFileSync(logFile, '');
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bin', 'conformance.ts')], {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.child = child;
    const chunks: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => chunks.push(b));
    child.stderr.on('data', (b: Buffer) => chunks.push(b));
    child.on('close', (code) => {
      running.child = null;
      writeFileSync(logFile, Buffer.concat(chunks));
      done(code ?? 1);
    });
  });
}

/** The table server × clause group: passed / failed / expected / skipped. */
function table(legs: readonly LegResult[]): string {
  const groups = [...new Set(legs.flatMap((l) => Object.keys(l.groups)))].sort();
  const cell = (c: GroupCounts | undefined) => (c ? `${c.passed}/${c.failed}/${c.expected}/${c.skipped}` : '—');
  const rows = [
    ['clause group (passed/failed/expected/skipped)', ...legs.map((l) => l.name)],
    ...groups.map((g) => [g, ...legs.map((l) => cell(l.groups[g]))]),
    ['wall time', ...legs.map((l) => seconds(l.wallMs))],
    ['verdict', ...legs.map((l) => (l.clean ? 'clean' : 'FAILED'))],
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ')).join('\n');
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(0)} s`;
}

/** The legs of LEGS whose folder has a leg.ts. */
function availableLegs(): string[] {
  return LEGS.filter((name) => existsSync(join(HERE, name, 'leg.ts')));
}

function parseArgs(argv: string[]): { legs: string[]; runs: number } {
  const legs: string[] = [];
  let runs = 2;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    const value = inline ?? argv[++i];
    if (flag === '--leg' && value) legs.push(...value.split(',').filter(Boolean));
    else if (flag === '--runs' && value && /^[1-9]\d*$/.test(value)) runs = Number(value);
    else usage(`unknown or incomplete argument ${a}`);
  }
  const known = availableLegs();
  const unknown = legs.find((l) => !known.includes(l));
  if (unknown !== undefined) usage(`no leg ${unknown} (known: ${known.join(', ')})`);
  return { legs, runs };
}

function usage(why: string): never {
  process.stderr.write(`interop: ${why}\nusage: npm run interop [-- --leg <name>[,<name>]] [--runs <n>]\n`);
  process.exit(2);
}
