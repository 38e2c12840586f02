// The bench's data (reports/bench.json) and its terminal table, with the goals of issue 6
// shown next to each figure. Goals are reported, never asserted: a miss is a finding.
import type { TenantStats } from '../mutation/tenant.ts';
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
  reference: { seconds: number; requests: number; exitCode: number | null; failures: string[]; testCases: number | null };
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
  };
  capacity: { cheap: LoadFigures; update: LoadFigures };
  /** The suite's request rate ÷ the tenant's raw capacity on the cheap route. */
  harnessRatio: number;
  firstFailures: Array<{ mutant: string; clause: string | null; requests: number; seconds: number; failedClauses: string[]; exitCode: number | null }>;
  rateLimited: Array<{
    rate: number;
    capacity: number;
    requests: number;
    seconds: number;
    theoreticalMinSeconds: number;
    perBucketMinSeconds: number;
    exitCode: number | null;
    throttled: number;
  }>;
  peer: PeerReport;
}

export function renderTable(r: BenchReport): string {
  const out: string[] = [];
  const row = (cells: string[], widths: number[]): string => cells.map((c, i) => c.padEnd(widths[i] ?? 10)).join('  ').trimEnd();
  const goal = (ok: boolean): string => (ok ? 'met' : 'MISSED');

  out.push(`idm-conformance bench · ${r.startedAt} · node ${r.machine.node} · ${r.machine.cpus} cores (${r.machine.cpuModel}) · seed ${r.seed}`);
  out.push('');
  const v = r.verdict;
  const w1 = [44, 22, 24];
  out.push('Default-depth verdict against the reference tenant');
  out.push(row(['  wall time (process start to exit)', `${f1(v.seconds)} s`, `goal < 30 s: ${goal(v.seconds < 30)}`], w1));
  out.push(row(['  requests (counted at the tenant)', `${v.requests}`, v.suiteReportedRequests !== null ? `suite reports ${v.suiteReportedRequests} in tests` : ''], w1));
  out.push(row(['  request rate', `${f1(v.requestsPerSecond)} req/s`, ''], w1));
  out.push(row(['  verdict', v.exitCode === 0 ? 'conformant (exit 0)' : `exit ${v.exitCode}`, v.tests ? `${v.tests.total} tests, ${v.tests.passed} passed, ${v.tests.skipped} skipped` : ''], w1));
  out.push('');
  out.push('Raw capacity of the tenant (undici, limiter out of the way)');
  for (const c of [r.capacity.cheap, r.capacity.update]) {
    out.push(row([`  ${c.route}`, `${f0(c.requestsPerSecond)} req/s`, `${c.concurrency} in flight, ${c.requests} req, p50 ${c.latencyMs.p50} ms`], w1));
  }
  out.push(row(['  suite rate ÷ cheap-route capacity', pct(r.harnessRatio), `goal ≥ 50 %: ${goal(r.harnessRatio >= 0.5)}`], w1));
  out.push('');
  out.push('Requests and time until the first failing clause (--max-failures=1)');
  const w3 = [36, 10, 10, 40];
  out.push(row(['  mutant', 'requests', 'time', 'first failing clause(s)'], w3));
  for (const f of r.firstFailures) {
    out.push(row([`  ${f.mutant}`, `${f.requests}`, `${f1(f.seconds)} s`, f.failedClauses.join(', ') || `none (exit ${f.exitCode})`], w3));
  }
  if (r.rateLimited.length) {
    out.push('');
    out.push('Verdict under an honest rate limit (token bucket, capacity = rate)');
    const w4 = [12, 10, 10, 22, 10, 16, 14];
    out.push(row(['  limit', 'requests', 'wall', 'min = requests ÷ rate', 'ratio', 'goal ≤ 1.2×', '429s served'], w4));
    for (const l of r.rateLimited) {
      const ratio = l.seconds / l.theoreticalMinSeconds;
      out.push(row([`  ${l.rate} req/s`, `${l.requests}`, `${f1(l.seconds)} s`, `${f1(l.theoreticalMinSeconds)} s`, `${ratio.toFixed(2)}×`, goal(ratio <= 1.2), `${l.throttled}`], w4));
    }
    out.push('  (the tenant keys its buckets by client and endpoint, so the busiest bucket alone needs ' +
      r.rateLimited.map((l) => `${f1(l.perBucketMinSeconds)} s at ${l.rate} req/s`).join(', ') + ')');
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
    out.push(row(['  idm-conformance (default depth)', `${f1(v.seconds)} s`, `${v.requests}`, f0(suiteReq),
      scoredSuite.length ? `${suiteCaught}/${scoredSuite.length}` : 'run npm run mutation'], w5));
    for (const c of p.configurations) {
      const scored = c.mutants.filter((m) => !m.equivalent);
      out.push(row([`  schemathesis, ${c.name}`, `${f1(c.reference.seconds)} s`, `${c.reference.requests}`, f0(avg(scored.map((m) => m.requests))),
        `${scored.filter((m) => m.caught).length}/${scored.length}`], w5));
    }
    for (const c of p.configurations) {
      out.push(`  ${c.name}: max-examples ${c.maxExamples} (requests ≈ ${c.calibration.fixedRequests} + ${c.calibration.requestsPerExample} × max-examples); ` +
        `${c.reference.failures.length} failure(s) on the unmutated reference, subtracted as its baseline: ${c.reference.failures.join('; ') || 'none'}`);
      const caught = c.mutants.filter((m) => !m.equivalent && m.caught).map((m) => m.mutant);
      out.push(`    caught by schemathesis (${caught.length}): ${caught.join(', ') || '-'}`);
      const onlyPeer = c.mutants.filter((m) => !m.equivalent && m.caught && m.suite && m.suite.verdict !== 'killed').map((m) => m.mutant);
      out.push(`    caught by schemathesis but not the suite (${onlyPeer.length}): ${onlyPeer.join(', ') || '-'}`);
      if (c.reference.exitCode !== 0 && c.reference.exitCode !== 1) out.push(`    its run against the reference broke (exit ${c.reference.exitCode}): the row above is not a result`);
      const errors = c.mutants.filter((m) => m.error).length;
      if (errors) out.push(`    ${errors} schemathesis run(s) broke (see reports/bench.json)`);
    }
  }
  return out.join('\n');
}

// Helpers

const f0 = (n: number): string => (Number.isFinite(n) ? n.toFixed(0) : 'n/a');
const f1 = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : 'n/a');
const pct = (n: number): string => (Number.isFinite(n) ? `${(n * 100).toFixed(1)} %` : 'n/a');
const avg = (ns: number[]): number => (ns.length ? ns.reduce((a, b) => a + b, 0) / ns.length : Number.NaN);
