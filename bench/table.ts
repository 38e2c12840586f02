// The bench's data (reports/bench.json) and its terminal table, with the goals of issue 6
// shown next to each figure. Goals are reported, never asserted: a miss is a finding.
import { DEFAULT_RATE_LIMIT, type TenantStats } from '../mutation/tenant.ts';
import type { LoadResult } from './load.ts';

export type { TenantStats };

/** A load measurement (bench/load.ts) with the route and concurrency it was taken at. */
export interface LoadFigures extends LoadResult {
  route: string;
  concurrency: number;
}

export interface PeerMutant {
  mutant: string;
  clause: string | null;
  equivalent: boolean;
  caught: boolean;
  newFailures: string[];
  requests: number;
  seconds: number;
  error?: string;
  suite: { verdict: string; requests: number | null; seconds: number; subset: string } | null;
}

export interface PeerConfiguration {
  name: string;
  document: string;
  maxExamples: number;
  /** requests ≈ fixedRequests + requestsPerExample × max-examples, fitted on the reference */
  calibration: { fixedRequests: number; requestsPerExample: number };
  reference: {
    seconds: number;
    requests: number;
    exitCode: number | null;
    failures: string[];
    testCases: number | null;
  };
  mutants: PeerMutant[];
}

export type PeerReport =
  | { available: false; reason: string }
  | {
      available: true;
      version: string;
      options: string[];
      configuration: string;
      configurations: PeerConfiguration[];
      suiteSource: string | null;
    };

/** The wall time of a verdict split at the global setup's and teardown's timestamps. */
export interface WallSplit {
  startupSeconds: number;
  setupSeconds: number;
  testsSeconds: number;
  /** Global teardown, reporters and process exit. */
  teardownSeconds: number;
}

export interface RateLimitedVerdict {
  label?: string;
  kind?: 'token-bucket' | 'fixed-window';
  rate: number;
  capacity: number;
  windowSeconds?: number;
  goalRatio?: number;
  requests: number;
  seconds: number;
  theoreticalMinSeconds: number;
  perBucketMinSeconds: number;
  exitCode: number | null;
  /** 429s served, the bursts' own included. */
  throttled: number;
  /** 429s served to anything but the suite's bursts and the §8 login-limit test's deliberate failed logins. */
  unintended429?: number;
  /** Where they were served: 429s to requests with a User-Agent, by bucket. */
  unintendedByBucket?: Record<string, number>;
  split?: WallSplit | null;
}

export interface BenchReport {
  schemaVersion: 1;
  startedAt: string;
  endedAt: string;
  machine: { node: string; cpus: number; cpuModel: string };
  seed: number;
  verdict: {
    seconds: number;
    suiteSeconds: number | null;
    requests: number;
    suiteReportedRequests: number | null;
    requestsPerSecond: number;
    exitCode: number | null;
    tests: { total: number; passed: number; failed: number; skipped: number; flaky: number } | null;
    buckets: Record<string, number>;
    /** Paced requests repeating an earlier one byte for byte (issue 19: none for the same verdict). */
    repeats?: { total: number; buckets: Record<string, number> };
    split?: WallSplit | null;
    unintended429?: number;
  };
  capacity: { cheap: LoadFigures; update: LoadFigures };
  /** The suite's request rate ÷ the tenant's raw capacity on the cheap route. */
  harnessRatio: number;
  firstFailures: Array<{
    mutant: string;
    clause: string | null;
    requests: number;
    seconds: number;
    failedClauses: string[];
    exitCode: number | null;
  }>;
  rateLimited: RateLimitedVerdict[];
  /** The default-depth verdict with the limiter out of the way (capacity 10⁹). */
  unlimited?: { seconds: number; requests: number; exitCode: number | null; split: WallSplit | null };
  /** The whole catalogue's wall time, from the last reports/mutation.json (null: none yet). */
  mutation?: {
    source: string;
    subset: string;
    generatedAt: string;
    wallSeconds: number;
    jobs: number;
    variants: number;
    killed: number;
    nonEquivalent: number;
  } | null;
  /** --compare: the two verdicts by another checkout and by this one, interleaved in this run. */
  comparison?: {
    checkout: string;
    rounds: number;
    samples: Array<{
      limit: string;
      which: 'before' | 'after';
      seconds: number;
      requests: number;
      exitCode: number | null;
      split: WallSplit | null;
    }>;
  } | null;
  peer: PeerReport;
}

