// The whole verdict on a tenant we did not write (issue 16): the suite runs against the
// reference tenant's strict profile (authentication API only: form bodies, no password or
// implicit grant, no passwordless/SAML/WS-Fed/delegation, offline_access only with
// prompt=consent, authorize errors as pages or 303s, no rate limit) and every must clause is
// held: exactly the profile's deviations fail, once each and root cause first; every offered
// method and flow passes; no refusal passes without its accepted twin; the rest is skipped
// with its precise reason. Again with those flows declared not offered, and against a tenant
// that refuses every authentication-API request as a content type.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startHarnessTenant, type HarnessTenant } from '../mutation/tenant.ts';
import { runSuite, type SuiteOutcome } from '../mutation/suite.ts';
import { variantById } from '../mutation/mutants.ts';
import { doubleCounted } from '../mutation/one-cause.ts';
import type { ClauseResult } from '../reporters/model.ts';
import { reportInvariants } from './report-invariants.ts';

test.describe.configure({ mode: 'serial' });
test.setTimeout(8 * 60_000);

const NOT_OFFERED = 'password,implicit,passwordless,saml,wsfed,delegation';
const PASSWORD_NOT_EXERCISED =
  /^not exercised: the accepted case failed \(auth\.flow\.password: answered 400 unsupported_grant_type\)/;

/** The refusal clauses: each must be skipped, never passed, when its accepted twin fails. */
const REFUSALS = [
  'auth.method.client-assertion.refused',
  'auth.method.mtls.refused',
  'auth.method.client-id-only.confidential-refused',
  'auth.flow.code.pkce.wrong-verifier',
  'auth.flow.code.pkce.missing-verifier',
  'auth.flow.code.single-use',
  'auth.flow.password.wrong-password',
  'auth.flow.revoke.effective',
  'auth.flow.implicit.redirect-uri',
  'auth.method.bearer',
  // The security rules' refusals (RFC 6749 §4.1.3, §6; RFC 9700 §2.1.1).
  'auth.sec.pkce.no-downgrade',
  'auth.sec.code.bound-redirect-uri',
  'auth.sec.code.bound-client',
  'auth.sec.refresh.no-widening',
];

let management: HarnessTenant;
const dirs: string[] = [];

