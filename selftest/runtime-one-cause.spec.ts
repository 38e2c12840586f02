// One cause, one failure (issue 24): no single exchange fails two must clauses for the same
// rule (mutation/one-cause.ts). First the judge itself, on reports written by hand; then the
// authentication specs, whole, against faulty variants whose faults used to be counted twice —
// a refusal accepted (its own clause and auth.error.client-fault-4xx), a 5xx to a faulty
// request, an error that is no object (auth.error.object and auth.error.oauth-error) — each
// killed by its own clause, and no exchange counted twice. The mutation harness holds the same
// over the whole catalogue (mutation/run.ts: doubleCounted).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { doubleCounted, ruleOf } from '../mutation/one-cause.ts';
import { variantById } from '../mutation/mutants.ts';
import { runSuite } from '../mutation/suite.ts';
import { startHarnessTenant } from '../mutation/tenant.ts';
import type { ClauseFailure, ClauseResult, ConformanceReport } from '../reporters/model.ts';
import { faultsCountedTwice, reportInvariants } from './report-invariants.ts';

test.describe('the judge', () => {
  const request = (authorization: string) => ({
    method: 'GET',
    url: 'http://127.0.0.1/userinfo',
    headers: { authorization },
  });
  const failure = (message: string, authorization = 'Bearer not-a-jwt'): ClauseFailure => ({
    test: 'bearer.spec.ts › user info refuses',
    message,
    evidence: { request: request(authorization) },
  });
  const report = (clauses: Array<[string, ClauseFailure[]]>): ConformanceReport =>
    ({
      clauses: clauses.map(
        ([id, failures]): Partial<ClauseResult> => ({ id, kind: 'must', status: 'failed', failures }),
      ),
    }) as ConformanceReport;

  test('the rule is the statement after the case description', () => {
    expect(ruleOf('user info with a garbage token (abc.def): expected a 4xx, got 200')).toBe('expected a 4xx, got 200');
    expect(ruleOf('no description at all')).toBe('no description at all');
  });
  test('two clauses failing one exchange with one statement: one cause counted twice', () => {
    const twice = report([
      ['auth.method.bearer', [failure('user info with garbage: expected a 4xx, got 200')]],
      ['auth.error.client-fault-4xx', [failure('user info with garbage: expected a 4xx, got 200')]],
    ]);
    expect(doubleCounted(twice)).toEqual([
      {
        test: 'bearer.spec.ts › user info refuses',
        exchange: 'GET http://127.0.0.1/userinfo',
        rule: 'expected a 4xx, got 200',
        clauses: ['auth.error.client-fault-4xx', 'auth.method.bearer'],
      },
    ]);
  });
  test('different rules of one exchange, or one rule of different exchanges, are not', () => {
    expect(
      doubleCounted(
        report([
          ['auth.error.object', [failure('wrong secret: 401 without a JSON error object: Unauthorized')]],
          ['auth.error.oauth-error', [failure('wrong secret: token-endpoint error without a string error member')]],
        ]),
      ),
    ).toEqual([]);
    expect(
      doubleCounted(
        report([
          ['auth.method.bearer', [failure('no header: expected a 4xx, got 200', '(absent)')]],
          ['auth.method.bearer.status', [failure('garbage: expected a 4xx, got 200')]],
        ]),
      ),
    ).toEqual([]);
  });
});

test.describe('a fault is one cause (report invariants)', () => {
  const faulted = (test: string, status: number): ClauseFailure => ({
    test,
    message: 'any words',
    evidence: {
      request: { method: 'PATCH', url: 'http://127.0.0.1/api/v2/resource-servers/rs_x', headers: {}, body: '{}' },
      response: { status, headers: {} },
    },
  });
  const clause = (id: string, failures: ClauseFailure[]): ClauseResult =>
    ({ id, kind: 'must', status: 'failed', failures }) as unknown as ClauseResult;

  test('a 5xx failing the fault clause and another must clause is one fault counted twice, whatever the words', () => {
    expect(
      faultsCountedTwice([
        clause('mgmt.error.server-fault', [faulted('a › b', 500)]),
        clause('rs.update.success.status', [faulted('a › b', 500)]),
      ]),
    ).toEqual([
      'one fault counted under 2 must clauses (mgmt.error.server-fault, rs.update.success.status): PATCH http://127.0.0.1/api/v2/resource-servers/rs_x answered 500',
    ]);
  });
  test('one clause per fault, the same request in two tests, or a 4xx failing two rules: not a fault counted twice', () => {
    expect(
      faultsCountedTwice([
        clause('mgmt.error.server-fault', [faulted('a › b', 500), faulted('a › c', 503)]),
        clause('rs.update.success.status', [faulted('a › c', 400)]),
        clause('rs.response.object', [faulted('a › c', 400)]),
      ]),
    ).toEqual([]);
  });
});

test.describe('the authentication specs against faulty variants', () => {
  test.describe.configure({ mode: 'serial' });
  test.setTimeout(6 * 60_000);
  const dirs: string[] = [];
  test.afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  for (const id of [
    'auth-mtls-api-key-unchecked',
    'auth-userinfo-without-token-200',
    'auth-client-error-500',
    'auth-error-not-an-object',
    'servers-mtls-self-signed-dn-only',
  ]) {
    test(`${id}: killed by its own clause, no exchange counted twice`, async () => {
      const variant = variantById(id);
      expect(variant, id).toBeDefined();
      const tenant = await startHarnessTenant(variant!, { port: 0 });
      const outDir = mkdtempSync(join(tmpdir(), 'idm-one-cause-'));
      dirs.push(outDir);
      try {
        const run = await runSuite({
          origin: tenant.tenant.url,
          outDir,
          timeoutMs: 5 * 60_000,
          extraArgs: ['specs/authentication/'],
        });
        expect(run.report, `${run.reportError ?? ''} (log ${run.logFile})`).not.toBeNull();
        const failed = run.report!.clauses.filter((c) => c.kind === 'must' && c.status === 'failed');
        expect(
          failed.map((c) => c.id),
          `${id} fails ${variant!.clause}`,
        ).toContain(variant!.clause);
        expect(doubleCounted(run.report!)).toEqual([]);
        expect(reportInvariants(run.report!)).toEqual([]);
      } finally {
        await tenant.tenant.close();
      }
    });
  }
});
