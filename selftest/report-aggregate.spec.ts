// The reporter's decisions from synthetic results, without Playwright runs: status
// derivation, totals, baseline validation and application, the gate, the summary and the
// HTML header (the target named, and the authentication API when it has its own origin).
import { expect, test } from '@playwright/test';
import { runSkip } from '../lib/skip-record.ts';
import { aggregate, judgedNothing, NOT_RUN_REASON } from '../reporters/aggregate.ts';
import { applyBaseline, BaselineError, parseBaseline } from '../reporters/baseline.ts';
import { buildReport, type BuildInput } from '../reporters/build-report.ts';
import { decideGate } from '../reporters/gate.ts';
import { exitCodeOf } from '../lib/errors.ts';
import { renderHtml } from '../reporters/html.ts';
import type { CatalogueEntry, CheckRecord, ClauseResult, ConformanceReport, TestOutcome } from '../reporters/model.ts';
import { renderSummary } from '../reporters/summary.ts';

const catalogue: CatalogueEntry[] = [
  { id: 'rs.update.name.max-length', section: '2.2', text: 'name: max length 200', kind: 'must', severity: 'critical' },
  { id: 'rs.update.token-lifetime.range', section: '2.2', text: 'token_lifetime 0..2592000', kind: 'must' },
  { id: 'exp.create.status', section: '4.2', text: 'success status: not shown', kind: 'observe' },
  { id: 'auth.mgmt.scope.forbidden', section: '7.1', text: '403 without scope', kind: 'must' },
  {
    id: 'rs.update.identifier.conflict',
    section: '7.1',
    text: '409 on identifier conflict',
    kind: 'not-exercisable',
    reason: 'cannot be provoked',
  },
  { id: 'limits.allocations.min', section: '8', text: 'allocations: at least 1', kind: 'must' },
];

