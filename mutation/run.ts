// npm run mutation [-- --subset fast|all] [--only a,b] [--jobs 2] [--workers 1] [--seed n] [--depth d]
//                   [--exhaustive] [--list]
// Runs the real conformance suite, through configuration only, against every variant of
// the reference tenant in mutation/mutants.ts; writes reports/mutation.json; exits 1 when a
// non-equivalent mutant survives, a benign variant fails, or a run breaks.
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runSettings } from '../lib/config/run.ts';
import type { ConformanceReport } from '../reporters/model.ts';
import { VARIANTS } from './mutants.ts';
import { ROOT, pool, startVariant, type Started } from './proc.ts';
import { clauseGrep, clauseGrepAll, runSuite } from './suite.ts';
import { doubleCounted, type DoubleCount } from './one-cause.ts';
import { verdictDifferences, type VerdictDifference } from './same-verdict.ts';
import type { Variant } from './variant.ts';

/**
 * Ports 5000-5089 are the harness's (5090-5099 the bench's), less those fetch() refuses as
 * "bad ports" (the Fetch standard's list: SIP 5060/5061, X11 6000, IRC 6665-6669, …). Each
 * lane of the pool takes every `jobs`-th of them in turn, so no two lanes ever share a port
 * and a lane comes back to one only after many runs. IDM_MUTATION_PORT_BASE moves the range,
 * so that two checkouts can run the harness at once.
 */
const PORT_BASE = runSettings().mutationPortBase;
const FETCH_BAD_PORTS = new Set([5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080]);
export const MUTATION_PORTS = Array.from({ length: 90 }, (_, i) => PORT_BASE + i).filter(
  (p) => !FETCH_BAD_PORTS.has(p),
);

export type Verdict =
  | 'killed'
  | 'survived'
  | 'equivalent'
  | 'killed-equivalent'
  | 'passed'
  | 'false-alarm'
  | 'differs'
  | 'error';

export interface FailedClause {
  clause: string;
  tests: string[];
  message: string;
}

export interface VariantResult {
  id: string;
  kind: Variant['kind'];
  clause: string | null;
  fault: string;
  description: string;
  equivalent?: string;
  verdict: Verdict;
  /** Mutants: whether the labelled clause is among the failed ones. */
  onTarget: boolean | null;
  failed: FailedClause[];
  exitCode: number | null;
  seconds: number;
  requests: number | null;
  grep: string | null;
  log: string;
  error?: string;
  /** Exchanges that failed two must clauses for one rule (mutation/one-cause.ts): a suite bug. */
  doubleCounted?: DoubleCount[];
  /** Same-verdict variants (`asDefault`): the default run they were held to, and where they left it. */
  comparedWith?: string;
  differs?: VerdictDifference[];
}

const { values } = parseArgs({
  options: {
    subset: { type: 'string', default: 'all' },
    only: { type: 'string' },
    jobs: { type: 'string', default: '2' },
    workers: { type: 'string', default: '1' },
    seed: { type: 'string', default: '20261122' },
    depth: { type: 'string' },
    out: { type: 'string', default: 'reports/mutation.json' },
    list: { type: 'boolean', default: false },
    exhaustive: { type: 'boolean', default: false },
  },
});

