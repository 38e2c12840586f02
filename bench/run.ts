// npm run bench [-- --skip-rate] [--skip-peer] [--peer-only] [--like-only] [--peer-mutants all|fast|none] [--seed n] [--before <bench.json>]
//                 [--compare <checkout> [--compare-rounds n]] [--like-rounds n]
// Measures, on this machine and in one run: the suite's default-depth verdict against the
// reference tenant, the tenant's raw capacity (undici load generator), requests and time to
// the first failing clause on three mutants, verdicts under 2 and 20 req/s limits, and
// Schemathesis side by side. Prints a table and writes reports/bench.json. Request counts
// are measured at the tenant (the launcher counts what it serves), not taken on trust.
import { cpus } from 'node:os';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { MUTANTS } from '../mutation/mutants.ts';
import { ROOT, pool, startVariant } from '../mutation/proc.ts';
import { runSuite, type SuiteOutcome } from '../mutation/suite.ts';
import { runLoad } from './load.ts';
import { ensurePeer, PEER_FLAGS, PEER_VERSION, runPeer, type PeerRun } from './schemathesis.ts';
import {
  renderTable,
  type BenchReport,
  type PeerConfiguration,
  type PeerSample,
  type TenantStats,
  type WallSplit,
} from './table.ts';
import type { RunMeta } from '../lib/run-meta.ts';

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '20261122' },
    'skip-rate': { type: 'boolean', default: false },
    'skip-peer': { type: 'boolean', default: false },
    'peer-mutants': { type: 'string', default: 'all' },
    'peer-only': { type: 'boolean', default: false },
    'like-only': { type: 'boolean', default: false },
    out: { type: 'string', default: 'reports/bench.json' },
    before: { type: 'string' },
    compare: { type: 'string' },
    'compare-rounds': { type: 'string', default: '2' },
    'like-rounds': { type: 'string', default: '3' },
  },
});
/** --before <bench.json>: an earlier run (e.g. of the code before a change) shown beside this one. */
const before = values.before ? (JSON.parse(await readFile(resolve(ROOT, values.before), 'utf8')) as BenchReport) : null;

/** Ports 5090-5099 are the bench's (the mutation harness uses 5000-5089). */
const PORT = {
  verdict: 5090,
  capacity: 5091,
  first: 5092,
  rate2: 5093,
  rate20: 5094,
  peer: 5095,
  peerLanes: [5096, 5097],
  fixed2: 5098,
  unlimited: 5099,
} as const;
/**
 * The rate-limited verdicts: token buckets (capacity = rate) at 20 and 2 req/s, and a fixed
 * window at 2 req/s on average (10 requests per 5-second window, epoch-aligned).
 */
const RATE_LIMITS = [
  { label: '20 req/s token bucket', kind: 'token-bucket', rate: 20, capacity: 20, port: PORT.rate20, goal: 1.0 },
  { label: '2 req/s token bucket', kind: 'token-bucket', rate: 2, capacity: 2, port: PORT.rate2, goal: 1.0 },
  {
    label: '2 req/s fixed window (10 per 5 s)',
    kind: 'fixed-window',
    rate: 2,
    capacity: 10,
    windowSeconds: 5,
    port: PORT.fixed2,
    goal: 1.0,
  },
] as const;
/**
 * The specs of the two management operations (update a resource server, create an experiment):
 * the work Schemathesis does on the same document, for the like-for-like comparison (issue 32).
 */
const MANAGEMENT_SPECS = [
  'specs/0-long-pole/',
  'specs/experiments/',
  'specs/authorization/update.spec.ts',
  'specs/authorization/experiment.spec.ts',
];
/** The limiter out of the way (capacity 10⁹): the peer's tenants always, the suite's where its own cost is measured. */
const NO_LIMIT = ['--rate', '1000000000', '--capacity', '1000000000'];
const FIRST_FAILURE_MUTANTS = ['rs-name-201-accepted', 'rs-write-not-persisted', 'auth-bad-signature-accepted'];
const SEED = Number(values.seed);
const dir = resolve(ROOT, 'reports/bench');
const log = (s: string): void => console.log(s);
/** The peer's calibration per document (calibration()), made once per run. */
const calibrations = new Map<string, Promise<{ fixed: number; perExample: number }>>();

