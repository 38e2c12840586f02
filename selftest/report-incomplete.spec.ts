// Whose reason a must clause went unexercised for (reporters/incomplete.ts): the tenant's — a
// flow declared not offered, something it legitimately does not do, a failed clause it depends
// on — or the run's own (no Chromium, a login not driven, a setting unset), which alone makes
// the verdict INCOMPLETE.
import { expect, test } from '@playwright/test';
import { namedClauses, unexercisedByRun } from '../reporters/incomplete.ts';
import { decideGate } from '../reporters/gate.ts';
import type { ClauseResult } from '../reporters/model.ts';

const clause = (id: string, status: ClauseResult['status'], reason?: string): ClauseResult => ({
  id,
  section: '4.3',
  text: id,
  kind: 'must',
  status,
  ...(reason !== undefined ? { reason } : {}),
  checks: { passed: 0, failed: 0, observed: 0 },
  tests: [],
  failures: [],
  observations: [],
});

const RUN_REASONS = [
  'browser flows: no Chromium found (tried Playwright’s Chromium …, /usr/bin/chromium): install …',
  'login not driven: the page https://t.example/u/mfa (“Verify”) (answered 200) shows fields [name=otp] (text); set …',
  'needs a public client allowed the code flow: set IDM_PUBLIC_CLIENT_ID',
  'not run in this selection',
];

test('a reason of the run makes the clause unexercised by the run; the tenant’s reasons do not', () => {
  const clauses = [
    clause('a.failed', 'failed'),
    clause('a.passed', 'passed'),
    clause('a.offered-not', 'skipped', 'not offered (IDM_NOT_OFFERED=implicit)'),
    clause('a.not-applicable', 'skipped', 'not applicable: the tenant showed no consent page'),
    clause('a.depends-on-failed', 'skipped', 'not exercised: the accepted case failed (a.failed: answered 500)'),
    clause('a.see-failed', 'skipped', 'sent as form, see a.failed'),
    clause('a.says-why', 'skipped', 'the password grant gave no token (400) — a.failed says why'),
    clause(
      'a.depends-on-not-offered',
      'skipped',
      'not exercised: the accepted case failed (a.offered-not: not offered)',
    ),
    ...RUN_REASONS.map((r, i) => clause(`a.run-${i}`, 'skipped', r)),
    // Naming a clause that passed explains nothing: the run's.
    clause('a.names-passed', 'skipped', 'not exercised: the accepted case failed (a.passed: the browser stayed at /x)'),
    // Several tests' reasons joined: the run's as soon as one part is.
    clause('a.mixed', 'skipped', `not offered (IDM_NOT_OFFERED=password) | ${RUN_REASONS[0]}`),
    // One reason may hold '; ' itself.
    clause(
      'a.inner',
      'skipped',
      'not exercised: the accepted case failed (a.failed: fragment carries x; query carries y)',
    ),
  ];
  expect(unexercisedByRun(clauses).map((u) => u.clause)).toEqual([
    'a.run-0',
    'a.run-1',
    'a.run-2',
    'a.run-3',
    'a.names-passed',
    'a.mixed',
  ]);
  expect(namedClauses('x (auth.flow.code.pkce: y); see auth.api.post-json; auth.flow.password says why')).toEqual([
    'auth.flow.code.pkce',
    'auth.api.post-json',
    'auth.flow.password',
  ]);
});

test('the gate: INCOMPLETE exits 0 unless IDM_FAIL_ON_INCOMPLETE, then 4; a failure or a broken run still wins', () => {
  const base = { playwrightStatus: 'passed', globalErrors: [], problems: [], staleBaseline: [], otherFailures: [] };
  const incomplete = [clause('a.passed', 'passed'), clause('a.run', 'skipped', RUN_REASONS[0])];
  expect(decideGate({ ...base, clauses: incomplete })).toMatchObject({ exitCode: 0, verdict: 'incomplete' });
  const gated = decideGate({ ...base, clauses: incomplete, failOnIncomplete: true });
  expect(gated).toMatchObject({ exitCode: 4, verdict: 'incomplete' });
  expect(gated.reasons).toEqual([`not exercised (1 must clause: a.run): ${RUN_REASONS[0]}`]);
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