export function renderTable(r: BenchReport, before: BenchReport | null = null): string {
  const out: string[] = [];
  const row = (cells: string[], widths: number[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 10))
      .join('  ')
      .trimEnd();
  const goal = (ok: boolean): string => (ok ? 'met' : 'MISSED');

  out.push(
    `idm-conformance bench · ${r.startedAt} · node ${r.machine.node} · ${r.machine.cpus} cores (${r.machine.cpuModel}) · seed ${r.seed}`,
  );
  out.push('');
  const v = r.verdict;
  const w1 = [44, 22, 24];
  out.push('Default-depth verdict against the reference tenant');
  out.push(
    row(['  wall time (process start to exit)', `${f1(v.seconds)} s`, `goal < 30 s: ${goal(v.seconds < 30)}`], w1),
  );
  out.push(
    row(
      [
        '  requests (counted at the tenant)',
        `${v.requests}`,
        `goal ≤ 400: ${goal(v.requests <= 400)}${v.suiteReportedRequests !== null ? `; suite reports ${v.suiteReportedRequests} in tests` : ''}`,
      ],
      w1,
    ),
  );
  if (v.repeats)
    out.push(
      row(
        [
          '  of which repeat an earlier one byte for byte',
          `${v.repeats.total}`,
          Object.entries(v.repeats.buckets)
            .slice(0, 3)
            .map(([b, n]) => `${n} ${b}`)
            .join('; '),
        ],
        w1,
      ),
    );
  out.push(row(['  request rate', `${f1(v.requestsPerSecond)} req/s`, ''], w1));
  out.push(
    row(
      [
        '  verdict',
        v.exitCode === 0 ? 'conformant (exit 0)' : `exit ${v.exitCode}`,
        v.tests ? `${v.tests.total} tests, ${v.tests.passed} passed, ${v.tests.skipped} skipped` : '',
      ],
      w1,
    ),
  );
  out.push(...splitRows(v.split, before?.verdict.split ?? null, w1));
  if (before) {
    const b = before.verdict;
    const ratio = v.seconds / b.seconds;
    out.push(
      row(
        [
          '  before (--before, same machine)',
          `${f1(b.seconds)} s`,
          `${b.requests} requests; now ${ratio.toFixed(2)}× of it, goal ≤ 0.5×: ${goal(ratio <= 0.5)}`,
        ],
        w1,
      ),
    );
  }
  if (r.unlimited) {
    const u = r.unlimited;
    out.push(
      row(
        [
          '  the same, limiter out of the way',
          `${f1(u.seconds)} s`,
          `${u.requests} requests${u.exitCode === 0 ? '' : `, exit ${u.exitCode}`}`,
        ],
        w1,
      ),
    );
    out.push(...splitRows(u.split, before?.unlimited?.split ?? null, w1));
    if (before?.unlimited)
      out.push(
        row(
          [
            '    before',
            `${f1(before.unlimited.seconds)} s`,
            `now ${(u.seconds / before.unlimited.seconds).toFixed(2)}× of it`,
          ],
          w1,
        ),
      );
  }
  if (r.comparison) {
    const c = r.comparison;
    out.push(
      `  interleaved in this run with ${c.checkout} (the code before), ${c.rounds} round(s) of before/after/after/before:`,
    );
    for (const limit of [...new Set(c.samples.map((x) => x.limit))]) {
      const of = (w: 'before' | 'after') => c.samples.filter((x) => x.limit === limit && x.which === w);
      const mean = (xs: number[]): number => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
      const b = of('before');
      const a = of('after');
      const ratio = mean(a.map((x) => x.seconds)) / mean(b.map((x) => x.seconds));
      const parts = (xs: typeof b): string =>
        xs[0]?.split
          ? (['startupSeconds', 'setupSeconds', 'testsSeconds', 'teardownSeconds'] as const)
              .map((k) => f1(mean(xs.map((x) => x.split?.[k] ?? Number.NaN))))
              .join(' + ')
          : 'n/a';
      out.push(
        row(
          [
            `    ${limit}: before`,
            `${f1(mean(b.map((x) => x.seconds)))} s`,
            `${b.map((x) => f1(x.seconds)).join(', ')}; split ${parts(b)}`,
          ],
          w1,
        ),
      );
      out.push(
        row(
          [
            `    ${limit}: after`,
            `${f1(mean(a.map((x) => x.seconds)))} s`,
            `${a.map((x) => f1(x.seconds)).join(', ')}; split ${parts(a)}`,
          ],
          w1,
        ),
      );
      out.push(
        row(
          [
            `    ${limit}: after ÷ before`,
            `${ratio.toFixed(2)}×`,
            limit === 'default limit' ? `goal ≤ 0.5×: ${goal(ratio <= 0.5)}` : '',
          ],
          w1,
        ),
      );
    }
    out.push('    (split = start-up + global setup + tests + teardown, means in seconds)');
  }
  const busiest = Object.entries(v.buckets)[0];
  if (busiest) {
    const l = defaultLimitOf(busiest[0]);
    out.push(
      `  (default limit per client and endpoint, differing per endpoint: the busiest bucket, ${busiest[0]}, ${busiest[1]} requests at ${l.capacity} at once and ${l.refillPerSecond}/s, alone needs ${f1(Math.max(0, (busiest[1] - l.capacity) / l.refillPerSecond))} s)`,
    );
  }
  out.push('');
  out.push('Raw capacity of the tenant (undici, limiter out of the way)');
  for (const c of [r.capacity.cheap, r.capacity.update]) {
    out.push(
      row(
        [
          `  ${c.route}`,
          `${f0(c.requestsPerSecond)} req/s`,
          `${c.concurrency} in flight, ${c.requests} req, p50 ${c.latencyMs.p50} ms`,
        ],
        w1,
      ),
    );
  }
  out.push(
    row(
      ['  suite rate ÷ cheap-route capacity', pct(r.harnessRatio), `goal ≥ 50 %: ${goal(r.harnessRatio >= 0.5)}`],
      w1,
    ),
  );
  out.push('');
  out.push('Requests and time until the first failing clause (--max-failures=1)');
  const w3 = [36, 10, 10, 40];
  out.push(row(['  mutant', 'requests', 'time', 'first failing clause(s)'], w3));
  for (const f of r.firstFailures) {
    out.push(
      row(
        [
          `  ${f.mutant}`,
          `${f.requests}`,
          `${f1(f.seconds)} s`,
          f.failedClauses.join(', ') || `none (exit ${f.exitCode})`,
        ],
        w3,
      ),
    );
  }
  if (r.rateLimited.length) {
    out.push('');
    out.push('Verdict under honest rate limits (per client and endpoint)');
    const w4 = [36, 9, 9, 11, 7, 20, 9, 11, 30];
    out.push(
      row(['  limit', 'requests', 'wall', 'req ÷ rate', 'ratio', 'goal', 'busiest', 'unint. 429', 'before'], w4),
    );
    for (const l of r.rateLimited) {
      const ratio = l.seconds / l.theoreticalMinSeconds;
      const g = l.goalRatio ?? 1.2;
      const ok = ratio <= g && (l.unintended429 ?? 0) === 0;
      const b = before?.rateLimited.find(
        (x) => (x.label ?? `${x.rate} req/s token bucket`) === (l.label ?? `${l.rate} req/s token bucket`),
      );
      const was = b
        ? `${f1(b.seconds)} s, ${(b.seconds / b.theoreticalMinSeconds).toFixed(2)}×, ${b.unintended429 ?? '?'} unint.`
        : '';
      out.push(
        row(
          [
            `  ${l.label ?? `${l.rate} req/s`}`,
            `${l.requests}`,
            `${f1(l.seconds)} s`,
            `${f1(l.theoreticalMinSeconds)} s`,
            `${ratio.toFixed(2)}×`,
            `≤ ${g}× & 0: ${goal(ok)}`,
            `${f1(l.perBucketMinSeconds)} s`,
            `${l.unintended429 ?? '?'} (${l.throttled})`,
            was,
          ],
          w4,
        ),
      );
    }
    for (const l of r.rateLimited) {
      const where = Object.entries(l.unintendedByBucket ?? {});
      if (where.length > 0)
        out.push(
          `  unintended 429s at ${l.label ?? `${l.rate} req/s`}: ${where.map(([k, n]) => `${n} ${k}`).join('; ')}`,
        );
    }
    out.push(
      "  (busiest = the busiest bucket's bound: its first `capacity` at once, the rest at the rate; unint. 429 = answered 429 to anything",
    );
    out.push(
      "   but the suite's bursts and the §8 login-limit test's own refusals, in brackets all 429s served; before = the --before run)",
    );
  }
  if (r.mutation !== undefined) {
    out.push('');
    const m = r.mutation;
    out.push(
      m
        ? `Mutation catalogue (last npm run mutation, ${m.generatedAt}, subset ${m.subset}, ${m.jobs} jobs): ${f1(m.wallSeconds)} s wall for ${m.variants} variants, ${m.killed}/${m.nonEquivalent} non-equivalent killed` +
            (before?.mutation ? `; before: ${f1(before.mutation.wallSeconds)} s` : '')
        : 'Mutation catalogue: no reports/mutation.json yet (the bench never runs the whole catalogue itself)',
    );
  }
  out.push('');
  const p = r.peer;
  if (!p.available) {
    out.push(`Schemathesis: ${p.reason}`);
  } else {
    out.push(`Side by side with Schemathesis ${p.version}: ${p.options.join(' ')}`);
    out.push(`  its configuration: ${p.configuration}`);
    const first = p.configurations[0];
    const scoredSuite = (first?.mutants ?? []).filter((m) => !m.equivalent && m.suite);
    const suiteCaught = scoredSuite.filter((m) => m.suite!.verdict === 'killed').length;
    const suiteReq = avg(scoredSuite.map((m) => m.suite!.requests ?? 0));
    const w5 = [46, 12, 20, 14, 22];
    out.push(row(['  tool', 'verdict', 'requests (reference)', 'mean per run', 'non-equivalent caught'], w5));
    out.push(
      row(
        [
          '  idm-conformance (default depth)',
          `${f1(v.seconds)} s`,
          `${v.requests}`,
          f0(suiteReq),
          scoredSuite.length ? `${suiteCaught}/${scoredSuite.length}` : 'run npm run mutation',
        ],
        w5,
      ),
    );
    for (const c of p.configurations) {
      const scored = c.mutants.filter((m) => !m.equivalent);
      out.push(
        row(
          [
            `  schemathesis, ${c.name}`,
            `${f1(c.reference.seconds)} s`,
            `${c.reference.requests}`,
            f0(avg(scored.map((m) => m.requests))),
            `${scored.filter((m) => m.caught).length}/${scored.length}`,
          ],
          w5,
        ),
      );
    }
    const shipped = p.configurations[0];
    if (shipped) {
      const ratio = v.seconds / shipped.reference.seconds;
      out.push(
        row(
          [
            '  suite verdict ÷ schemathesis (as shipped)',
            `${ratio.toFixed(1)}×`,
            `goal ≤ 2×: ${goal(ratio <= 2)} (${f1(v.seconds)} s vs ${f1(shipped.reference.seconds)} s)`,
          ],
          w1,
        ),
      );
    }
    for (const c of p.configurations) {
      out.push(
        `  ${c.name}: max-examples ${c.maxExamples} (requests ≈ ${c.calibration.fixedRequests} + ${c.calibration.requestsPerExample} × max-examples); ` +
          `${c.reference.failures.length} failure(s) on the unmutated reference, subtracted as its baseline: ${c.reference.failures.join('; ') || 'none'}`,
      );
      const caught = c.mutants.filter((m) => !m.equivalent && m.caught).map((m) => m.mutant);
      out.push(`    caught by schemathesis (${caught.length}): ${caught.join(', ') || '-'}`);
      const onlyPeer = c.mutants
        .filter((m) => !m.equivalent && m.caught && m.suite && m.suite.verdict !== 'killed')
        .map((m) => m.mutant);
      out.push(`    caught by schemathesis but not the suite (${onlyPeer.length}): ${onlyPeer.join(', ') || '-'}`);
      if (c.reference.exitCode !== 0 && c.reference.exitCode !== 1)
        out.push(
          `    its run against the reference broke (exit ${c.reference.exitCode}): the row above is not a result`,
        );
      const errors = c.mutants.filter((m) => m.error).length;
      if (errors) out.push(`    ${errors} schemathesis run(s) broke (see reports/bench.json)`);
    }
  }
  return out.join('\n');
}