// --peer-only / --like-only: rerun the Schemathesis comparison, or the like-for-like one, into an
// existing reports/bench.json (the other sections kept from the last run).
if (values['peer-only'] || values['like-only']) {
  const out = resolve(ROOT, values.out!);
  const previous = JSON.parse(await readFile(out, 'utf8')) as BenchReport;
  await mkdir(dir, { recursive: true });
  if (values['peer-only']) {
    log('bench: Schemathesis side by side (the other sections kept from the last run)');
    previous.peer = await comparePeer(previous.verdict.requests);
  } else {
    log('bench: like for like (the other sections kept from the last run)');
    previous.likeForLike = await compareManagement();
  }
  previous.endedAt = new Date().toISOString();
  await writeFile(out, JSON.stringify(previous, null, 2) + '\n');
  log('');
  log(renderTable(previous));
  log(`bench: wrote ${relative(ROOT, out)}`);
  process.exit(0);
}

await rm(dir, { recursive: true, force: true });
await mkdir(dir, { recursive: true });
const startedAt = new Date();

// 1. The full default-depth verdict against the reference tenant.
log('bench: 1/5 default-depth verdict against the reference tenant');
const verdict = await suiteAgainst('reference', PORT.verdict, 'verdict');
// The same with the limiter out of the way: what the suite itself costs, apart from the
// default limit's busiest bucket (DEFAULT_RATE_LIMIT, which differs per endpoint).
log('bench: 1/5 the same verdict, limiter out of the way');
const unlimited = await suiteAgainst('reference', PORT.unlimited, 'verdict-unlimited', { launcherArgs: NO_LIMIT });

// 1b. --compare <checkout>: the same two verdicts by another checkout of the suite (e.g. the
// code before a change), interleaved with this one's (ABBA), so that the ratio comes from the
// same minutes of a shared machine rather than from two bench runs under different load.
let comparison: BenchReport['comparison'] = null;
if (values.compare) {
  const other = resolve(values.compare);
  const rounds = Math.max(1, Number(values['compare-rounds']));
  const samples: NonNullable<BenchReport['comparison']>['samples'] = [];
  for (const [name, args] of [
    ['default limit', [] as string[]],
    ['limiter out of the way', NO_LIMIT],
  ] as const) {
    for (let i = 0; i < rounds; i++) {
      const order = i % 2 === 0 ? (['before', 'after'] as const) : (['after', 'before'] as const);
      for (const which of [...order, ...[...order].reverse()]) {
        log(`bench: 1/5 comparison, ${name}, ${which} (round ${i + 1}/${rounds})`);
        const r = await suiteAgainst(
          'reference',
          PORT.verdict,
          `compare-${name.split(' ')[0]}-${which}-${samples.length}`,
          { launcherArgs: [...args], ...(which === 'before' ? { root: other } : {}) },
        );
        samples.push({
          limit: name,
          which,
          seconds: r.wallSeconds,
          requests: r.tenant.total,
          burstRequests: burstRequests(r.tenant),
          exitCode: r.outcome.code,
          split: r.split,
        });
      }
    }
  }
  comparison = { checkout: other, rounds, samples };
}

// 1c. Like for like: the management operations alone, the suite and Schemathesis in turn, each
// against its own tenant with the limiter out of the way (as the peer always runs).
log('bench: 1/5 like for like: the management operations, the suite and Schemathesis in turn');
const likeForLike = await compareManagement();

// 2. Raw capacity of the tenant on a cheap route, and on the update route, limiter out of the way.
log('bench: 2/5 raw capacity (undici load generator)');
const capacity = await measureCapacity();

