// One cause, one failure (issue 24): over a run's report, no single exchange fails two must
// clauses for the same rule. A failure's message is the case it describes, then the rule it
// states ("user info with garbage" / "expected a 4xx, got 200"). An exchange is what the
// failure's evidence shows was sent — the test, method, URL, headers and body — and the case:
// redaction hides what tells two certificates or tokens apart, the description does not. Two
// clauses failing one exchange with the same statement are one cause counted twice; different
// statements (no error object, no error member; two schema keywords) are different rules.
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
      const described = f.message.slice(0, f.message.length - rule.length);
      const key = JSON.stringify([f.test, req.method, req.url, req.headers, req.body ?? null, described, rule]);
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