test.beforeAll(async () => {
  management = await startHarnessTenant('reference', { port: 0 });
});
test.afterAll(async () => {
  await management?.tenant.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function verdictAgainst(auth: HarnessTenant, env: Record<string, string> = {}, args: string[] = []) {
  const outDir = mkdtempSync(join(tmpdir(), 'idm-strict-'));
  dirs.push(outDir);
  const run: SuiteOutcome = await runSuite({
    origin: management.tenant.url,
    outDir,
    timeoutMs: 6 * 60_000,
    extraEnv: { IDM_AUTH_URL: auth.tenant.url, ...env },
    extraArgs: args,
  });
  expect(run.report, `${run.reportError ?? ''} (log ${run.logFile})`).not.toBeNull();
  expect(reportInvariants(run.report!), 'the report keeps the invariants of every report').toEqual([]);
  const must = run.report!.clauses.filter((c) => c.kind === 'must');
  const by = (s: ClauseResult['status']) => new Map(must.filter((c) => c.status === s).map((c) => [c.id, c]));
  return { run, must, failed: by('failed'), skipped: by('skipped'), passed: by('passed') };
}

// The authentication API here is another server than the tenant holding the resource server: no
// user flow reaches its API (specs/settings/user-tokens.ts), the tenant's; two of them say so.
const USER_TOKEN_SETTINGS_BY_TENANT = ['rs.settings.allow_offline_access', 'rs.settings.subject_type.user.deny_all'];
const USER_TOKEN_SETTINGS = [...USER_TOKEN_SETTINGS_BY_TENANT, 'rs.settings.token_lifetime_for_web'];

/** Exactly `ids` and the user-token settings are the skipped must clauses. */
function expectSkippedExactly(v: { skipped: Map<string, ClauseResult> }, ids: string[]): void {
  expect([...v.skipped.keys()].sort()).toEqual([...ids, ...USER_TOKEN_SETTINGS].sort());
  for (const id of USER_TOKEN_SETTINGS_BY_TENANT)
    expect(v.skipped.get(id)!.skips, id).toMatchObject([{ by: 'tenant' }]);
}

function reasons(m: Map<string, ClauseResult>): Record<string, string> {
  return Object.fromEntries([...m].map(([id, c]) => [id, c.reason ?? '']));
}

test('strict profile: exactly its deviations fail, once each; offered methods and flows pass; refusals need their twin', async () => {
  const strict = await startHarnessTenant('reference', { port: 0, profile: 'strict' });
  try {
    const v = await verdictAgainst(strict);
    expect([...v.failed.keys()].sort()).toEqual(
      [
        'auth.api.post-json',
        'auth.api.saml-exception',
        'auth.flow.implicit',
        'auth.flow.password',
        'ratelimit.auth-api.headers',
      ].sort(),
    );
    for (const [id, c] of v.failed) expect(c.failures.length, `${id} fails once`).toBe(1);
    expect(doubleCounted(v.run.report!), 'no exchange fails two must clauses for one rule').toEqual([]);
    // A missing endpoint of a named flow fails its own clause, naming the path setting and IDM_NOT_OFFERED.
    expect(v.failed.get('auth.api.saml-exception')!.failures[0]!.message).toContain(
      '/login/callback (default path; IDM_SAML_CALLBACK_PATH moves it) answered 404; set IDM_SAML_CALLBACK_PATH to its path, or IDM_NOT_OFFERED=saml',
    );
    // The browser's evidence is the tenant's redirect, never a DNS error of the redirect URI.
    const implicit = v.failed.get('auth.flow.implicit')!.failures[0]!.message;
    expect(implicit).toContain('error unsupported_response_type');
    expect(implicit).toContain('303');
    expect(implicit).not.toContain('ERR_NAME_NOT_RESOLVED');

    const skipped = reasons(v.skipped);
    expectSkippedExactly(v, [
      'auth.error.429',
      'auth.flow.implicit.redirect-uri',
      'auth.flow.password.wrong-password',
      'auth.sec.consent.denied',
      'auth.sec.passwordless.otp-checked',
    ]);
    // No passwordless endpoint (a flow the spec only records): the one-time code is not judged,
    // the tenant's not offering it (lib/auth/absent.ts), with the path setting named.
    expect(v.skipped.get('auth.sec.passwordless.otp-checked')!.skips).toMatchObject([
      { by: 'tenant', cause: { answer: 'not-offered', setting: 'IDM_PASSWORDLESS_PATH' } },
    ]);
    // The strict profile shows no consent page: nothing to decline, the tenant's right.
    expect(skipped['auth.sec.consent.denied']).toMatch(/^not applicable: the tenant showed no consent page/);
    // The bounded burst met no limit (the profile has none on the authentication API): the
    // tenant's own behaviour, the same on any machine — never INCOMPLETE (issue 30).
    expect(v.run.report!.incomplete).toEqual([]);
    expect(v.skipped.get('auth.error.429')!.skips).toMatchObject([{ by: 'tenant', cause: { answer: 'accepted' } }]);
    expect(skipped['auth.flow.implicit.redirect-uri']).toMatch(
      /^not exercised: the accepted case failed \(auth\.flow\.implicit: /,
    );
    expect(skipped['auth.flow.password.wrong-password']).toMatch(PASSWORD_NOT_EXERCISED);
    // §8's login limit is held through the login page where the password grant is not offered.
    expect(v.passed.has('ratelimit.login-attempts')).toBe(true);
    expect(skipped['auth.error.429']).toMatch(/^no 429 after \d+ token requests, [^(]*\(the (request|time) bound/);

    // Every other must clause passes: the offered methods and flows, user info, refresh and
    // revocation from the code flow, the refusals beside their accepted twins, §7.3.
    expect(v.passed.size).toBe(v.must.length - v.failed.size - v.skipped.size);
    for (const id of [
      'auth.method.client-secret-post',
      'auth.method.client-secret-basic',
      'auth.method.client-secret-basic.form-encoded',
      'auth.method.client-assertion',
      'auth.method.client-id-only',
      'auth.method.mtls',
      'auth.flow.client-credentials',
      'auth.flow.code.pkce',
      'auth.flow.code.confidential',
      'auth.flow.userinfo',
      'auth.flow.refresh',
      'auth.flow.revoke',
      'auth.token.answer',
      'auth.error.object',
      ...REFUSALS.filter((r) => !['auth.flow.password.wrong-password', 'auth.flow.implicit.redirect-uri'].includes(r)),
    ])
      expect(v.passed.has(id), `${id} passes`).toBe(true);
    // The JSON refusal is said once, and the evidence elsewhere names it.
    expect(v.failed.get('auth.api.post-json')!.failures[0]!.message).toContain('judged with form bodies');
    const summary = await readLog(v.run);
    const firstFailure = summary.split('\n').find((l) => l.includes('must clause failed'));
    expect(firstFailure, 'the summary names a root cause first').toContain('root cause of');
    expect(summary).toMatch(
      /must clause failed: auth\.flow\.password \(§4\.3\) \[root cause of 1 other clause \(auth\.flow\.password\.wrong-password\)\]/,
    );

    const off = await verdictAgainst(strict, { IDM_NOT_OFFERED: NOT_OFFERED });
    expect([...off.failed.keys()].sort()).toEqual(['auth.api.post-json', 'ratelimit.auth-api.headers']);
    const offSkipped = reasons(off.skipped);
    for (const id of [
      'auth.api.saml-exception',
      'auth.flow.implicit',
      'auth.flow.implicit.redirect-uri',
      'auth.flow.password',
      'auth.flow.password.wrong-password',
      'auth.sec.passwordless.otp-checked',
    ])
      expect(offSkipped[id], id).toBe(`not offered (IDM_NOT_OFFERED=${NOT_OFFERED})`);
    expect(off.passed.has('ratelimit.login-attempts')).toBe(true);
    expectSkippedExactly(off, [
      'auth.api.saml-exception',
      'auth.error.429',
      'auth.flow.implicit',
      'auth.flow.implicit.redirect-uri',
      'auth.flow.password',
      'auth.flow.password.wrong-password',
      'auth.sec.consent.denied',
      'auth.sec.passwordless.otp-checked',
    ]);
  } finally {
    await strict.tenant.close();
  }
});

test('a tenant refusing every authentication-API request as a content type: no refusal clause passes', async () => {
  const variant = variantById('auth-content-type-refused');
  expect(variant).toBeDefined();
  const refusing = await startHarnessTenant(variant!, { port: 0 });
  try {
    const v = await verdictAgainst(refusing, {}, ['specs/authentication/']);
    // The implicit grant posts nothing but the login form: its twin is accepted, its refusal judged.
    expect(v.passed.has('auth.flow.implicit')).toBe(true);
    for (const id of REFUSALS.filter((r) => r !== 'auth.flow.implicit.redirect-uri'))
      expect(v.passed.has(id), `${id} must not pass without its accepted twin`).toBe(false);
    for (const id of REFUSALS.filter((r) => v.skipped.has(r)))
      expect(v.skipped.get(id)!.reason ?? '', id).toMatch(/not exercised: the accepted case failed \(/);
    expect(v.failed.has('auth.method.client-secret-post')).toBe(true);
  } finally {
    await refusing.tenant.close();
  }
});

async function readLog(run: SuiteOutcome): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  return readFile(run.logFile, 'utf8');
}