// 3. Requests and time until the first failing clause, on three representative mutants.
log('bench: 3/5 first failing clause on three mutants');
const firstFailures = [];
for (const id of FIRST_FAILURE_MUTANTS) {
  const r = await suiteAgainst(id, PORT.first, `first-${id}`, { extraArgs: ['--max-failures=1'] });
  const failed = r.outcome.report?.clauses.filter((c) => c.status === 'failed').map((c) => c.id) ?? [];
  firstFailures.push({
    mutant: id,
    clause: MUTANTS.find((m) => m.id === id)?.clause ?? null,
    requests: r.tenant.total,
    seconds: r.wallSeconds,
    failedClauses: failed,
    exitCode: r.outcome.code,
  });
}

// 4. The verdict under honest rate limits: token buckets at 20 and 2 req/s, a fixed window at 2.
const rateLimited = [];
if (!values['skip-rate']) {
  for (const l of RATE_LIMITS) {
    log(`bench: 4/5 verdict under ${l.label}`);
    const window = 'windowSeconds' in l ? ['--fixed-window', String(l.windowSeconds)] : [];
    const r = await suiteAgainst('reference', l.port, `rate-${l.kind}-${l.rate}`, {
      launcherArgs: ['--rate', String(l.rate), '--capacity', String(l.capacity), ...window],
      timeoutMs: 40 * 60_000,
    });
    rateLimited.push({
      label: l.label,
      kind: l.kind,
      rate: l.rate,
      capacity: l.capacity,
      ...('windowSeconds' in l ? { windowSeconds: l.windowSeconds } : {}),
      goalRatio: l.goal,
      requests: r.tenant.total,
      seconds: r.wallSeconds,
      theoreticalMinSeconds: r.tenant.total / l.rate,
      perBucketMinSeconds: perBucketMinimum(r.tenant, l.rate, l.capacity),
      exitCode: r.outcome.code,
      throttled: r.throttled,
      unintended429: r.unintended429,
      ...(r.tenant.throttledWithUserAgent ? { unintendedByBucket: r.tenant.throttledWithUserAgent } : {}),
      split: r.split,
    });
  }
}

// 5. Schemathesis, side by side.
log('bench: 5/5 Schemathesis side by side');
const peer: BenchReport['peer'] = values['skip-peer']
  ? { available: false, reason: 'skipped (--skip-peer)' }
  : await comparePeer(verdict.tenant.total);

