// A rule judged in passing never stops the test it passes through (issue 47, item 3). The real
// §8 test (specs/authentication/conventions/login-limit.spec.ts) runs against a token endpoint of
// a few lines, the authentication API alone: every token answer states an expires_in its token
// does not (auth.token.expires-in, judged on every token answer, fails at the test's first login),
// and every error object names its error under `code`, without `error` (RFC 6749 §5.2).
// - With the lockout: the test goes on past the expires-in failure to the blocked login, whose
//   error object fails auth.error.oauth-error. Both clauses fail; neither names the other.
// - Without one: the right password is let in, so ratelimit.login-attempts fails, and the error
//   clauses judged on that refusal are skipped naming it — the one clause they could not be
//   judged without. auth.token.expires-in is the root cause of nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { doubleCounted } from '../mutation/one-cause.ts';
import { DEV_AUTH as A, runSuite } from '../mutation/suite.ts';
import type { ConformanceReport } from '../reporters/model.ts';
import { byRootCause } from '../reporters/root-causes.ts';
import { causeClauses } from '../reporters/incomplete.ts';
import { reportInvariants } from './report-invariants.ts';

test.describe.configure({ mode: 'serial' });
test.setTimeout(3 * 60_000);

const EXPIRES_IN = 'auth.token.expires-in';
const OAUTH_ERROR = 'auth.error.oauth-error';
const LOGIN_LIMIT = 'ratelimit.login-attempts';

/** The token endpoint: client credentials and password logins; a user is blocked after `lockAfter` wrong ones. */
function tokenEndpoint(lockAfter: number | null) {
  const passwords: Record<string, string> = {
    [A.IDM_TEST_USERNAME]: A.IDM_TEST_PASSWORD,
    [A.IDM_LOCKOUT_USERNAME]: A.IDM_LOCKOUT_PASSWORD,
  };
  const wrong = new Map<string, number>();
  const answer = (status: number, body: object) => ({ status, body });
  const error = (status: number, code: string, description: string) =>
    answer(status, { code, error_description: description });
  const token = (sub: string) => {
    const iat = Math.floor(Date.now() / 1000);
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const jwt = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub, iat, exp: iat + 3600 })}.c2lnbmF0dXJl`;
    return answer(200, { access_token: jwt, token_type: 'Bearer', expires_in: 86_400 });
  };
  return (p: Record<string, string>) => {
    if (p.client_id !== A.IDM_POST_CLIENT_ID || p.client_secret !== A.IDM_POST_CLIENT_SECRET)
      return error(401, 'invalid_client', 'Unknown client or wrong secret.');
    if (p.grant_type === 'client_credentials') return token(p.client_id);
    if (p.grant_type !== 'password') return error(400, 'unsupported_grant_type', 'Not offered.');
    const failed = wrong.get(p.username ?? '') ?? 0;
    if (lockAfter !== null && failed >= lockAfter) return error(429, 'too_many_attempts', 'Account blocked.');
    if (passwords[p.username ?? ''] === p.password) return token(p.username!);
    wrong.set(p.username ?? '', failed + 1);
    return error(400, 'invalid_grant', 'Wrong email or password.');
  };
}

async function simulator(lockAfter: number | null): Promise<{ server: Server; url: string }> {
  const handle = tokenEndpoint(lockAfter);
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const form = !req.headers['content-type']?.includes('json');
      const p = form ? Object.fromEntries(new URLSearchParams(raw)) : raw ? JSON.parse(raw) : {};
      const { status, body } =
        req.method === 'POST' && req.url === '/oauth/token' ? handle(p) : { status: 404, body: { code: 'not_found' } };
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store', pragma: 'no-cache' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

const dirs: string[] = [];
test.afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function verdict(lockAfter: number | null): Promise<ConformanceReport> {
  const { server, url } = await simulator(lockAfter);
  try {
    const outDir = mkdtempSync(join(tmpdir(), 'idm-in-passing-'));
    dirs.push(outDir);
    const run = await runSuite({
      origin: url,
      outDir,
      timeoutMs: 2 * 60_000,
      extraEnv: { IDM_APIS: 'authentication', IDM_LOCKOUT_ATTEMPTS: '5' },
      extraArgs: ['specs/authentication/conventions/login-limit.spec.ts'],
    });
    expect(run.report, `${run.reportError ?? ''} (log ${run.logFile})`).not.toBeNull();
    expect(reportInvariants(run.report!), 'the report keeps the invariants of every report').toEqual([]);
    expect(doubleCounted(run.report!), 'no exchange fails two must clauses for one rule').toEqual([]);
    return run.report!;
  } finally {
    await new Promise((r) => server.close(r));
  }
}

const clause = (r: ConformanceReport, id: string) => r.clauses.find((c) => c.id === id)!;
const failedMust = (r: ConformanceReport) =>
  r.clauses.filter((c) => c.kind === 'must' && c.status === 'failed').map((c) => c.id);
/** The clauses whose records name `id` as what they could not be judged without. */
const dependants = (r: ConformanceReport, id: string) => {
  const failed = r.clauses.filter((c) => c.status === 'failed');
  return byRootCause(r.clauses, failed).find((c) => c.clause.id === id)?.dependants ?? [];
};

test('with the lockout: the §8 test goes on past the failed expires-in to the blocked login, and both clauses fail', async () => {
  const r = await verdict(3);
  expect(failedMust(r).sort()).toEqual([OAUTH_ERROR, EXPIRES_IN].sort());
  // Both in the one §8 test: the error object was judged after expires-in had failed.
  for (const id of [EXPIRES_IN, OAUTH_ERROR])
    expect(clause(r, id).failures.map((f) => f.test)).toEqual(
      expect.arrayContaining([expect.stringContaining('login-limit.spec.ts')]),
    );
  expect(clause(r, OAUTH_ERROR).failures[0]!.message).toContain('without a string error member');
  expect(clause(r, LOGIN_LIMIT).status).toBe('passed');
  // Neither is the root cause of anything, and no record names either.
  expect(dependants(r, EXPIRES_IN)).toEqual([]);
  expect(dependants(r, OAUTH_ERROR)).toEqual([]);
  expect(r.clauses.filter((c) => causeClauses(c).some((id) => [EXPIRES_IN, OAUTH_ERROR].includes(id)))).toEqual([]);
});

test('without one: what the refusal that never came would judge names it, never the expires-in failed in passing', async () => {
  const r = await verdict(null);
  expect(failedMust(r).sort()).toEqual([LOGIN_LIMIT, EXPIRES_IN].sort());
  expect(clause(r, OAUTH_ERROR).skips).toMatchObject([{ by: 'tenant', cause: { clause: LOGIN_LIMIT } }]);
  expect(dependants(r, LOGIN_LIMIT)).toEqual([OAUTH_ERROR]);
  expect(dependants(r, EXPIRES_IN)).toEqual([]);
  // The §8 test ran to its end: a clause it declares and never judged is no failure's dependant.
  expect(causeClauses(clause(r, 'auth.error.client-fault-4xx'))).toEqual([]);
});
