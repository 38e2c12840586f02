// interop/verdict.ts: how a leg of the interop matrix is judged from its runs' clauses. Cases
// are made-up reports: a clean leg, then each way a leg fails (a failure outside expected.json,
// an expected deviation that did not occur, an offered flow not judged for a reason of the run,
// two runs that disagree), and the Management API's clauses kept out of the half.
import { expect, test } from '@playwright/test';
import { type ExpectedDeviation, judgeLeg, type ReportClause } from '../interop/verdict.ts';

const APIS = { by: 'run', cause: { setting: 'IDM_APIS' }, text: 'the Management API is not under test' } as const;
const NOT_OFFERED = { by: 'tenant', cause: { setting: 'IDM_NOT_OFFERED' }, text: 'not offered' } as const;
const NO_BROWSER = { by: 'run', cause: {}, text: 'no Chromium found' } as const;

const clause = (id: string, status: string, skips: ReportClause['skips'] = []): ReportClause => ({
  id,
  kind: 'must',
  status,
  skips,
  failures: status === 'failed' ? [{ message: `${id} answered otherwise\nsecond line` }] : [],
});
const DEVIATION: ExpectedDeviation = { evidence: 'e', standard: 's', why: 'w' };

const run = (...over: ReportClause[]): ReportClause[] => {
  const base = [
    clause('auth.flow.code.pkce', 'passed'),
    clause('auth.api.post-json', 'failed'),
    clause('auth.flow.password', 'skipped', [NOT_OFFERED]),
    clause('rs.update.closed', 'skipped', [APIS]),
    { ...clause('auth.flow.logout', 'observed'), kind: 'observe' },
  ];
  return base.map((c) => over.find((o) => o.id === c.id) ?? c);
};
const EXPECTED = { 'auth.api.post-json': DEVIATION };

test("clean: every must clause of the half passed, failed as expected or skipped as the server's; the groups count the first run", () => {
  const v = judgeLeg([run(), run()], EXPECTED);
  expect(v.problems).toEqual([]);
  expect(v.clean).toBe(true);
  expect(v.groups).toEqual({
    'auth.flow': { passed: 1, failed: 0, expected: 0, skipped: 1 },
    'auth.api': { passed: 0, failed: 0, expected: 1, skipped: 0 },
  });
  expect(Object.keys(v.clauses)).not.toContain('rs.update.closed');
});

test('a failure not in expected.json fails the leg, naming the clause and its first line', () => {
  const v = judgeLeg(
    [run(clause('auth.flow.code.pkce', 'failed')), run(clause('auth.flow.code.pkce', 'failed'))],
    EXPECTED,
  );
  expect(v.clean).toBe(false);
  expect(v.problems).toHaveLength(2);
  expect(v.problems[0]).toContain('auth.flow.code.pkce failed, not in expected.json');
  expect(v.problems[0]).not.toContain('second line');
});

test('an expected deviation that did not occur is stale, and one the catalogue lacks is named', () => {
  const v = judgeLeg([run(clause('auth.api.post-json', 'passed'))], { ...EXPECTED, 'auth.no.such': DEVIATION });
  expect(v.clean).toBe(false);
  expect(v.problems.some((p) => p.includes('auth.api.post-json did not occur'))).toBe(true);
  expect(v.problems.some((p) => p.includes('auth.no.such, which the catalogue does not have'))).toBe(true);
});

test("an offered flow skipped for a reason of the run fails the leg; the Management API's record beside the server's does not", () => {
  const notJudged = judgeLeg([run(clause('auth.flow.code.pkce', 'skipped', [NO_BROWSER]))], EXPECTED);
  expect(notJudged.clean).toBe(false);
  expect(notJudged.problems[0]).toContain('no Chromium found');
  const beside = judgeLeg([run(clause('auth.flow.password', 'skipped', [NOT_OFFERED, APIS]))], EXPECTED);
  expect(beside.problems).toEqual([]);
});

test('two runs that disagree on a clause fail the leg, naming both outcomes', () => {
  const v = judgeLeg([run(), run(clause('auth.flow.password', 'passed'))], EXPECTED);
  expect(v.clean).toBe(false);
  expect(v.problems).toEqual(['the runs disagree on auth.flow.password: skipped / passed']);
});

test('no run at all is not clean', () => {
  expect(judgeLeg([], {}).clean).toBe(false);
});