if (values.list) {
  // The catalogue as a Markdown table (mutation/README.md embeds it).
  console.log('| id | kind | fault | clause | fast | what it does |');
  console.log('|---|---|---|---|---|---|');
  for (const v of VARIANTS) {
    const what = v.equivalent ? `${v.description} — *equivalent*: ${v.equivalent}` : v.description;
    console.log(
      `| \`${v.id}\` | ${v.kind} | ${v.fault} | ${v.clause ? `\`${v.clause}\`` : '—'} | ${v.fast && !v.slow ? 'yes' : ''} | ${what.replaceAll('|', '\\|')} |`,
    );
  }
  process.exit(0);
}

const subset = values.subset === 'fast' ? 'fast' : 'all';
let chosen: Variant[] = VARIANTS;
// --only names variants whatever the subset; the subset then says only how each run selects.
if (subset === 'fast' && !values.only) chosen = chosen.filter((v) => v.fast && !v.slow);
if (values.only) {
  const ids = new Set(values.only.split(','));
  const unknown = [...ids].filter((id) => !VARIANTS.some((v) => v.id === id));
  if (unknown.length) {
    console.error(`mutation: unknown variant(s): ${unknown.join(', ')}`);
    process.exit(2);
  }
  chosen = chosen.filter((v) => ids.has(v.id));
}

// The reference tenant as shipped, once per selection a same-verdict variant is compared on.
const controlOf = (v: Variant): Variant | null => {
  if (!v.asDefault) return null;
  const apis = subset === 'fast' ? v.asDefault.apis : null;
  return {
    id: `default-${apis ?? 'all'}`,
    kind: 'benign',
    clause: null,
    fault: 'spec-silent',
    description: `the reference tenant as shipped (${apis ? `IDM_APIS=${apis}` : 'whole suite'}): the verdict same-verdict variants are held to`,
    ...(apis ? { asDefault: { apis } } : {}),
    options: () => ({}),
  };
};
const controls = [
  ...new Map(
    chosen
      .map(controlOf)
      .filter((c) => c !== null)
      .map((c) => [c.id, c]),
  ).values(),
];
const isControl = (id: string): boolean => controls.some((c) => c.id === id);
const reports = new Map<string, ConformanceReport>();

const runDir = resolve(ROOT, 'reports/mutation');
const t0 = performance.now();
const jobs = Math.max(1, Math.min(Number(values.jobs), MUTATION_PORTS.length));
console.log(
  `mutation: ${chosen.length} variants${controls.length ? ` and ${controls.length} default run(s) to compare with` : ''} (${subset === 'fast' ? 'fast subset, suite filtered by clause tag' : 'whole suite per variant'}), ${jobs} at a time, seed ${values.seed}`,
);

// A port by lane, not by the variant's place in the catalogue: once --only or the fast subset
// had picked two variants 88 places apart, they ran at once on one port (EADDRINUSE).
const runsOnLane: number[] = [];
const ran = await pool([...controls, ...chosen], jobs, async (v, _i, lane) => {
  const k = (runsOnLane[lane] = (runsOnLane[lane] ?? -1) + 1);
  const port = MUTATION_PORTS[lane + jobs * (k % Math.floor(MUTATION_PORTS.length / jobs))]!;
  const r = await runVariant(v, port);
  if (!v.asDefault || isControl(v.id)) console.log(line(r));
  return r;
});
const controlResults = ran.filter((r) => isControl(r.id));
const results = ran.filter((r) => !isControl(r.id)).map((r) => compared(r, chosen.find((v) => v.id === r.id)!));
for (const r of results) if (r.comparedWith) console.log(line(r));

const mutants = results.filter((r) => r.kind === 'mutant');
const benign = results.filter((r) => r.kind === 'benign');
const countOf = (vs: VariantResult[], verdict: Verdict): number => vs.filter((r) => r.verdict === verdict).length;
const nonEquivalent = mutants.filter((r) => !r.equivalent);
const killed = countOf(mutants, 'killed');
const summary = {
  mutants: mutants.length,
  killed,
  survived: countOf(mutants, 'survived'),
  equivalent: countOf(mutants, 'equivalent'),
  killedEquivalent: countOf(mutants, 'killed-equivalent'),
  killedOnTarget: mutants.filter((r) => r.verdict === 'killed' && r.onTarget).length,
  errors: countOf(results, 'error'),
  /** killed / non-equivalent mutants */
  killRate: nonEquivalent.length ? Math.round((killed / nonEquivalent.length) * 1000) / 1000 : null,
  benign: benign.length,
  benignPassed: countOf(benign, 'passed'),
  falseAlarms: countOf(benign, 'false-alarm'),
  /** Same-verdict variants whose verdict differs from the default run's, clause by clause. */
  verdictDiffers: countOf(benign, 'differs'),
  /** Default runs (the reference tenant as shipped) that were not conformant: nothing to compare with. */
  controlsFailed: controlResults.filter((r) => r.verdict !== 'passed').length,
  /** Variants whose report counts one cause twice (one exchange, one rule, two must clauses). */
  doubleCounted: results.filter((r) => (r.doubleCounted ?? []).length > 0).length,
};
const failedRun =
  summary.survived +
    summary.killedEquivalent +
    summary.falseAlarms +
    summary.verdictDiffers +
    summary.controlsFailed +
    summary.errors +
    summary.doubleCounted >
  0;

const report = {
  schemaVersion: 1,
  generatedAt: new Date().toISOString(),
  subset,
  seed: Number(values.seed),
  depth: values.depth ?? 'default',
  jobs,
  workersPerRun: Number(values.workers),
  stopAtFirstFailure: !values.exhaustive,
  wallSeconds: round((performance.now() - t0) / 1000),
  summary,
  ok: !failedRun,
  controls: controlResults,
  variants: results,
};
const out = resolve(ROOT, values.out!);
await mkdir(resolve(out, '..'), { recursive: true });
await writeFile(out, JSON.stringify(report, null, 2) + '\n');

console.log('');
console.log(
  `mutation: ${summary.killed}/${nonEquivalent.length} non-equivalent mutants killed (kill rate ${summary.killRate === null ? 'n/a' : `${(summary.killRate * 100).toFixed(1)}%`}, ` +
    `${summary.killedOnTarget} by their own clause), ${summary.survived} survived, ${summary.equivalent} equivalent; ` +
    `benign ${summary.benignPassed}/${summary.benign} passed` +
    (controls.length ? ` (${summary.verdictDiffers} with another verdict than the default)` : '') +
    `; ${summary.errors} run errors; ` +
    `${summary.doubleCounted} with one cause counted twice; ${report.wallSeconds}s`,
);
console.log(`mutation: wrote ${relative(ROOT, out)}`);
process.exit(failedRun ? 1 : 0);

// Helpers

/** A same-verdict variant that passed, held to its default run clause by clause. */
function compared(r: VariantResult, v: Variant): VariantResult {
  const control = controlOf(v);
  if (!control || r.verdict !== 'passed') return r;
  const base = reports.get(control.id);
  const mine = reports.get(v.id);
  if (!base || !mine || controlResults.find((c) => c.id === control.id)?.verdict !== 'passed')
    return { ...r, verdict: 'error', comparedWith: control.id, error: `the default run ${control.id} did not pass` };
  const differs = verdictDifferences(base, mine, v.asDefault?.except);
  return { ...r, comparedWith: control.id, ...(differs.length ? { verdict: 'differs', differs } : {}) };
}

async function runVariant(v: Variant, port: number): Promise<VariantResult> {
  const outDir = join(runDir, v.id);
  const grep =
    subset !== 'fast' || v.asDefault
      ? null
      : v.grepAll
        ? clauseGrepAll(v.grepAll)
        : clauseGrep(v.grep ?? (v.clause ? [v.clause] : []));
  const base: Omit<VariantResult, 'verdict' | 'onTarget' | 'failed' | 'exitCode' | 'seconds' | 'requests'> = {
    id: v.id,
    kind: v.kind,
    clause: v.clause,
    fault: v.fault,
    description: v.description,
    ...(v.equivalent ? { equivalent: v.equivalent } : {}),
    grep,
    log: relative(ROOT, join(outDir, 'suite.log')),
  };
  // A mutant is killed by its first failing must clause; running on costs time and proves
  // nothing more (--exhaustive lists every clause it breaks). Benign variants and survivors
  // always run the whole selection; so does a mutant whose first failure named no clause
  // (e.g. the suite could not restore the resource server), on a fresh tenant.
  const stopEarly = v.kind === 'mutant' && !values.exhaustive;
  const first = await attempt(v, port, outDir, grep, stopEarly);
  const result = { ...base, ...first };
  if (stopEarly && first.verdict === 'error' && first.stoppedEarly) {
    const again = await attempt(v, port, outDir, grep, false);
    return { ...base, ...again, seconds: round(first.seconds + again.seconds) };
  }
  return result;
}

type Attempt = Pick<
  VariantResult,
  'verdict' | 'onTarget' | 'failed' | 'exitCode' | 'seconds' | 'requests' | 'error' | 'doubleCounted'
> & { stoppedEarly?: boolean };

async function attempt(
  v: Variant,
  port: number,
  outDir: string,
  grep: string | null,
  stopEarly: boolean,
): Promise<Attempt> {
  await rm(outDir, { recursive: true, force: true });
  await mkdir(outDir, { recursive: true });
  const tokenFile = join(tmpdir(), `idm-mutation-${process.pid}-${port}.jwt`);
  let tenant: Started | undefined;
  try {
    tenant = await startVariant(isControl(v.id) ? 'reference' : v.id, port, join(outDir, 'tenant.log'), [
      '--expired-token-file',
      tokenFile,
    ]);
  } catch (e) {
    return {
      verdict: 'error',
      onTarget: null,
      failed: [],
      exitCode: null,
      seconds: 0,
      requests: null,
      error: (e as Error).message,
    };
  }
  let expiredToken: string | undefined;
  try {
    expiredToken = (await readFile(tokenFile, 'utf8')).trim();
  } catch {
    /* the suite then forges its own expired token */
  }
  await rm(tokenFile, { force: true });
  try {
    const res = await runSuite({
      origin: tenant.origin,
      outDir,
      seed: values.seed,
      ...(values.depth ? { depth: values.depth } : {}),
      ...(grep ? { grep } : {}),
      ...(expiredToken ? { expiredToken } : {}),
      workers: Number(values.workers),
      ...(v.env || (v.asDefault && subset === 'fast')
        ? { extraEnv: { ...v.env, ...(v.asDefault && subset === 'fast' ? { IDM_APIS: v.asDefault.apis } : {}) } }
        : {}),
      ...(stopEarly ? { extraArgs: ['--max-failures=1'] } : {}),
      timeoutMs: (v.slow ? 20 : subset === 'fast' ? 3 : 10) * 60_000,
    });
    const common = { exitCode: res.code, seconds: round(res.seconds), requests: res.report?.requests ?? null };
    if (!res.report || res.timedOut) {
      return {
        ...common,
        verdict: 'error',
        onTarget: null,
        failed: [],
        error: res.timedOut ? 'suite timed out' : `no conformance.json (${res.reportError ?? ''})`,
      };
    }
    const stoppedEarly = stopEarly && res.report.run.stoppedEarly === true;
    const doubles = doubleCounted(res.report);
    reports.set(v.id, res.report);
    return {
      ...common,
      ...judge(v, res.report, res.code),
      stoppedEarly,
      ...(doubles.length > 0 ? { doubleCounted: doubles } : {}),
    };
  } finally {
    await tenant.stop();
  }
}

function judge(
  v: Variant,
  report: ConformanceReport,
  code: number | null,
): Pick<VariantResult, 'verdict' | 'onTarget' | 'failed' | 'error'> {
  const failed: FailedClause[] = report.clauses
    .filter((c) => c.status === 'failed')
    .map((c) => ({
      clause: c.id,
      tests: c.failures.length
        ? [...new Set(c.failures.map((f) => f.test))]
        : c.tests.filter((t) => t.status !== 'passed' && t.status !== 'skipped').map((t) => `${t.file} › ${t.title}`),
      message: c.failures[0]?.message ?? '',
    }));
  const gate = report.gate.exitCode;
  if (gate >= 2 || (code !== 0 && code !== 1)) {
    return { verdict: 'error', onTarget: null, failed, error: report.gate.reasons[0] ?? `suite exited ${code}` };
  }
  const conformant = gate === 0;
  if (v.kind === 'benign') {
    return conformant
      ? { verdict: 'passed', onTarget: null, failed }
      : { verdict: 'false-alarm', onTarget: null, failed, ...gateReason(report, failed) };
  }
  const onTarget = failed.some((f) => f.clause === v.clause);
  if (conformant) return { verdict: v.equivalent ? 'equivalent' : 'survived', onTarget: false, failed };
  if (failed.length === 0)
    return {
      verdict: 'error',
      onTarget: false,
      failed,
      error: report.gate.reasons[0] ?? 'suite failed without a failed clause',
    };
  return { verdict: v.equivalent ? 'killed-equivalent' : 'killed', onTarget, failed };
}

function gateReason(report: ConformanceReport, failed: FailedClause[]): { error?: string } {
  if (failed.length) return {};
  return report.gate.reasons[0] ? { error: report.gate.reasons[0] } : {};
}

function line(r: VariantResult): string {
  const mark: Record<Verdict, string> = {
    killed: 'KILLED  ',
    survived: 'SURVIVED',
    equivalent: 'EQUIV   ',
    'killed-equivalent': 'OVERSPEC',
    passed: 'PASSED  ',
    'false-alarm': 'FALSE-AL',
    differs: 'DIFFERS ',
    error: 'ERROR   ',
  };
  const by = r.failed.length
    ? ` by ${r.failed
        .slice(0, 3)
        .map((f) => f.clause)
        .join(', ')}${r.failed.length > 3 ? ` +${r.failed.length - 3}` : ''}`
    : '';
  const target = r.kind === 'mutant' && r.verdict === 'killed' && !r.onTarget ? ' (not by its own clause)' : '';
  const twice = r.doubleCounted?.length
    ? ` — one cause counted twice: ${r.doubleCounted.map((d) => `${d.clauses.join(' + ')} (${d.rule})`).join('; ')}`
    : '';
  const differs = r.differs?.length
    ? ` — not the default's verdict: ${r.differs.map((d) => `${d.clause} (${d.default} → ${d.here})`).join('; ')}`
    : r.comparedWith && r.verdict === 'passed'
      ? ` — the verdict of ${r.comparedWith}, clause by clause`
      : '';
  return `  ${mark[r.verdict]} ${r.id.padEnd(44)} ${String(r.seconds).padStart(6)}s ${r.clause ?? ''}${by}${target}${r.error ? ` — ${r.error}` : ''}${twice}${differs}`;
}

function round(n: number): number {
  return Math.round(n * 10) / 10;
}
