// lib/checks.ts: each check records one `check` annotation (the runtime → reporter contract
// of docs/ARCHITECTURE.md); a failed check is a soft failure; recording a pass or a failure
// on an `observe` clause, or any verdict on an unknown clause, is a suite bug and throws.
// A soft failure is read from test.info().errors and then absorbed (errors emptied, status
// back to passed), so that the assertions made after it are not hidden by test.fail().
import { expect, test, type TestInfo } from '@playwright/test';
import { Checks, replayCommand } from '../lib/checks.ts';
import type { Exchange } from '../lib/http.ts';
import { received } from '../lib/answer-class.ts';
import { createRedactor } from '../lib/redact.ts';
import { absorbSoftFailures, records } from './runtime-annotations.ts';
import { condition, judgeBy, Verdict } from '../lib/condition.ts';

const MUST = 'rs.response.object';
const MUST_2 = 'rs.response.closed';
const RL_MUST = 'ratelimit.headers';
const OBSERVE = 'ratelimit.values';
const NOT_EXERCISABLE = 'rs.update.signing_alg.default';
const UNKNOWN = 'rs.update.no-such-clause';
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJzZWxmdGVzdCJ9.c2lnbmF0dXJlLXNlbGZ0ZXN0LWJ5dGVz';
const SECRET = 'idmc-selftest-checks-secret';

function exchange(
  status: number,
  headers: Record<string, string> = {},
  body: unknown = { statusCode: status },
): Exchange {
  const data = { name: 'x', client_secret: SECRET };
  return received({
    request: {
      method: 'PATCH',
      url: 'http://127.0.0.1:4810/api/v2/resource-servers/rs_conformance',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(data),
      data,
    },
    status,
    headers: { 'content-type': 'application/json', ...headers },
    text: JSON.stringify(body),
    body,
  });
}

function checks(info: TestInfo = test.info()): Checks {
  return new Checks(info, createRedactor([SECRET, TOKEN]));
}

