// The authentication-API parts of the report, from synthetic results: the run-wide §7.3
// majority judgement over recorded auth errors, the §5.2 section per method (configured or
// not), standard-derived clauses shown apart, and the catalogue's `source` validation.
import { expect, test } from '@playwright/test';
import { runSkip, tenantSkip } from '../lib/skip-record.ts';
import { aggregate } from '../reporters/aggregate.ts';
import { CODE_AND_DESCRIPTION, judgeAuthErrors, parseAuthError } from '../reporters/auth-errors.ts';
import { methodViews, methodWords, standardDerived } from '../reporters/auth-methods.ts';
import { renderHtml } from '../reporters/html.ts';
import { buildReport } from '../reporters/build-report.ts';
import { renderSummary } from '../reporters/summary.ts';
import type { AuthErrorRecord, CatalogueEntry, TestOutcome } from '../reporters/model.ts';
import { allClauses, type Clause } from '../contract/clauses.ts';
import { catalogueEntryProblem } from '../contract/grammar.ts';

const catalogue: CatalogueEntry[] = [
  { id: CODE_AND_DESCRIPTION, section: '7.3', text: 'most carry code and description', kind: 'must' },
  { id: 'auth.method.client-secret-post', section: '5.2', text: 'post', kind: 'must' },
  { id: 'auth.method.mtls', section: '5.2', text: 'mtls', kind: 'must' },
  {
    id: 'auth.method.client-secret-basic.form-encoded',
    section: '5.2',
    text: 'form-encoded',
    kind: 'must',
    source: 'RFC 6749 §2.3.1',
  },
];

const err = (code: string | null, description: boolean, at = 'POST /oauth/token'): AuthErrorRecord => ({
  at,
  status: 401,
  object: true,
  members: [...(code ? ['error'] : []), ...(description ? ['error_description'] : [])],
  code,
  description,
  type: 'application/json',
});
const outcome = (title: string, errs: AuthErrorRecord[], extra: Partial<TestOutcome> = {}): TestOutcome => ({
  title,
  file: 'specs/x.spec.ts',
  status: 'passed',
  clauses: [],
  checks: [],
  authErrors: errs,
  ...extra,
});
const statusOf = (tests: TestOutcome[], id: string) => aggregate(catalogue, tests).clauses.find((c) => c.id === id)!;

test.describe('§7.3 "most carry an error code and a description", judged over the run', () => {
  test('most kinds (endpoint × error code) across tests pass, each kind counted once', () => {
    const r = statusOf(
      [
        outcome('a', [err('invalid_client', true), err('invalid_client', true)]),
        outcome('b', [err('invalid_grant', true), err(null, false)]),
      ],
      CODE_AND_DESCRIPTION,
    );
    expect(r.status).toBe('passed');
    expect(r.checks.passed).toBe(1);
  });
  test('a minority (or exactly half) of the kinds fails, listing the kinds seen', () => {
    const r = statusOf(
      [outcome('a', [err('invalid_client', true)]), outcome('b', [err('invalid_grant', false)])],
      CODE_AND_DESCRIPTION,
    );
    expect(r.status).toBe('failed');
    expect(r.failures[0]?.message).toContain('1 of 2 kinds');
    expect(r.failures[0]?.message).toContain('POST /oauth/token invalid_grant without both');
  });
  test('one kind met many times outvotes no other (a lockout answered twelve times)', () => {
    const lockout = Array.from({ length: 12 }, () => err('too_many_attempts', true));
    const r = statusOf(
      [outcome('a', [...lockout, err('invalid_request', false, 'GET /authorize'), err('invalid_grant', false)])],
      CODE_AND_DESCRIPTION,
    );
    expect(r.status, 'by answers 12 of 14; by kinds 1 of 3').toBe('failed');
    expect(r.failures[0]?.message).toContain('1 of 3 kinds');
  });
  test('none carry both: failed', () => {
    expect(statusOf([outcome('a', [err(null, true), err(null, true)])], CODE_AND_DESCRIPTION).status).toBe('failed');
  });
  test('every 4xx of the run must carry an error object (auth.error.object, judged over the run)', () => {
    const cat: CatalogueEntry[] = [
      ...catalogue,
      { id: 'auth.error.object', section: '7.3', text: 'error object', kind: 'must' },
    ];
    const noObject: AuthErrorRecord = {
      at: 'GET /userinfo',
      status: 401,
      object: false,
      members: [],
      code: null,
      description: false,
      type: 'text/html',
    };
    const failed = aggregate(cat, [
      outcome('a', [err('invalid_client', true), err('invalid_client', true), noObject]),
    ]).clauses.find((c) => c.id === 'auth.error.object')!;
    expect(failed.status).toBe('failed');
    expect(failed.failures[0]?.message).toContain('401 GET /userinfo (text/html)');
    const passed = aggregate(cat, [
      outcome('a', [err('invalid_client', true), { ...noObject, status: 500 }]),
    ]).clauses.find((c) => c.id === 'auth.error.object')!;
    expect(passed.status, 'a 5xx is not a 4xx: not counted').toBe('passed');
  });
  test('a 4xx without an error object is auth.error.object failure alone, never counted again for its code and description', () => {
    const cat: CatalogueEntry[] = [
      ...catalogue,
      { id: 'auth.error.object', section: '7.3', text: 'error object', kind: 'must' },
    ];
    const bodiless: AuthErrorRecord = { ...err(null, false), at: 'GET /userinfo', object: false, members: [] };
    const mixed = aggregate(cat, [outcome('a', [err('invalid_client', true), bodiless, bodiless, bodiless])]);
    const status = (id: string) => mixed.clauses.find((c) => c.id === id)!.status;
    expect(status('auth.error.object')).toBe('failed');
    expect(status(CODE_AND_DESCRIPTION), 'the one error object carries both').toBe('passed');
    const none = aggregate(cat, [outcome('a', [bodiless, bodiless])]).clauses.find(
      (c) => c.id === CODE_AND_DESCRIPTION,
    )!;
    expect(none.status, 'no error object at all: nothing to judge').toBe('skipped');
    expect(none.skips).toMatchObject([{ by: 'tenant', cause: { clause: 'auth.error.object' } }]);
  });
  test('no authentication-API error met: the clause is not judged (skipped)', () => {
    expect(judgeAuthErrors([outcome('a', [])], catalogue)).toBeNull();
    expect(statusOf([outcome('a', [])], CODE_AND_DESCRIPTION).status).toBe('skipped');
  });
  test('the annotation parser keeps well-formed records and drops others', () => {
    expect(parseAuthError(JSON.stringify(err('x', true)))).toEqual(err('x', true));
    expect(parseAuthError('{"at":1}')).toBeNull();
    expect(parseAuthError('not json')).toBeNull();
  });
});

