// Whose reason a must clause went unexercised for (reporters/incomplete.ts), from the skip
// records alone: the tenant's — a flow declared not offered, something it legitimately does not
// do, a failed clause it depends on — or the run's own (no Chromium, a login not driven, a
// setting unset), which alone makes the verdict INCOMPLETE. The words decide nothing.
import { expect, test } from '@playwright/test';
import { causesThatHeld, unexercisedByRun } from '../reporters/incomplete.ts';
import { decideGate } from '../reporters/gate.ts';
import type { ClauseResult } from '../reporters/model.ts';
import { clauseSkip, runSkip, tenantSkip, type SkipRecord } from '../lib/skip-record.ts';

const clause = (id: string, status: ClauseResult['status'], ...skips: SkipRecord[]): ClauseResult => ({
  id,
  section: '4.3',
  text: id,
  kind: 'must',
  status,
  ...(skips.length > 0 ? { skips, reason: skips.map((r) => r.text).join(' | ') } : {}),
  checks: { passed: 0, failed: 0, observed: 0 },
  tests: [],
  failures: [],
  observations: [],
});

const RUN_SKIPS = [
  runSkip({ setting: 'IDM_CHROMIUM' }, 'browser flows: no Chromium binary at /usr/bin/chromium (install …)'),
  runSkip({ page: 'https://t.example/u/mfa' }, 'login not driven: the page https://t.example/u/mfa shows fields'),
  runSkip({ setting: 'IDM_PUBLIC_CLIENT_ID' }, 'needs a public client: set IDM_PUBLIC_CLIENT_ID'),
  runSkip({}, 'not run in this selection'),
];
const NOT_OFFERED = tenantSkip({ setting: 'IDM_NOT_OFFERED', answer: 'not-offered' }, 'not offered');

test('a record of the run makes the clause unexercised by the run; the tenant\u2019s records do not', () => {
  const clauses = [
    clause('a.failed', 'failed'),
    clause('a.passed', 'passed'),
    clause('a.offered-not', 'skipped', NOT_OFFERED),
    clause('a.not-applicable', 'skipped', tenantSkip({}, 'the tenant showed no consent page')),
    clause('a.depends-on-failed', 'skipped', clauseSkip('a.failed', 'whatever the words')),
    clause('a.depends-on-not-offered', 'skipped', clauseSkip('a.offered-not', 'x')),
    // Words that name a failed clause, in a record of the run: still the run's.
    clause('a.words', 'skipped', runSkip({}, 'not exercised: the accepted case failed (a.failed: 500), see a.failed')),
    ...RUN_SKIPS.map((r, i) => clause(`a.run-${i}`, 'skipped', r)),
    // Naming a clause that passed explains nothing: the run's (and a suite bug).
    clause('a.names-passed', 'skipped', clauseSkip('a.passed', 'the browser stayed at /x')),
    // Several tests' records: the run's as soon as one is.
    clause('a.mixed', 'skipped', NOT_OFFERED, RUN_SKIPS[0]!),
    // A chain ending at the run's reason is the run's.
    clause('a.chain', 'skipped', clauseSkip('a.run-2', 'y')),
  ];
  expect(unexercisedByRun(clauses).map((u) => u.clause)).toEqual([
    'a.words',
    'a.run-0',
    'a.run-1',
    'a.run-2',
    'a.run-3',
    'a.names-passed',
    'a.mixed',
    'a.chain',
  ]);
  expect(causesThatHeld(clauses)).toEqual([
    'a.names-passed is skipped naming a.passed as its cause, yet a.passed passed',
  ]);
});

test('the gate: INCOMPLETE exits 0 unless IDM_FAIL_ON_INCOMPLETE, then 4; a failure or a broken run still wins', () => {
  const base = { playwrightStatus: 'passed', globalErrors: [], problems: [], staleBaseline: [], otherFailures: [] };
  const incomplete = [clause('a.passed', 'passed'), clause('a.run', 'skipped', RUN_SKIPS[0]!)];
  expect(decideGate({ ...base, clauses: incomplete })).toMatchObject({ exitCode: 0, verdict: 'incomplete' });
  const gated = decideGate({ ...base, clauses: incomplete, failOnIncomplete: true });
  expect(gated).toMatchObject({ exitCode: 4, verdict: 'incomplete' });
  expect(gated.reasons).toEqual([`not exercised (1 must clause: a.run): ${RUN_SKIPS[0]!.text}`]);
  const failing = [...incomplete, clause('a.failed', 'failed')];
  expect(decideGate({ ...base, clauses: failing, failOnIncomplete: true })).toMatchObject({
    exitCode: 1,
    verdict: 'non-conformant',
  });
  expect(decideGate({ ...base, clauses: [clause('a.passed', 'passed')] })).toEqual({
    exitCode: 0,
    verdict: 'conformant',
    reasons: [],
  });
});