test.describe('status derivation', () => {
  test('a failed check fails its clause even when other checks passed', () => {
    const r = statusOf('rs.update.name.max-length', [
      t('a', {
        clauses: ['rs.update.name.max-length'],
        checks: [ok('rs.update.name.max-length'), bad('rs.update.name.max-length')],
        status: 'failed',
      }),
      t('b', { clauses: ['rs.update.name.max-length'], checks: [ok('rs.update.name.max-length')] }),
    ]);
    expect(r.status).toBe('failed');
    expect(r.checks).toEqual({ passed: 2, failed: 1, observed: 0 });
    expect(r.failures[0]?.message).toBe('expected 400, got 201');
    expect(r.failures[0]?.evidence?.curl).toContain('curl');
    expect(r.tests.map((x) => x.title)).toEqual(['a', 'b']);
  });

  test('a test that went on but judged none of its clauses, each skipped with a record, is a skipped test', () => {
    const unbreached = {
      by: 'tenant' as const,
      cause: { answer: 'accepted' as const },
      text: 'no 429 after 50 updates',
    };
    const burst = t('burst', {
      clauses: ['rs.update.name.max-length', 'rs.update.token-lifetime.range'],
      clauseSkips: { 'rs.update.name.max-length': unbreached, 'rs.update.token-lifetime.range': unbreached },
    });
    expect(judgedNothing(burst)).toEqual(unbreached);
    // One clause judged, or one not skipped: the test judged something, or left a clause unaccounted for.
    expect(judgedNothing({ ...burst, checks: [ok('rs.update.name.max-length')] })).toBeNull();
    expect(judgedNothing({ ...burst, clauseSkips: { 'rs.update.name.max-length': unbreached } })).toBeNull();
    expect(judgedNothing({ ...burst, status: 'failed' })).toBeNull();
  });

  test('passed checks alone pass the clause', () => {
    expect(
      statusOf('rs.update.token-lifetime.range', [t('a', { checks: [ok('rs.update.token-lifetime.range')] })]).status,
    ).toBe('passed');
  });

  test('a skipped declaring test leaves the clause skipped with its reason', () => {
    const r = statusOf('auth.mgmt.scope.forbidden', [
      t('a', {
        clauses: ['auth.mgmt.scope.forbidden'],
        status: 'skipped',
        skip: runSkip({ setting: 'IDM_LIMITED_CLIENT_ID' }, 'limited client not configured'),
      }),
    ]);
    expect(r).toMatchObject({
      status: 'skipped',
      reason: 'limited client not configured',
      skips: [{ by: 'run', cause: { setting: 'IDM_LIMITED_CLIENT_ID' }, text: 'limited client not configured' }],
    });
  });

  test('a must clause no test declares is skipped as not run in this selection', () => {
    expect(statusOf('limits.allocations.min', [])).toMatchObject({ status: 'skipped', reason: NOT_RUN_REASON });
  });

  test('not-exercisable comes from the catalogue with its reason', () => {
    expect(statusOf('rs.update.identifier.conflict', [])).toMatchObject({
      status: 'not-exercisable',
      reason: 'cannot be provoked',
    });
  });

  test('an observe clause is observed with what the target did', () => {
    const r = statusOf('exp.create.status', [t('a', { checks: [seen('exp.create.status', 'answered 201')] })]);
    expect(r.status).toBe('observed');
    expect(r.observations.map((o) => o.observation)).toEqual(['answered 201']);
  });

  test('an observe clause never fails, even on a failed check', () => {
    const { clauses, warnings } = aggregate(catalogue, [
      t('a', { checks: [bad('exp.create.status')], status: 'failed' }),
    ]);
    expect(clauses.find((c) => c.id === 'exp.create.status')?.status).toBe('observed');
    expect(warnings.join('\n')).toContain('observe clause exp.create.status');
  });

  test('a declaring test that errored before its checks fails its must clauses', () => {
    const r = statusOf('rs.update.name.max-length', [
      t('a', { clauses: ['rs.update.name.max-length'], status: 'failed', error: 'TypeError: x is undefined' }),
    ]);
    expect(r.status).toBe('failed');
    expect(r.failures[0]?.message).toContain('errored before checking this clause: TypeError: x is undefined');
  });

  test('a test failing on one clause does not fail the other clauses it declares', () => {
    const tests = [
      t('a', {
        clauses: ['rs.update.name.max-length', 'rs.update.token-lifetime.range'],
        checks: [bad('rs.update.name.max-length')],
        status: 'failed',
      }),
    ];
    expect(statusOf('rs.update.token-lifetime.range', tests)).toMatchObject({ status: 'skipped' });
    expect(aggregate(catalogue, tests).problems).toEqual([]);
  });

  test('a failed check stops nothing: a clause its test ran on without judging is never skipped naming that failure', () => {
    const ranOn = t('a', {
      clauses: ['rs.update.name.max-length', 'rs.update.token-lifetime.range'],
      checks: [bad('rs.update.name.max-length')],
      status: 'failed',
    });
    const same = (x: TestOutcome) => statusOf('rs.update.token-lifetime.range', [x]).skips;
    // As the test would leave it had it passed: no record names the failed clause.
    expect(same(ranOn)).toEqual(same({ ...ranOn, checks: [ok('rs.update.name.max-length')], status: 'passed' }));
    expect(same(ranOn)).toEqual([
      runSkip({}, 'declared by 1 test(s) but no check recorded for rs.update.token-lifetime.range'),
    ]);
    // A clause that could not be judged without the failed one names it in its own record: that one stands.
    const needs = { by: 'tenant' as const, cause: { clause: 'rs.update.name.max-length' }, text: 'needs the name' };
    expect(same({ ...ranOn, clauseSkips: { 'rs.update.token-lifetime.range': needs } })).toEqual([needs]);
  });

  test('a test that stopped on an error of its own after a failed check leaves its unjudged clauses for that error, the run’s', () => {
    const stopped = runSkip(
      {},
      'not reached: its test stopped on an error before judging it (Test timeout of 30000ms exceeded.)',
    );
    const r = statusOf('rs.update.token-lifetime.range', [
      t('a', {
        clauses: ['rs.update.name.max-length', 'rs.update.token-lifetime.range'],
        checks: [bad('rs.update.name.max-length')],
        status: 'failed',
        stopped,
      }),
    ]);
    expect(r).toMatchObject({ status: 'skipped', skips: [stopped] });
    // Before any failed check, an error fails the clauses it left (errored early), as ever.
    expect(
      statusOf('rs.update.token-lifetime.range', [
        t('b', { clauses: ['rs.update.token-lifetime.range'], status: 'failed', error: 'boom', stopped }),
      ]).status,
    ).toBe('failed');
  });

  test('a test that errors with only observe clauses is a problem of the run, not a verdict', () => {
    const { clauses, problems } = aggregate(catalogue, [
      t('a', { clauses: ['exp.create.status'], status: 'failed', error: 'boom' }),
    ]);
    expect(clauses.find((c) => c.id === 'exp.create.status')).toMatchObject({ status: 'skipped' });
    expect(problems).toEqual(['test "specs/x.spec.ts › a" failed without a failing must-clause check: boom']);
  });

  test('a clause id missing from the catalogue is reported', () => {
    const { problems } = aggregate(catalogue, [t('a', { checks: [ok('rs.update.nmae.max-length')] })]);
    expect(problems[0]).toContain('unknown clause id "rs.update.nmae.max-length"');
  });
});