test.describe('passing checks', () => {
  const PASS: Array<{ title: string; run: (c: Checks) => boolean; clause: string }> = [
    {
      title: 'expectRateLimitHeaders: all three numeric',
      run: (c) =>
        c.expectRateLimitHeaders(
          RL_MUST,
          exchange(201, { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1795000000' }),
        ),
      clause: RL_MUST,
    },
    { title: 'that: a true condition', run: (c) => c.that(MUST, true, 'holds'), clause: MUST },
  ];
  for (const c of PASS) {
    test(c.title, () => {
      expect(c.run(checks())).toBe(true);
      const recs = records();
      expect(recs).toHaveLength(1);
      expect(recs[0]).toMatchObject({ clause: c.clause, outcome: 'passed' });
      expect(recs[0]!.evidence, 'passes carry no evidence').toBeUndefined();
      expect(test.info().annotations).toContainEqual({ type: 'clause', description: c.clause });
      expect(test.info().errors).toEqual([]);
    });
  }

  test('the clause annotation is added once, however many checks name the clause', () => {
    const c = checks();
    c.that(MUST, true, 'one');
    c.that(MUST, true, 'two');
    c.that(MUST_2, true, 'three');
    expect(
      test
        .info()
        .annotations.filter((a) => a.type === 'clause')
        .map((a) => a.description),
    ).toEqual([MUST, MUST_2]);
    expect(records()).toHaveLength(3);
  });
});

test.describe('failed checks: recorded, soft, redacted', () => {
  const FAIL: Array<{ title: string; run: (c: Checks) => boolean; clause: string; message: RegExp }> = [
    {
      title: 'that: a false condition, with its exchange',
      run: (c) => c.that(MUST, false, 'expected 400, got 500', exchange(500)),
      clause: MUST,
      message: /expected 400, got 500/,
    },
    {
      title: 'expectRateLimitHeaders: Reset missing',
      run: (c) =>
        c.expectRateLimitHeaders(RL_MUST, exchange(201, { 'x-ratelimit-limit': '50', 'x-ratelimit-remaining': '3' })),
      clause: RL_MUST,
      message: /x-ratelimit-reset/,
    },
    {
      title: 'expectRateLimitHeaders: a non-numeric Remaining',
      run: (c) =>
        c.expectRateLimitHeaders(
          RL_MUST,
          exchange(201, {
            'x-ratelimit-limit': '50',
            'x-ratelimit-remaining': 'many',
            'x-ratelimit-reset': '1795000000',
          }),
        ),
      clause: RL_MUST,
      message: /x-ratelimit-remaining/,
    },
    {
      title: 'that: a false condition, multi-line message folded to one line',
      run: (c) => c.that(MUST, false, 'expected a\n  got b', exchange(201)),
      clause: MUST,
      message: /^expected a got b$/,
    },
  ];
  for (const c of FAIL) {
    test(c.title, () => {
      const check = checks();
      expect(c.run(check)).toBe(false);
      // The test went on after the failure: a later check is still recorded.
      check.that(MUST_2, true, 'after the failure');
      // Its failed check is its only error: the test ran on (nothing says it stopped).
      expect(check.otherError()).toBeNull();
      const soft = absorbSoftFailures();
      const recs = records();
      expect(recs.map((r) => [r.clause, r.outcome])).toEqual([
        [c.clause, 'failed'],
        [MUST_2, 'passed'],
      ]);
      const failed = recs[0]!;
      expect(failed.message).toMatch(c.message);
      expect(failed.message).not.toContain('\n');
      // One soft failure, carrying the clause and the reproduction.
      expect(soft).toHaveLength(1);
      expect(soft[0]).toContain(`[${c.clause}]`);
      expect(soft[0]).toContain('reproduce: curl ');
      // Evidence is recorded redacted: the token and the client secret appear nowhere.
      const text = JSON.stringify(recs) + soft.join('\n');
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(SECRET);
      expect(failed.evidence?.request).toMatchObject({
        method: 'PATCH',
        headers: { authorization: 'Bearer <redacted>' },
        body: { name: 'x', client_secret: '<redacted>' },
      });
      expect(failed.evidence?.response?.status).toBeGreaterThan(0);
      expect(failed.evidence?.curl).toContain('$IDM_ACCESS_TOKEN');
    });
  }

  test('a failed check left in place fails the test (soft: the statements after it still run)', () => {
    test.fail();
    const check = checks();
    check.that(MUST, false, 'deliberately failed');
    check.that(MUST_2, true, 'after');
    test.info().annotations.push({ type: 'reached', description: 'after the failed check' });
  });

  test("an error none of the test's checks raised is told apart from theirs, redacted: where it stopped", () => {
    const check = checks();
    check.that(MUST, false, 'deliberately failed');
    expect(check.otherError()).toBeNull();
    // Another error of the test (here a soft one; a throw or a time-out lands the same way).
    expect.soft(1, `boom with ${TOKEN}`).toBe(2);
    expect(check.otherError()).toMatch(/^Error: boom/);
    expect(check.otherError()).not.toContain(TOKEN);
    check.that(MUST_2, false, 'failed after it');
    expect(check.otherError(), 'the first error not of a check').toMatch(/^Error: boom/);
    expect(absorbSoftFailures()).toHaveLength(3);
  });
});

test.describe('verdict vocabulary guards', () => {
  test('observe on an observe clause records an observation, never a verdict', () => {
    checks().observe(OBSERVE, 'Limit 50, Reset 1 s ahead', exchange(201));
    const [rec] = records();
    expect(rec).toMatchObject({
      clause: OBSERVE,
      outcome: 'observed',
      message: 'Limit 50, Reset 1 s ahead',
      observation: 'Limit 50, Reset 1 s ahead',
    });
    expect(JSON.stringify(rec)).not.toContain(TOKEN);
    expect(test.info().errors).toEqual([]);
  });

  const MISUSE: Array<{ title: string; run: (c: Checks) => unknown; error: RegExp }> = [
    { title: 'that(pass) on an observe clause', run: (c) => c.that(OBSERVE, true, 'x'), error: /observe/ },
    { title: 'that(fail) on an observe clause', run: (c) => c.that(OBSERVE, false, 'x'), error: /observe/ },
    {
      title: 'expectRateLimitHeaders on an observe clause',
      run: (c) => c.expectRateLimitHeaders(OBSERVE, exchange(201)),
      error: /observe/,
    },
    {
      title: 'that on a not-exercisable clause',
      run: (c) => c.that(NOT_EXERCISABLE, true, 'x'),
      error: /not-exercisable/,
    },
    {
      title: 'that on an unknown clause id',
      run: (c) => c.that(UNKNOWN, true, 'x'),
      error: new RegExp(UNKNOWN.replace(/\./g, '\\.')),
    },
    {
      title: 'observe on an unknown clause id',
      run: (c) => c.observe(UNKNOWN, 'x'),
      error: new RegExp(UNKNOWN.replace(/\./g, '\\.')),
    },
  ];
  for (const c of MISUSE) {
    test(`${c.title} throws and records nothing`, () => {
      expect(() => c.run(checks())).toThrow(c.error);
      expect(records()).toEqual([]);
      expect(test.info().errors).toEqual([]);
    });
  }
});

test.describe('buffered records (property runs)', () => {
  test('records are held while buffering and committed with replay data on failures only', () => {
    const check = checks();
    check.beginBuffer();
    check.that(MUST, true, 'generated case holds');
    check.that(MUST_2, false, 'generated case broke it', exchange(201));
    expect(records(), 'nothing recorded while buffering').toEqual([]);
    const buffered = check.endBuffer();
    expect(buffered).toHaveLength(2);
    expect(test.info().errors, 'no soft failure while buffering').toEqual([]);
    check.commit(buffered, { seed: 42, path: '3:1:0', counterexample: { name: 'x', client_secret: SECRET } });
    const soft = absorbSoftFailures();
    const recs = records();
    expect(recs[0]).toMatchObject({ clause: MUST, outcome: 'passed' });
    expect(recs[0]!.evidence).toBeUndefined();
    expect(recs[1]).toMatchObject({
      clause: MUST_2,
      outcome: 'failed',
      evidence: { seed: 42, path: '3:1:0', counterexample: { name: 'x', client_secret: '<redacted>' } },
    });
    expect(soft).toHaveLength(1);
    expect(soft[0]).toContain('replay: IDM_SEED=42 IDM_REPLAY_PATH=3:1:0 npm run conformance -- --grep');
    expect(soft[0]).not.toContain(SECRET);
  });

  const REPLAY: Array<{ seed: number; path?: string; title: string; expected: string }> = [
    { seed: 7, title: 'plain title', expected: `IDM_SEED=7 npm run conformance -- --grep 'plain title'` },
    {
      seed: -3,
      path: '0:2',
      title: 'name (max 200) + more?',
      expected: `IDM_SEED=-3 IDM_REPLAY_PATH=0:2 npm run conformance -- --grep 'name \\(max 200\\) \\+ more\\?'`,
    },
    { seed: 1, title: "O'Brien's case", expected: `IDM_SEED=1 npm run conformance -- --grep 'O'\\''Brien'\\''s case'` },
  ];
  for (const c of REPLAY) {
    test(`replayCommand: ${JSON.stringify(c.title)}`, () => {
      expect(replayCommand(c.seed, c.path, c.title)).toBe(c.expected);
    });
  }
});

test.describe("a condition's verdict, bound to its clauses (lib/condition.ts)", () => {
  const both = condition({
    clauses: [MUST, OBSERVE],
    cite: 'self-test',
    judge: (v, ok: boolean) => {
      v.on(OBSERVE).observe('seen beside');
      return v.that(ok, ok ? 'holds' : 'does not hold');
    },
  });

  test('that records under the first clause, on() under another of its own', async () => {
    expect(await judgeBy(both, checks(), true)).toBe(true);
    expect(records().map((r) => [r.clause, r.outcome])).toEqual([
      [OBSERVE, 'observed'],
      [MUST, 'passed'],
    ]);
  });

  test('a clause the condition does not declare throws (and is a type error), and records nothing', () => {
    // Typed as any string, as a condition made with an explicit input type is: the throw still holds.
    const v = new Verdict<string>(checks(), [MUST]);
    expect(() => v.on(MUST_2)).toThrow(/not a clause of this condition/);
    expect(records()).toEqual([]);
  });
});