const report: BenchReport = {
  schemaVersion: 1,
  startedAt: startedAt.toISOString(),
  endedAt: new Date().toISOString(),
  machine: { node: process.version, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown' },
  seed: SEED,
  verdict: {
    seconds: verdict.wallSeconds,
    suiteSeconds: verdict.outcome.report ? verdict.outcome.report.durationMs / 1000 : null,
    requests: verdict.tenant.total,
    suiteReportedRequests: verdict.outcome.report?.requests ?? null,
    requestsPerSecond: verdict.tenant.total / verdict.wallSeconds,
    exitCode: verdict.outcome.code,
    tests: verdict.outcome.report?.run.tests ?? null,
    buckets: verdict.tenant.buckets,
    ...(verdict.tenant.repeats ? { repeats: verdict.tenant.repeats } : {}),
    split: verdict.split,
    unintended429: verdict.unintended429,
  },
  unlimited: {
    seconds: unlimited.wallSeconds,
    requests: unlimited.tenant.total,
    exitCode: unlimited.outcome.code,
    split: unlimited.split,
  },
  mutation: await mutationWallTime(),
  comparison,
  likeForLike,
  capacity,
  harnessRatio: verdict.tenant.total / verdict.wallSeconds / capacity.cheap.requestsPerSecond,
  firstFailures,
  rateLimited,
  peer,
};
const out = resolve(ROOT, values.out!);
// The table first: a write that fails must not lose a run of several minutes.
log('');
log(renderTable(report, before));
await mkdir(dirname(out), { recursive: true });
await writeFile(out, JSON.stringify(report, null, 2) + '\n');
log(`bench: wrote ${relative(ROOT, out)} (run outputs under ${relative(ROOT, dir)}/)`);

// Helpers

interface AgainstOptions {
  /** Run another checkout of the suite (--compare). */
  root?: string;
  launcherArgs?: string[];
  extraArgs?: string[];
  timeoutMs?: number;
}

interface Against {
  outcome: SuiteOutcome;
  tenant: TenantStats;
  wallSeconds: number;
  /** 429s served, the bursts' own included. */
  throttled: number;
  /** 429s served to anything but the suite's bursts (which alone send no User-Agent). */
  unintended429: number;
  split: WallSplit | null;
}

async function suiteAgainst(variant: string, port: number, label: string, o: AgainstOptions = {}): Promise<Against> {
  const outDir = join(dir, label);
  const statsFile = join(outDir, 'tenant-stats.json');
  const tokenFile = join(outDir, '.expired.jwt');
  await mkdir(outDir, { recursive: true });
  const tenant = await startVariant(variant, port, join(outDir, 'tenant.log'), [
    '--stats-file',
    statsFile,
    '--expired-token-file',
    tokenFile,
    ...(o.launcherArgs ?? []),
  ]);
  let expiredToken: string | undefined;
  try {
    expiredToken = (await readFile(tokenFile, 'utf8')).trim();
  } catch {
    /* the suite forges its own */
  }
  await rm(tokenFile, { force: true });
  let outcome: SuiteOutcome;
  const spawnedAt = Date.now();
  try {
    outcome = await runSuite({
      origin: tenant.origin,
      outDir,
      seed: SEED,
      timeoutMs: o.timeoutMs ?? 15 * 60_000,
      ...(expiredToken ? { expiredToken } : {}),
      ...(o.extraArgs ? { extraArgs: o.extraArgs } : {}),
      ...(o.root ? { root: o.root } : {}),
    });
  } finally {
    await tenant.stop();
  }
  const stats = JSON.parse(await readFile(statsFile, 'utf8')) as TenantStats;
  // 429s served: the bursts' own (no User-Agent) and the §8 login-limit test's (too_many_attempts) are intended.
  const throttled = stats.statuses['429'] ?? 0;
  const unintended429 = throttled - (stats.statusesWithoutUserAgent?.['429'] ?? 0) - (stats.loginLimit429 ?? 0);
  return {
    outcome,
    tenant: stats,
    wallSeconds: outcome.seconds,
    throttled,
    unintended429,
    split: await wallSplit(outDir, spawnedAt, outcome.seconds),
  };
}

/** Start-up (process start to global setup), setup, tests, teardown and reports, from run-meta.json's timings. */
async function wallSplit(outDir: string, spawnedAt: number, seconds: number): Promise<WallSplit | null> {
  try {
    const meta = JSON.parse(await readFile(join(outDir, 'run-meta.json'), 'utf8')) as RunMeta;
    const t = meta.timings;
    if (!t?.teardownStartedAt) return null;
    const exitAt = spawnedAt + seconds * 1000;
    return {
      startupSeconds: (t.setupStartedAt - spawnedAt) / 1000,
      setupSeconds: (t.setupEndedAt - t.setupStartedAt) / 1000,
      testsSeconds: (t.teardownStartedAt - t.setupEndedAt) / 1000,
      teardownSeconds: (exitAt - t.teardownStartedAt) / 1000,
    };
  } catch {
    return null;
  }
}

/** The whole catalogue's wall time from the last `npm run mutation` (the bench never reruns it). */
async function mutationWallTime(): Promise<BenchReport['mutation']> {
  try {
    const m = JSON.parse(await readFile(resolve(ROOT, 'reports/mutation.json'), 'utf8')) as {
      subset: string;
      generatedAt: string;
      wallSeconds: number;
      jobs: number;
      variants: unknown[];
      summary: { killed: number; mutants: number; equivalent: number };
    };
    return {
      source: 'reports/mutation.json',
      subset: m.subset,
      generatedAt: m.generatedAt,
      wallSeconds: m.wallSeconds,
      jobs: m.jobs,
      variants: m.variants.length,
      killed: m.summary.killed,
      nonEquivalent: m.summary.mutants - m.summary.equivalent,
    };
  } catch {
    return null;
  }
}

async function measureCapacity(): Promise<BenchReport['capacity']> {
  const outDir = join(dir, 'capacity');
  const tenant = await startVariant('reference', PORT.capacity, join(outDir, 'tenant.log'), NO_LIMIT);
  try {
    const cheapPath = '/.well-known/jwks.json';
    const cheap = await runLoad({
      origin: tenant.origin,
      path: cheapPath,
      concurrency: 32,
      maxRequests: 200_000,
      maxSeconds: 5,
      warmupRequests: 500,
    });
    const tok = await (await import('./schemathesis.ts')).fetchToken(tenant.origin);
    const update = await runLoad({
      origin: tenant.origin,
      path: '/api/v2/resource-servers/rs_conformance',
      method: 'PATCH',
      headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json' },
      body: '{}',
      concurrency: 32,
      maxRequests: 100_000,
      maxSeconds: 5,
      warmupRequests: 200,
    });
    return {
      cheap: { route: `GET ${cheapPath}`, concurrency: 32, ...cheap },
      update: { route: 'PATCH /api/v2/resource-servers/rs_conformance {}', concurrency: 32, ...update },
    };
  } finally {
    await tenant.stop();
  }
}

/** Requests of the suite's two bursts (the only ones sent without a User-Agent): how many depends on the refill while they run. */
function burstRequests(t: TenantStats): number {
  return Object.values(t.statusesWithoutUserAgent ?? {}).reduce((a, b) => a + b, 0);
}

/** Under a per-(client, endpoint) limit, only the busiest bucket bounds the run: its first `capacity` at once, the rest at `rate`. */
function perBucketMinimum(t: TenantStats, rate: number, capacity: number): number {
  const counts = Object.values(t.buckets);
  return Math.max(0, ...counts.map((n) => (n - capacity) / rate));
}

async function comparePeer(suiteRequests: number): Promise<BenchReport['peer']> {
  const info = ensurePeer(log);
  if (!info.available) return { available: false as const, reason: `peer not available: ${info.reason}` };
  const suite = await suiteVerdicts();
  // The shipped document, and the same document with its form media type left out: the
  // peer flattens nested objects into form fields, which the tenant (and the spec, which
  // does not show nested form encoding) does not read that way, and its deduplication then
  // hides later failures of the same kind behind those (see bench/README.md).
  const configurations = [];
  for (const [name, document] of await peerDocuments()) {
    configurations.push(await peerConfiguration(name, document, suiteRequests, suite));
  }
  return {
    available: true,
    version: info.version ?? PEER_VERSION,
    options: [...PEER_FLAGS, '--max-examples <calibrated>', `--seed ${SEED}`],
    configuration:
      'headers = { Authorization = "Bearer <token fetched from the tenant>" }; [parameters] "path.id" = "rs_conformance"',
    configurations,
    suiteSource: suite.size ? 'reports/mutation.json' : null,
  };
}

async function peerConfiguration(
  name: string,
  document: string,
  suiteRequests: number,
  suite: Awaited<ReturnType<typeof suiteVerdicts>>,
): Promise<PeerConfiguration> {
  const tag = documentTag(document);
  const { fixed, perExample } = await calibration(document);
  const maxExamples = examplesFor(suiteRequests, { fixed, perExample });
  const baseline = await peerAgainst('reference', PORT.peer, `peer-${tag}-reference`, maxExamples, document);
  const baselineFailures = new Set(baseline.run.failures);

  const choice = values['peer-mutants'];
  const mutants = choice === 'none' ? [] : MUTANTS.filter((m) => choice === 'all' || m.fast);
  const perMutant = await pool(mutants, 2, async (m, _i, lane) => {
    try {
      const r = await peerAgainst(m.id, PORT.peerLanes[lane]!, `peer-${tag}-${m.id}`, maxExamples, document);
      const fresh = r.run.failures.filter((f) => !baselineFailures.has(f));
      return {
        mutant: m.id,
        clause: m.clause,
        equivalent: Boolean(m.equivalent),
        caught: fresh.length > 0,
        newFailures: fresh,
        requests: r.tenant.total,
        seconds: r.run.seconds,
        ...(r.run.error ? { error: r.run.error } : {}),
      };
    } catch (e) {
      return {
        mutant: m.id,
        clause: m.clause,
        equivalent: Boolean(m.equivalent),
        caught: false,
        newFailures: [],
        requests: 0,
        seconds: 0,
        error: (e as Error).message,
      };
    }
  });
  return {
    name,
    document: relative(ROOT, document),
    maxExamples,
    calibration: { fixedRequests: Math.round(fixed), requestsPerExample: Math.round(perExample * 10) / 10 },
    reference: {
      seconds: baseline.run.seconds,
      requests: baseline.tenant.total,
      exitCode: baseline.run.exitCode,
      failures: baseline.run.failures,
      testCases: baseline.run.testCases,
    },
    mutants: perMutant.map((p) => ({ ...p, suite: suite.get(p.mutant) ?? null })),
  };
}

/**
 * The peer's requests against the reference as a function of --max-examples, fitted on two runs
 * (5 and 50) once per document: requests ≈ fixed (coverage phase, probes) + per-example × max-examples.
 */
function calibration(document: string): Promise<{ fixed: number; perExample: number }> {
  let c = calibrations.get(document);
  if (!c) {
    c = (async () => {
      const tag = documentTag(document);
      const lo = await peerAgainst('reference', PORT.peer, `peer-${tag}-calibration-5`, 5, document);
      const hi = await peerAgainst('reference', PORT.peer, `peer-${tag}-calibration-50`, 50, document);
      const perExample = Math.max(0.1, (hi.tenant.total - lo.tenant.total) / 45);
      return { fixed: Math.max(0, lo.tenant.total - 5 * perExample), perExample };
    })();
    calibrations.set(document, c);
  }
  return c;
}

/** --max-examples for a request budget; the peer cannot go below its fixed part. */
function examplesFor(requests: number, c: { fixed: number; perExample: number }): number {
  return Math.max(1, Math.min(5000, Math.round((requests - c.fixed) / c.perExample)));
}

function documentTag(document: string): string {
  return document.endsWith('openapi.json') ? 'shipped' : 'json';
}

/** The shipped document, and the same with its form media type left out (written under reports/bench/). */
async function peerDocuments(): Promise<Array<readonly [string, string]>> {
  const shipped = resolve(ROOT, 'contract/openapi.json');
  const jsonOnly = join(dir, 'openapi-json-bodies.json');
  await writeFile(jsonOnly, JSON.stringify(withoutFormBodies(JSON.parse(await readFile(shipped, 'utf8'))), null, 2));
  return [
    ['contract/openapi.json as shipped', shipped],
    ['the same, JSON request bodies only', jsonOnly],
  ];
}

/**
 * The management specs alone and Schemathesis on the same document, in turn for --like-rounds
 * rounds (the order alternating), so that a shared machine's load weighs on both alike. The peer
 * gets the request budget of the suite's first run (its fixed part at least).
 */
async function compareManagement(): Promise<BenchReport['likeForLike']> {
  const rounds = Math.max(1, Number(values['like-rounds']));
  const info = values['skip-peer'] ? null : ensurePeer(log);
  const documents = info?.available ? await peerDocuments() : [];
  const suite: NonNullable<BenchReport['likeForLike']>['suite'] = [];
  const peer = documents.map(([name]) => ({ configuration: name, maxExamples: 0, samples: [] as PeerSample[] }));
  const runSuiteOnce = async (i: number) => {
    const r = await suiteAgainst('reference', PORT.unlimited, `like-suite-${i}`, {
      launcherArgs: NO_LIMIT,
      extraArgs: MANAGEMENT_SPECS,
    });
    suite.push({
      seconds: r.wallSeconds,
      requests: r.tenant.total,
      exitCode: r.outcome.code,
      tests: r.outcome.report?.run.tests.total ?? null,
      split: r.split,
    });
  };
  const runPeers = async (i: number) => {
    for (const [k, [, document]] of documents.entries()) {
      const p = peer[k]!;
      if (!p.maxExamples) p.maxExamples = examplesFor(suite[0]!.requests, await calibration(document));
      const r = await peerAgainst(
        'reference',
        PORT.peer,
        `like-peer-${documentTag(document)}-${i}`,
        p.maxExamples,
        document,
      );
      p.samples.push({ seconds: r.run.seconds, requests: r.tenant.total, exitCode: r.run.exitCode });
    }
  };
  for (let i = 0; i < rounds; i++) {
    log(`bench: 1/5 like for like, round ${i + 1}/${rounds}`);
    // The suite first in the first round: its requests are the peer's budget.
    for (const step of i % 2 === 0 ? [runSuiteOnce, runPeers] : [runPeers, runSuiteOnce]) await step(i);
  }
  return {
    specs: MANAGEMENT_SPECS,
    rounds,
    suite,
    peer: info?.available ? peer : null,
    ...(info && !info.available ? { peerUnavailable: info.reason ?? 'unknown' } : {}),
  };
}

/** The document with every application/x-www-form-urlencoded request body left out. */
function withoutFormBodies(doc: {
  paths?: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>>;
}): unknown {
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      if (op && typeof op === 'object' && op.requestBody?.content)
        delete op.requestBody.content['application/x-www-form-urlencoded'];
    }
  }
  return doc;
}