test.describe('report totals', () => {
  test('the headline counts must clauses passed over must clauses exercised', () => {
    const { report } = buildReport(
      input([
        t('a', { checks: [bad('rs.update.name.max-length')], status: 'failed' }),
        t('b', { checks: [ok('rs.update.token-lifetime.range')] }),
        t('c', { checks: [seen('exp.create.status', 'answered 201')] }),
      ]),
    );
    expect(report.totals.conformance).toEqual({ passed: 1, exercised: 2, percent: 50 });
    expect(report.totals.must).toMatchObject({ total: 4, exercised: 2, skipped: 2 });
    expect(report.totals.byStatus).toEqual({
      failed: 1,
      'expected-failure': 0,
      passed: 1,
      observed: 1,
      skipped: 2,
      'not-exercisable': 1,
    });
    expect(report.bySection['7.1']).toMatchObject({ skipped: 1, 'not-exercisable': 1 });
    expect(report.clauses.map((c) => c.section)).toEqual(['2.2', '2.2', '4.2', '7.1', '7.1', '8']);
    expect(report.gate).toMatchObject({ exitCode: 1, verdict: 'non-conformant' });
  });

  test('request counts recorded by tests are summed, absent ones give null', () => {
    expect(buildReport(input([t('a', { requests: 3 }), t('b', { requests: 4 })])).report.requests).toBe(7);
    expect(buildReport(input([t('a', {})])).report.requests).toBeNull();
  });
});

