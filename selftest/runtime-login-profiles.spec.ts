// The whole verdict through hosted logins of other shapes (issue 23): the reference tenant's
// login profiles (reference/README.md, "Login profiles") stand for the pages real tenants show.
// - identifier first, consent on every login, a logout confirmation page: the verdict is the
//   default profile's, clause by clause (the consent page is what auth.sec.consent.denied needs,
//   so there it is exercised), with the extra pages in the evidence;
// - a login page on another origin, identifier first, the password grant not offered: §8's login
//   limit is held through those pages, and the verdict is conformant;
// - a second-factor page the suite cannot fill: no clause fails, the clauses that needed the login
//   are skipped "login not driven" naming the page and the setting, and the verdict is
//   INCOMPLETE (exit 4 with IDM_FAIL_ON_INCOMPLETE).
// Every run keeps the invariants of every report (selftest/report-invariants.ts): among them, no
// skip record names a clause that passed as its cause.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startHarnessTenant } from '../mutation/tenant.ts';
import { runSuite, type SuiteOutcome } from '../mutation/suite.ts';
import type { ConformanceReport } from '../reporters/model.ts';
import { reportInvariants } from './report-invariants.ts';

test.describe.configure({ mode: 'serial' });
test.setTimeout(6 * 60_000);

const dirs: string[] = [];
test.afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type LoginOptions = NonNullable<Parameters<typeof startHarnessTenant>[1]['login']>;

async function verdictWith(login: LoginOptions, env: Record<string, string> = {}, port = 0): Promise<SuiteOutcome> {
  const tenant = await startHarnessTenant('reference', { port, login });
  try {
    const outDir = mkdtempSync(join(tmpdir(), 'idm-login-'));
    dirs.push(outDir);
    const run = await runSuite({ origin: tenant.tenant.url, outDir, timeoutMs: 5 * 60_000, extraEnv: env });
    expect(run.report, `${run.reportError ?? ''} (log ${run.logFile})`).not.toBeNull();
    expect(reportInvariants(run.report!), 'the report keeps the invariants of every report').toEqual([]);
    return run;
  } finally {
    await tenant.tenant.close();
  }
}

const statuses = (r: ConformanceReport): Record<string, string> =>
  Object.fromEntries(r.clauses.map((c) => [c.id, c.status]));
const observed = (r: ConformanceReport, id: string): string[] =>
  r.clauses.find((c) => c.id === id)?.observations.map((o) => o.observation) ?? [];

test('identifier first, consent on every login, logout confirmation: the default profile’s verdict, clause by clause', async () => {
  const plain = (await verdictWith({})).report!;
  const walked = (await verdictWith({ flow: 'identifier-first', consent: 'always', logoutConfirm: true })).report!;
  expect(plain.gate.verdict).toBe('conformant');
  expect(walked.gate).toEqual(plain.gate);
  // The one clause only a consent page exercises.
  const CONSENT = 'auth.sec.consent.denied';
  expect(plain.clauses.find((c) => c.id === CONSENT)?.reason).toMatch(/^not applicable: the tenant showed no consent/);
  expect(statuses(walked)[CONSENT]).toBe('passed');
  const { [CONSENT]: _a, ...rest } = statuses(walked);
  const { [CONSENT]: _b, ...restPlain } = statuses(plain);
  expect(rest).toEqual(restPlain);
  expect(walked.totals.must.failed).toBe(0);
  // The extra pages are in the evidence: each walk's pages, what was filled and clicked.
  const pages = observed(walked, 'auth.flow.login-pages').join('\n');
  expect(pages).toMatch(/\/u\/login\/identifier "[^"]*": filled username; clicked "Continue"/);
  expect(pages).toMatch(/\/u\/login\/password "[^"]*": filled password; clicked "[^"]+"/);
  expect(pages).toMatch(/\/u\/consent "Authorize conformance-spa": clicked "Accept"/);
  expect(pages).toMatch(/\/u\/consent "Authorize conformance-spa": clicked "Decline"/);
  expect(observed(walked, 'auth.flow.logout').join('\n')).toMatch(
    /through 200 .*\/v2\/logout "[^"]*": clicked "Yes, sign out"/,
  );
});

test('a login page on another origin, identifier first, no password grant: §8 through those pages, conformant', async () => {
  const port = await freePort();
  const run = await verdictWith(
    { flow: 'identifier-first', consent: 'offline', origin: `http://localhost:${port}` },
    { IDM_NOT_OFFERED: 'password' },
    port,
  );
  const r = run.report!;
  expect(r.gate.verdict).toBe('conformant');
  expect(r.totals.must.failed).toBe(0);
  expect(statuses(r)['ratelimit.login-attempts']).toBe('passed');
  expect(statuses(r)['auth.flow.code.pkce']).toBe('passed');
  expect(observed(r, 'auth.flow.login-pages').join('\n')).toContain(`http://localhost:${port}/u/login/password`);
});

test('a second-factor page the walk cannot fill: login not driven, no clause failed, INCOMPLETE (exit 4 when gated)', async () => {
  const run = await verdictWith({ flow: 'challenge' }, { IDM_FAIL_ON_INCOMPLETE: 'true' });
  const r = run.report!;
  expect(r.totals.must.failed).toBe(0);
  expect(r.gate).toMatchObject({ verdict: 'incomplete', exitCode: 4 });
  expect(run.code).toBe(4);
  const notDriven = r.incomplete.filter((u) =>
    u.skips.some((s) => s.by === 'run' && s.cause.page !== undefined && s.text.startsWith('login not driven: ')),
  );
  expect(notDriven.map((u) => u.clause)).toEqual(
    expect.arrayContaining([
      'auth.flow.code.pkce',
      'auth.flow.userinfo',
      'auth.method.bearer',
      'auth.sec.consent.denied',
    ]),
  );
  expect(notDriven.length).toBe(r.incomplete.length);
  for (const u of notDriven) {
    expect(u.reason).toMatch(
      /the page http:\/\/127\.0\.0\.1:\d+\/u\/mfa\/otp \("[^"]+"\) \(answered 200\) shows fields \[name=otp\]/,
    );
    expect(u.reason).toContain('IDM_LOGIN_USERNAME_SELECTOR');
  }
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