// Helpers

/** The reference tenant's default limit of a bucket `<client> <METHOD> <path>` (its endpoints differ, §8). */
function defaultLimitOf(bucket: string): { capacity: number; refillPerSecond: number } {
  const route = /PATCH \/api\/v2\/resource-servers\//.test(bucket)
    ? 'rs.update'
    : /POST \/oauth\/token/.test(bucket)
      ? 'oauth.token'
      : '';
  return DEFAULT_RATE_LIMIT.perEndpoint?.[route] ?? DEFAULT_RATE_LIMIT;
}

function splitRows(sp: WallSplit | null | undefined, was: WallSplit | null, widths: number[]): string[] {
  if (!sp) return [];
  const row = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 10))
      .join('  ')
      .trimEnd();
  const parts: Array<[string, keyof WallSplit]> = [
    ['start-up', 'startupSeconds'],
    ['global setup', 'setupSeconds'],
    ['tests', 'testsSeconds'],
    ['teardown, reports, exit', 'teardownSeconds'],
  ];
  return parts.map(([name, k]) => row([`    ${name}`, `${f1(sp[k])} s`, was ? `before ${f1(was[k])} s` : '']));
}

const f0 = (n: number): string => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');
const f1 = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const pct = (n: number): string => (Number.isFinite(n) ? `${(n * 100).toFixed(1)} %` : 'n/a');
const avg = (ns: number[]): number => (ns.length ? ns.reduce((a, b) => a + b, 0) / ns.length : Number.NaN);
