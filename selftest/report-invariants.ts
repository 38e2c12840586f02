// What holds of every report the self-tests make (issue 30): the must clauses' counts add up and
// none is only "observed"; no skip blames a clause that held; a fault (a 5xx answer) is one cause,
// failing one must clause at most (issue 39); and the verdict, the exit code, INCOMPLETE and the
// root causes stay the same when every text for people is rewritten at random — each skip's, each
// failure's and observation's message, each error's line (issue 39) — the records and the codes
// decide (lib/skip-record.ts, lib/errors.ts).
import { decideGate } from '../reporters/gate.ts';
import { causesThatHeld, unexercisedByRun } from '../reporters/incomplete.ts';
import type { ClauseResult, ConformanceReport } from '../reporters/model.ts';
import { byRootCause } from '../reporters/root-causes.ts';

/** What the reporter decides from the clauses (the gate's reasons quote texts, so only their codes count). */
export function judgement(clauses: readonly ClauseResult[], r: Pick<ConformanceReport, 'run' | 'gate'>) {
  const gate = decideGate({
    clauses,
    playwrightStatus: r.run.playwrightStatus,
    globalErrors: r.run.errors,
    problems: [],
    staleBaseline: [],
    otherFailures: [],
    failOnIncomplete: r.gate.exitCode === 4,
  });
  return {
    exitCode: gate.exitCode,
    verdict: gate.verdict,
    incomplete: unexercisedByRun(clauses).map((u) => u.clause),
    rootCauses: byRootCause(
      clauses,
      clauses.filter((c) => c.status === 'failed'),
    ).map((o) => `${o.clause.id} <- ${o.dependants.join(',')}`),
  };
}

/** Random skip texts from `seed`, the words the reporter once parsed among them (naming clauses of `ids`). */
export function textScrambler(seed: number, ids: readonly string[]): () => string {
  const next = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!;
  return () =>
    pick([
      () => 'not offered (IDM_NOT_OFFERED=password)',
      () => 'not applicable: the tenant does not do this',
      () => `not exercised: the accepted case failed (${pick(ids)}: answered 400)`,
      () => `see ${pick(ids)}`,
      () => `${pick(ids)} says why`,
      () => 'needs a client: set IDM_POST_CLIENT_ID',
      () => 'not run in this selection',
      () => '',
      () =>
        Array.from({ length: 1 + Math.floor(next() * 40) }, () =>
          String.fromCharCode(32 + Math.floor(next() * 95)),
        ).join(''),
    ])();
}

/** Every text for people rewritten from `seed`: skips (and the reason joined from them), failures, observations. */
function scrambled(clauses: readonly ClauseResult[], seed: number): ClauseResult[] {
  const words = textScrambler(
    seed,
    clauses.map((c) => c.id),
  );
  return clauses.map((c) => {
    const failures = c.failures.map((f) => ({ ...f, message: words() }));
    const observations = c.observations.map((o) => ({ ...o, observation: words(), message: words() }));
    if (c.skips === undefined) return { ...c, failures, observations };
    const skips = c.skips.map((s) => ({ ...s, text: words() }));
    return { ...c, failures, observations, skips, reason: skips.map((s) => s.text).join(' | ') };
  });
}

/** The run's error lines rewritten from `seed`, their codes kept. */
function scrambledErrors(
  r: Pick<ConformanceReport, 'run' | 'gate'>,
  seed: number,
): Pick<ConformanceReport, 'run' | 'gate'> {
  const words = textScrambler(seed, []);
  return { ...r, run: { ...r.run, errors: r.run.errors.map((e) => ({ ...e, line: words() })) } };
}

/** The invariants a report breaks, one line each (empty when it keeps them all). */
export function reportInvariants(r: ConformanceReport, seeds: readonly number[] = [1, 2, 3]): string[] {
  const out: string[] = [];
  const must = r.clauses.filter((c) => c.kind === 'must');
  for (const c of must)
    if (!['passed', 'failed', 'skipped', 'expected-failure'].includes(c.status))
      out.push(`must clause ${c.id} is ${c.status}: a must clause is passed, failed, skipped or an expected failure`);
  const m = r.totals.must;
  if (m.passed + m.failed + m.skipped + m.expectedFailures !== m.total)
    out.push(
      `must counts do not add up: ${m.passed} passed + ${m.failed} failed + ${m.skipped} skipped + ${m.expectedFailures} expected failures ≠ ${m.total}`,
    );
  if (m.total !== must.length) out.push(`totals.must.total ${m.total} ≠ ${must.length} must clauses`);
  const byStatus = Object.values(r.totals.byStatus).reduce((a, b) => a + b, 0);
  if (byStatus !== r.totals.clauses) out.push(`byStatus sums to ${byStatus}, not ${r.totals.clauses} clauses`);
  for (const c of r.clauses)
    if (c.status === 'skipped' && c.kind === 'must' && (c.skips ?? []).length === 0)
      out.push(`skipped must clause ${c.id} carries no skip record`);
  out.push(...causesThatHeld(r.clauses).map((w) => `suite bug: ${w}`));
  out.push(...faultsCountedTwice(r.clauses));
  const base = judgement(r.clauses, r);
  const reported = r.incomplete.map((u) => u.clause);
  if (JSON.stringify(base.incomplete) !== JSON.stringify(reported))
    out.push(`INCOMPLETE recomputed ${base.incomplete.join(', ')} ≠ reported ${reported.join(', ')}`);
  for (const seed of seeds) {
    const again = judgement(scrambled(r.clauses, seed), scrambledErrors(r, seed));
    if (JSON.stringify(again) !== JSON.stringify(base))
      out.push(
        `texts for people rewritten (seed ${seed}) changed the judgement: ${JSON.stringify(base)} → ${JSON.stringify(again)}`,
      );
  }
  return out;
}

/**
 * A 5xx answer is one cause (lib/answer-class.ts: a fault, never read, accepted or refused): the
 * must clauses failing on one such exchange, told apart by the evidence's data (test, request,
 * status), never by the failures' words, are one at most.
 */
export function faultsCountedTwice(clauses: readonly ClauseResult[]): string[] {
  const byExchange = new Map<string, { what: string; clauses: Set<string> }>();
  for (const c of clauses) {
    if (c.kind !== 'must') continue;
    for (const f of c.failures) {
      const { request, response } = f.evidence ?? {};
      if (!request || !response || response.status < 500) continue;
      const key = JSON.stringify([f.test, request.method, request.url, request.headers, request.body ?? null]);
      let seen = byExchange.get(key);
      if (!seen)
        byExchange.set(
          key,
          (seen = { what: `${request.method} ${request.url} answered ${response.status}`, clauses: new Set() }),
        );
      seen.clauses.add(c.id);
    }
  }
  return [...byExchange.values()]
    .filter((e) => e.clauses.size > 1)
    .map(
      (e) => `one fault counted under ${e.clauses.size} must clauses (${[...e.clauses].sort().join(', ')}): ${e.what}`,
    );
}

/** mulberry32: a small seeded generator, so a scramble that breaks something can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