test.describe('baseline', () => {
  test('an empty list is a valid baseline', () => {
    expect(parseBaseline([])).toEqual([]);
  });

  for (const [what, doc, fragment] of [
    ['an object instead of a list', {}, 'must be a JSON array'],
    ['an unknown field', [{ clause: 'a.b', reason: 'x', ticket: 'T-1' }], 'unknown field "ticket"'],
    ['a missing reason', [{ clause: 'a.b' }], '"reason" must be a non-empty string'],
    ['a clause that is not an id', [{ clause: 'Name Length', reason: 'x' }], '"clause" must be a clause id'],
    ['a link that is not a URL', [{ clause: 'a.b', reason: 'x', link: 'JIRA-12' }], '"link" must be an absolute URL'],
    [
      'a clause listed twice',
      [
        { clause: 'a.b', reason: 'x' },
        { clause: 'a.b', reason: 'y' },
      ],
      'listed twice',
    ],
  ] as const) {
    test(`${what} is rejected with one line naming it`, () => {
      let error: unknown;
      try {
        parseBaseline(doc, 'known-deviations.json');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(BaselineError);
      const line = (error as BaselineError).line();
      expect(line).toMatch(/^idm-conformance: IDM_E_BASELINE_INVALID: known-deviations\.json: /);
      expect(line).toContain(fragment);
      expect(line).not.toContain('\n');
    });
  }

  test('a listed failing clause becomes an expected failure', () => {
    const clauses = derived([t('a', { checks: [bad('rs.update.name.max-length')], status: 'failed' })]);
    const out = applyBaseline(
      clauses,
      catalogue,
      [{ clause: 'rs.update.name.max-length', reason: 'tenant allows 255', link: 'https://tracker.example/T-1' }],
      null,
    );
    expect(out.clauses.find((c) => c.id === 'rs.update.name.max-length')).toMatchObject({
      status: 'expected-failure',
      reason: 'tenant allows 255',
    });
    expect(out).toMatchObject({ applied: ['rs.update.name.max-length'], stale: [] });
  });

  test('listed clauses that pass, are unknown or cannot fail are stale', () => {
    const clauses = derived([t('a', { checks: [ok('rs.update.name.max-length'), seen('exp.create.status', '201')] })]);
    const out = applyBaseline(
      clauses,
      catalogue,
      [
        { clause: 'rs.update.name.max-length', reason: 'was broken' },
        { clause: 'rs.gone.clause', reason: 'old' },
        { clause: 'exp.create.status', reason: 'odd' },
      ],
      null,
    );
    expect(out.stale).toEqual([
      'rs.update.name.max-length: listed in the baseline but passed in this run (remove the entry)',
      'rs.gone.clause: listed in the baseline but not in the clause catalogue',
      'exp.create.status: listed in the baseline but its kind is observe, it can never fail',
    ]);
  });

  test('a listed clause not exercised in this run is neither applied nor stale', () => {
    const out = applyBaseline(derived([]), catalogue, [{ clause: 'limits.allocations.min', reason: 'x' }], null);
    expect(out).toMatchObject({ applied: [], stale: [] });
    expect(out.clauses.find((c) => c.id === 'limits.allocations.min')?.status).toBe('skipped');
  });

  test('an entry scoped to another target does not apply', () => {
    const clauses = derived([t('a', { checks: [bad('rs.update.name.max-length')], status: 'failed' })]);
    const entry = {
      clause: 'rs.update.name.max-length',
      reason: 'staging only',
      target: 'https://staging.example.com',
    };
    expect(applyBaseline(clauses, catalogue, [entry], 'https://prod.example.com').applied).toEqual([]);
    expect(applyBaseline(clauses, catalogue, [entry], 'https://STAGING.example.com/').applied).toEqual([
      'rs.update.name.max-length',
    ]);
  });
});

test.describe('gate', () => {
  test('a baselined failure passes the gate; an unlisted one fails it', () => {
    const failing = [t('a', { checks: [bad('rs.update.name.max-length')], status: 'failed' })];
    expect(buildReport(input(failing)).report.gate.exitCode).toBe(1);
    const listed = buildReport({
      ...input(failing),
      baseline: { path: 'b.json', entries: [{ clause: 'rs.update.name.max-length', reason: 'known' }] },
    });
    // The catalogue's other must clauses were not run in this selection: incomplete, exit 0.
    expect(listed.report.gate).toMatchObject({ exitCode: 0, verdict: 'incomplete' });
  });

  test('observations never fail the gate', () => {
    const { report } = buildReport(input([t('a', { checks: [seen('exp.create.status', 'answered 418')] })]));
    expect(report.gate.exitCode).toBe(0);
  });

  test('a stale or invalid baseline is a configuration error (exit 2)', () => {
    const passing = [t('a', { checks: [ok('rs.update.name.max-length')] })];
    const stale = buildReport({
      ...input(passing),
      baseline: { path: 'b.json', entries: [{ clause: 'rs.update.name.max-length', reason: 'old' }] },
    });
    expect(stale.report.gate).toMatchObject({ exitCode: 2, verdict: 'config-error' });
    expect(stale.report.gate.reasons[0]).toContain('stale baseline entry: rs.update.name.max-length');
    const invalid = buildReport({
      ...input(passing),
      baseline: {
        path: 'b.json',
        entries: [],
        error: {
          code: 'IDM_E_BASELINE_INVALID',
          line: 'idm-conformance: IDM_E_BASELINE_INVALID: b.json: not valid JSON',
        },
      },
    });
    expect(invalid.report.gate.exitCode).toBe(2);
  });

  test('the suite error codes map to the documented exit codes', () => {
    expect(exitCodeOf('IDM_E_TARGET_UNREACHABLE')).toBe(3);
    expect(exitCodeOf('IDM_E_CREDENTIALS_REJECTED')).toBe(3);
    expect(exitCodeOf('IDM_E_CONFIG_MISSING')).toBe(2);
    expect(exitCodeOf('IDM_E_BASELINE_STALE')).toBe(2);
    expect(exitCodeOf(null)).toBe(1);
  });

  test('global errors decide the code before clause verdicts do', () => {
    const base = {
      clauses: [] as ClauseResult[],
      playwrightStatus: 'failed',
      problems: [],
      staleBaseline: [],
      otherFailures: [],
    };
    const err = (code: string | null, line: string) => [{ code, line }];
    expect(decideGate({ ...base, globalErrors: err('IDM_E_TARGET_UNREACHABLE', 'x') }).exitCode).toBe(3);
    expect(decideGate({ ...base, globalErrors: err('IDM_E_CONFIG_MISSING', 'x') }).exitCode).toBe(2);
    // The code decides, never the words: a line that reads like a code but carries none broke the run.
    expect(decideGate({ ...base, globalErrors: err(null, 'idm-conformance: IDM_E_CONFIG_MISSING: x') }).exitCode).toBe(
      1,
    );
    expect(decideGate({ ...base, globalErrors: err(null, 'Error: in global setup') })).toMatchObject({
      exitCode: 1,
      verdict: 'run-broken',
    });
    expect(
      decideGate({
        ...base,
        globalErrors: [],
        otherFailures: ['test "setup › token" failed outside the conformance project'],
      }).exitCode,
    ).toBe(1);
    expect(decideGate({ ...base, globalErrors: [], playwrightStatus: 'timedout' }).exitCode).toBe(1);
  });
});

test('the terminal summary lists counts by status and section and the failing clauses', () => {
  const { report } = buildReport(input([t('a', { checks: [bad('rs.update.name.max-length')], status: 'failed' })]));
  const text = renderSummary(report, { color: false });
  expect(text).toContain('Must clauses passed / exercised: 0/1');
  expect(text).toMatch(/^all\s+1\s+0\s+0\s+0\s+4\s+1\s+6$/m);
  expect(text).toMatch(/^§2\.2\s+1\s+0\s+0\s+0\s+1\s+0\s+2$/m);
  expect(text).toContain('✗ rs.update.name.max-length (§2.2) name: max length 200');
  expect(text).toContain("curl -X PATCH 'http://127.0.0.1:4810/api/v2/resource-servers/rs_conformance'");
  expect(text).toContain('Verdict: NON-CONFORMANT (exit 1)');
  expect(text.trimEnd().split('\n').at(-1)).toBe('Clauses: 0 passed, 1 failed, 3 skipped');
  expect(text.indexOf('§2.2')).toBeLessThan(text.indexOf('§8'));
});

test.describe('the authentication API apart (IDM_AUTH_URL): the summary, the HTML header and conformance.json', () => {
  const MANAGEMENT = input([]).meta.target!;
  const AUTH = 'https://login.example.com';
  const built = (authTarget: string | null | undefined) =>
    buildReport({ ...input([]), meta: { ...input([]).meta, ...(authTarget === undefined ? {} : { authTarget }) } })
      .report;
  const targetLine = (report: ConformanceReport) =>
    renderSummary(report, { color: false })
      .split('\n')
      .find((l) => l.startsWith('Conformance of '));
  const header = (html: string) => html.slice(html.indexOf('<header>'), html.indexOf('</header>'));

  test('a separate origin: both named, each by its API', () => {
    const report = built(AUTH);
    expect({ target: report.target, authTarget: report.authTarget }).toEqual({ target: MANAGEMENT, authTarget: AUTH });
    expect(targetLine(report)).toBe(
      `Conformance of ${MANAGEMENT} (management API) and ${AUTH} (authentication API)  depth quick · seed 7 · idm-conformance 0.0.0`,
    );
    const html = renderHtml(report);
    expect(header(html)).toContain(`<span class="api">management API</span> ${MANAGEMENT}`);
    expect(header(html)).toContain(`<span class="api">authentication API</span> ${AUTH}`);
    expect(html).toContain(`<title>Conformance — ${MANAGEMENT} · ${AUTH}</title>`);
  });

  test('one origin for both (or none known): no authTarget, the target named alone as before', () => {
    for (const same of [undefined, null, MANAGEMENT, `${MANAGEMENT}/`]) {
      const report = built(same);
      expect('authTarget' in report, String(same)).toBe(false);
      expect(targetLine(report)).toBe(`Conformance of ${MANAGEMENT}  depth quick · seed 7 · idm-conformance 0.0.0`);
      const html = renderHtml(report);
      expect(header(html)).toContain(`<div class="target">${MANAGEMENT}</div>`);
      expect(html).not.toContain('authentication API</span>');
      expect(html).toContain(`<title>Conformance — ${MANAGEMENT}</title>`);
    }
  });
});

test('the HTML report groups the clauses not exercised by their reason, one row a reason, as the summary does', () => {
  const noBrowser = runSkip({ setting: 'IDM_CHROMIUM' }, `browser flows: no Chromium binary (${'x'.repeat(300)})`);
  const noClient = runSkip({ setting: 'IDM_PUBLIC_CLIENT_ID' }, 'needs a public client: set IDM_PUBLIC_CLIENT_ID');
  const skipped = (title: string, clauses: string[], record: typeof noBrowser) =>
    t(title, { clauses, status: 'skipped', skip: record });
  const { report } = buildReport(
    input([
      skipped('a', ['rs.update.name.max-length', 'rs.update.token-lifetime.range'], noBrowser),
      skipped('b', ['auth.mgmt.scope.forbidden'], noBrowser),
      skipped('c', ['limits.allocations.min'], noClient),
    ]),
  );
  expect(report.incomplete).toHaveLength(4);
  const html = renderHtml(report);
  const block = html.slice(
    html.indexOf('id="incomplete"'),
    html.indexOf('</section>', html.indexOf('id="incomplete"')),
  );
  expect(block.split('data-testid="incomplete-cause"').length - 1).toBe(2);
  expect(block.split(noBrowser.text).length - 1).toBe(1);
  for (const c of report.incomplete) expect(block).toContain(`href="#clause-${c.clause}"`);
});

test('a very long curl is clipped in the terminal but kept whole in the report', () => {
  const long: CheckRecord = {
    clause: 'rs.update.name.max-length',
    outcome: 'failed',
    message: 'pem of 4097 characters: expected 400, got 201',
    evidence: { curl: `curl -X PATCH --data-raw '${'p'.repeat(4990)}'` },
  };
  const { report } = buildReport(input([t('a', { checks: [long], status: 'failed' })]));
  const text = renderSummary(report, { color: false });
  expect(text).toContain(`… (${long.evidence!.curl!.length} characters; the whole command is in conformance.json)`);
  expect(text).not.toContain('p'.repeat(1000));
  expect(report.clauses.find((c) => c.id === 'rs.update.name.max-length')?.failures[0]?.evidence?.curl).toBe(
    long.evidence!.curl,
  );
});

test('each failing exchange is shown once, listing the clauses it failed and the tests that met it', () => {
  const exchange = {
    request: { method: 'PATCH', url: 'http://127.0.0.1:4810/api/v2/resource-servers/rs_conformance', headers: {} },
    response: { status: 201, headers: {}, body: { token_lifetime: 'x' } },
    curl: "curl -X PATCH 'http://127.0.0.1:4810/api/v2/resource-servers/rs_conformance' --data-raw one-bad-value",
  };
  const failing = (clause: string): CheckRecord => ({
    clause,
    outcome: 'failed',
    message: `${clause}: the same answer`,
    evidence: exchange,
  });
  // One bad value: met by three tests, failing two clauses in each.
  const tests = ['a', 'b', 'c'].map((title) =>
    t(title, {
      status: 'failed',
      checks: [failing('rs.update.name.max-length'), failing('rs.update.token-lifetime.range')],
    }),
  );
  const { report } = buildReport(input(tests));
  const text = renderSummary(report, { color: false });
  expect(text.split('one-bad-value').length - 1, text).toBe(1);
  expect(text).toContain('this exchange also failed: rs.update.token-lifetime.range');
  expect(text).toMatch(/the same exchange as under rs\.update\.name\.max-length/);
  expect(text).toContain('(and 2 more tests)');
  expect(renderHtml(report).split('one-bad-value').length - 1).toBe(1);
  // The verdict still counts each clause, and conformance.json keeps every failure under it.
  expect(report.totals.must.failed).toBe(2);
  expect(report.clauses.find((c) => c.id === 'rs.update.name.max-length')?.failures).toHaveLength(3);
});

// Helpers

function t(title: string, o: Partial<TestOutcome>): TestOutcome {
  return { title, file: 'specs/x.spec.ts', status: 'passed', clauses: [], checks: [], ...o };
}
function ok(clause: string): CheckRecord {
  return { clause, outcome: 'passed', message: 'as specified' };
}
function bad(clause: string): CheckRecord {
  return {
    clause,
    outcome: 'failed',
    message: 'expected 400, got 201',
    evidence: {
      seed: 7,
      path: '0:1',
      counterexample: { name: 'x'.repeat(201) },
      curl: "curl -X PATCH 'http://127.0.0.1:4810/api/v2/resource-servers/rs_conformance'",
    },
  };
}
function seen(clause: string, observation: string): CheckRecord {
  return { clause, outcome: 'observed', message: 'recorded', observation };
}
function derived(tests: TestOutcome[]): ClauseResult[] {
  return aggregate(catalogue, tests).clauses;
}
function statusOf(id: string, tests: TestOutcome[]): ClauseResult {
  const c = derived(tests).find((x) => x.id === id);
  if (!c) throw new Error(`statusOf: ${id} not in the fixture catalogue`);
  return c;
}
function input(tests: TestOutcome[]): BuildInput {
  return {
    catalogue,
    tests,
    baseline: { path: null, entries: [] },
    playwrightStatus: 'passed',
    globalErrors: [],
    otherFailures: [],
    meta: {
      suite: { name: 'idm-conformance', version: '0.0.0' },
      target: 'http://127.0.0.1:4810',
      seed: 7,
      depth: 'quick',
      startedAt: new Date(0),
      endedAt: new Date(1000),
    },
  };
}