async function peerAgainst(
  variant: string,
  port: number,
  label: string,
  maxExamples: number,
  document: string,
): Promise<{ run: PeerRun; tenant: TenantStats }> {
  const outDir = join(dir, label);
  const statsFile = join(outDir, 'tenant-stats.json');
  // The limiter is set out of the way for the peer: at its own pace (~200 req/s) about three
  // quarters of its requests met 429 against the default 50/25 bucket, and which ones did
  // depended on timing, so its failures differed between identical runs (bench/README.md).
  const tenant = await startVariant(variant, port, join(outDir, 'tenant.log'), [
    '--stats-file',
    statsFile,
    ...NO_LIMIT,
  ]);
  let run: PeerRun;
  try {
    run = await runPeer(tenant.origin, { maxExamples, seed: SEED, outDir, document });
  } finally {
    await tenant.stop();
  }
  const stats = JSON.parse(await readFile(statsFile, 'utf8')) as TenantStats;
  // The token request the bench made for the peer is the bench's, not the peer's.
  return { run, tenant: { ...stats, total: Math.max(0, stats.total - 1) } };
}

/** Per-mutant suite verdicts from the last `npm run mutation` (killed / survived / …). */
async function suiteVerdicts(): Promise<
  Map<string, { verdict: string; requests: number | null; seconds: number; subset: string }>
> {
  const out = new Map<string, { verdict: string; requests: number | null; seconds: number; subset: string }>();
  try {
    const m = JSON.parse(await readFile(resolve(ROOT, 'reports/mutation.json'), 'utf8')) as {
      subset: string;
      variants: Array<{ id: string; verdict: string; requests: number | null; seconds: number }>;
    };
    for (const v of m.variants)
      out.set(v.id, { verdict: v.verdict, requests: v.requests, seconds: v.seconds, subset: m.subset });
  } catch {
    /* no mutation run yet */
  }
  return out;
}