test.describe('report: a section per authentication method, standards apart', () => {
  const tests = [
    outcome('post', [err('invalid_client', true)], {
      clauses: ['auth.method.client-secret-post', 'auth.method.client-secret-basic.form-encoded'],
      checks: [
        { clause: 'auth.method.client-secret-post', outcome: 'passed', message: 'ok' },
        { clause: 'auth.method.client-secret-basic.form-encoded', outcome: 'passed', message: 'ok' },
      ],
    }),
    outcome('mtls', [], {
      clauses: ['auth.method.mtls'],
      status: 'skipped',
      skip: runSkip({ setting: 'IDM_MTLS_CLIENT_ID' }, 'needs an mTLS client: set IDM_MTLS_CLIENT_ID'),
    }),
  ];
  const { clauses } = aggregate(catalogue, tests);
  test('judged methods are the exercised ones; the others say why from their records, "not configured" only for a setting', () => {
    const views = methodViews(clauses);
    expect(views.find((v) => v.name.includes('Post'))?.state).toBe('judged');
    const mtls = views.find((v) => v.name.includes('mTLS'))!;
    expect(mtls.state).toBe('not-configured');
    expect(mtls.reason).toContain('IDM_MTLS_CLIENT_ID');
    // Not in the selection: no setting is missing, so nothing is "not configured".
    const bearer = views.find((v) => v.name.includes('Bearer'))!;
    expect(bearer.state).toBe('not-judged');
    expect(methodWords(bearer)).not.toContain('configured');
    const declared = methodViews(
      aggregate(catalogue, [
        outcome('mtls', [], {
          clauses: ['auth.method.mtls'],
          status: 'skipped',
          skip: tenantSkip({ setting: 'IDM_NOT_OFFERED', answer: 'not-offered' }, 'not offered (IDM_NOT_OFFERED=mtls)'),
        }),
      ]).clauses,
    ).find((v) => v.name.includes('mTLS'))!;
    expect(declared.state).toBe('not-offered');
  });
  test('clauses with a source are listed apart, in the JSON, the HTML and the summary', () => {
    expect(standardDerived(clauses).map((c) => c.id)).toEqual(['auth.method.client-secret-basic.form-encoded']);
    const { report } = buildReport({
      catalogue,
      tests,
      baseline: { path: 'b.json', entries: [], error: null },
      playwrightStatus: 'passed',
      globalErrors: [],
      otherFailures: [],
      meta: {
        suite: { name: 'idm-conformance', version: '0' },
        target: null,
        seed: 1,
        depth: 'quick',
        startedAt: new Date(0),
        endedAt: new Date(1000),
      },
    });
    expect(report.clauses.find((c) => c.id === 'auth.method.client-secret-basic.form-encoded')?.source).toBe(
      'RFC 6749 §2.3.1',
    );
    const html = renderHtml(report);
    expect(html).toContain('id="standards"');
    expect(html).toContain('RFC 6749 §2.3.1');
    expect(html).toContain('id="auth-methods"');
    const summary = renderSummary(report, { color: false, files: [], warnings: [] });
    expect(summary).toContain('from standards the spec names');
    expect(summary).toMatch(/mTLS through the edge not configured/);
  });
});

test.describe('catalogue: the source of a standard-derived clause', () => {
  const base: Clause = { id: 'auth.x.y', section: '5.2', text: 't', kind: 'must', severity: 'minor', reason: null };
  for (const ok of ['RFC 6749 §2.3.1', 'RFC 7523 §3', 'OIDC Core §5.3.2', 'RFC 8705 §2.1.1']) {
    test(`"${ok}" is accepted`, () => expect(catalogueEntryProblem({ ...base, source: ok })).toBeNull());
  }
  for (const bad of ['RFC6749', 'RFC 6749', 'rfc 6749 §2', 'the OAuth spec', 'RFC 6749 §2.3.1 and more', '']) {
    test(`"${bad}" is refused`, () => expect(catalogueEntryProblem({ ...base, source: bad })).toMatch(/source/));
  }
  test('every source in the catalogue cites a standard and section', () => {
    const withSource = allClauses().filter((c) => c.source !== undefined);
    expect(withSource.length).toBeGreaterThan(0);
    for (const c of withSource) expect(catalogueEntryProblem(c), c.id).toBeNull();
  });
});
