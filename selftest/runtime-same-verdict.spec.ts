// The same verdict, clause by clause (mutation/same-verdict.ts): the judge that holds a
// server-shape or timing variant to the reference tenant's run. On reports written by hand:
// a clause moved from passed to skipped, a skip that changed hands (the tenant's → the run's:
// INCOMPLETE), a clause only one run has and a different exit code are differences; a
// reworded skip text and a difference the variant declares are not.
import { expect, test } from '@playwright/test';
import { verdictDifferences } from '../mutation/same-verdict.ts';
import type { ClauseResult, ConformanceReport } from '../reporters/model.ts';
import type { SkipRecord } from '../lib/skip-record.ts';

type Place = Pick<ClauseResult, 'id' | 'status'> & { skips?: SkipRecord[] };
const report = (exitCode: number, clauses: Place[]): ConformanceReport =>
  ({ gate: { exitCode }, clauses }) as unknown as ConformanceReport;
const tenantSkip = (text: string): SkipRecord => ({ by: 'tenant', cause: { clause: 'auth.flow.code.pkce' }, text });
const runSkip = (text: string): SkipRecord => ({ by: 'run', cause: { setting: 'IDM_CHROMIUM' }, text });

const control = report(0, [
  { id: 'a', status: 'passed' },
  { id: 'b', status: 'skipped', skips: [tenantSkip('the tenant showed no consent page')] },
  { id: 'c', status: 'observed' },
]);

test('the same places with other words: no difference', () => {
  const here = report(0, [
    { id: 'a', status: 'passed' },
    { id: 'b', status: 'skipped', skips: [tenantSkip('ON-SCREEN WORDS CHANGED')] },
    { id: 'c', status: 'observed' },
  ]);
  expect(verdictDifferences(control, here)).toEqual([]);
});

test('a moved clause, a skip that changed hands, a missing clause and another exit code are differences', () => {
  const here = report(2, [
    { id: 'a', status: 'skipped', skips: [tenantSkip('x')] },
    { id: 'b', status: 'skipped', skips: [runSkip('x')] },
  ]);
  expect(verdictDifferences(control, here)).toEqual([
    { clause: 'a', default: 'passed', here: 'skipped by tenant' },
    { clause: 'b', default: 'skipped by tenant', here: 'skipped by run' },
    { clause: 'c', default: 'observed', here: 'absent' },
    { clause: '(gate exit code)', default: '0', here: '2' },
  ]);
});

test('a difference the variant declares is held to its declared status', () => {
  const here = report(0, [
    { id: 'a', status: 'passed' },
    { id: 'b', status: 'passed' },
    { id: 'c', status: 'observed' },
  ]);
  const why = 'a consent page makes the decline judgeable';
  expect(verdictDifferences(control, here, { b: { status: 'passed', why } })).toEqual([]);
  expect(verdictDifferences(control, here, { b: { status: 'failed', why } })).toEqual([
    { clause: 'b', default: 'skipped by tenant', here: 'passed' },
  ]);
});
