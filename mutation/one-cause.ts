// One cause, one failure (issue 24): over a run's report, no single exchange fails two must
// clauses for the same rule. An exchange is what a failure's evidence shows was sent — the test,
// method, URL, headers and body (redacted alike, so one request reads the same wherever it is
// named). The rule a failure names is its statement after the case description ("expected a 4xx,
// got 200" in "user info with garbage: expected a 4xx, got 200"): two clauses failing one
// exchange with the same statement are one cause counted twice; different statements (no error
// object, no error member; two schema keywords) are different rules it broke.
import type { ConformanceReport } from '../reporters/model.ts';

export interface DoubleCount {
  test: string;
  /** METHOD URL of the exchange. */
  exchange: string;
  /** The statement both failures make. */
  rule: string;
  clauses: string[];
}

export function doubleCounted(report: ConformanceReport): DoubleCount[] {
  const byExchangeAndRule = new Map<string, { test: string; exchange: string; rule: string; clauses: Set<string> }>();
  for (const c of report.clauses) {
    if (c.kind !== 'must') continue;
    for (const f of c.failures) {
      const req = f.evidence?.request;
      if (!req) continue;
      const rule = ruleOf(f.message);
      const key = JSON.stringify([f.test, req.method, req.url, req.headers, req.body ?? null, rule]);
      let entry = byExchangeAndRule.get(key);
      if (!entry) {
        entry = { test: f.test, exchange: `${req.method} ${req.url}`, rule, clauses: new Set() };
        byExchangeAndRule.set(key, entry);
      }
      entry.clauses.add(c.id);
    }
  }
  return [...byExchangeAndRule.values()]
    .filter((e) => e.clauses.size > 1)
    .map((e) => ({ test: e.test, exchange: e.exchange, rule: e.rule, clauses: [...e.clauses].sort() }));
}

/** The statement a failure makes about what it saw, without the description of the case. */
export function ruleOf(message: string): string {
  const at = message.lastIndexOf(': ');
  return at < 0 ? message : message.slice(at + 2);
}
