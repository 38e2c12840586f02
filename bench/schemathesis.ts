// The peer: Schemathesis, installed from PyPI into the git-ignored .venv-bench/ and run
// against a launched tenant with the same OpenAPI document, the same credentials (a token
// fetched from that tenant) and the same resource server the suite is configured with.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ROOT, runLogged } from '../mutation/proc.ts';
import { DEV_RESOURCES } from '../mutation/suite.ts';
import { requestDevToken } from '../mutation/tenant.ts';

export const PEER_VERSION = '4.32.5';
const VENV = resolve(ROOT, '.venv-bench');
const BIN = join(VENV, 'bin', 'schemathesis');

export interface PeerInfo {
  available: boolean;
  version?: string;
  reason?: string;
}

/** Finds Schemathesis in .venv-bench/, installing the pinned version with pip if it is missing. */
export function ensurePeer(log: (s: string) => void): PeerInfo {
  if (!existsSync(BIN)) {
    log(`bench: installing schemathesis==${PEER_VERSION} into .venv-bench/ (pip)`);
    const venv = spawnSync('python3', ['-m', 'venv', VENV], { encoding: 'utf8', timeout: 120_000 });
    if (venv.status !== 0)
      return { available: false, reason: `python3 -m venv failed: ${firstLine(venv.stderr || venv.error?.message)}` };
    const pip = spawnSync(join(VENV, 'bin', 'pip'), ['install', '-q', `schemathesis==${PEER_VERSION}`], {
      encoding: 'utf8',
      timeout: 600_000,
    });
    if (pip.status !== 0)
      return { available: false, reason: `pip install failed: ${firstLine(pip.stderr || pip.error?.message)}` };
  }
  const v = spawnSync(BIN, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  if (v.status !== 0) return { available: false, reason: `schemathesis --version failed: ${firstLine(v.stderr)}` };
  return { available: true, version: v.stdout.trim().replace(/^.*version\s+/i, '') };
}

export interface PeerOptions {
  /** The OpenAPI document (default contract/openapi.json). */
  document?: string;
  maxExamples: number;
  seed: number;
  outDir: string;
}

export interface PeerRun {
  exitCode: number | null;
  seconds: number;
  /** Distinct failure signatures `<code> <operation>` from its JSON report. */
  failures: string[];
  testCases: number | null;
  /** The command line, without the token (which travels in the environment). */
  command: string[];
  error?: string;
}

/** What the bench asks of the peer: negative data (mode all), the coverage phase, every check. */
export const PEER_FLAGS = [
  '--phases',
  'examples,coverage,fuzzing',
  '--mode',
  'all',
  '--checks',
  'all',
  '--continue-on-failure',
  '--workers',
  '1',
  '--request-timeout',
  '5',
  '--suppress-health-check',
  'all',
  // Same test cases against the reference and each mutant, nothing carried between runs
  // (its example database would replay one run's failures in the next; deterministic
  // generation implies no database).
  '--generation-deterministic',
] as const;

export function peerArgs(origin: string, o: PeerOptions, configFile: string): string[] {
  return [
    '--config-file',
    configFile,
    'run',
    o.document ?? resolve(ROOT, 'contract/openapi.json'),
    '--url',
    `${origin}/api/v2`,
    ...PEER_FLAGS,
    '--max-examples',
    String(o.maxExamples),
    '--seed',
    String(o.seed),
    '--no-color',
    '--report',
    'json',
    '--report-dir',
    join(o.outDir, 'schemathesis-report'),
  ];
}

export async function runPeer(origin: string, o: PeerOptions): Promise<PeerRun> {
  await mkdir(o.outDir, { recursive: true });
  const reportDir = join(o.outDir, 'schemathesis-report');
  await rm(reportDir, { recursive: true, force: true });
  const token = await fetchToken(origin);
  // The configuration a user would write: auth header from the environment, and the
  // resource server the suite is also pointed at (IDM_RESOURCE_SERVER_ID).
  const configFile = join(o.outDir, 'schemathesis.toml');
  await writeFile(
    configFile,
    [
      'headers = { Authorization = "Bearer ${IDM_BENCH_TOKEN}" }',
      '[parameters]',
      `"path.id" = "${DEV_RESOURCES.IDM_RESOURCE_SERVER_ID}"`,
      '',
    ].join('\n'),
  );
  const args = peerArgs(origin, o, configFile);
  const res = await runLogged(
    BIN,
    args,
    { ...process.env, IDM_BENCH_TOKEN: token, NO_COLOR: '1' },
    join(o.outDir, 'schemathesis.log'),
    15 * 60_000,
  );
  const base = { exitCode: res.code, seconds: res.seconds, command: ['schemathesis', ...args] };
  try {
    const file = (await readdir(reportDir)).find((f) => f.endsWith('.json'));
    if (!file) return { ...base, failures: [], testCases: null, error: 'no JSON report' };
    const report = JSON.parse(await readFile(join(reportDir, file), 'utf8')) as {
      failures?: Array<{ code: string; title: string; operations: string[] }>;
      test_cases?: { generated?: number };
    };
    const failures = (report.failures ?? [])
      .flatMap((f) => f.operations.map((op) => `${f.code} ${op} (${f.title})`))
      .sort();
    return { ...base, failures, testCases: report.test_cases?.generated ?? null };
  } catch (e) {
    return { ...base, failures: [], testCases: null, error: (e as Error).message };
  }
}

/** A management token for the full dev client, fetched from the tenant under test. */
export async function fetchToken(origin: string): Promise<string> {
  const { token, status } = await requestDevToken(origin);
  if (!token) throw new Error(`token request to ${origin} answered ${status} without access_token`);
  return token;
}

// Helpers

function firstLine(s: string | undefined): string {
  return (s ?? '').trim().split('\n').at(-1)?.slice(0, 200) ?? '';
}
