// A broken or hostile staging tenant never hangs or crashes the suite. For each way a
// tenant can misbehave, a small node:http server in front of a reference tenant
// (selftest/hostile-proxy.ts) misbehaves that way and the real command runs against it:
// the run ends (the test timeout is only a hang guard), with one clear line or clean
// per-clause failures carrying evidence, a report the reporter could write, and the
// resource server restored (no journal left, state equal to the start).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { requestDevToken, startHarnessTenant, type HarnessTenant } from '../mutation/tenant.ts';
import type { ConformanceReport } from '../reporters/model.ts';
import { startHostileProxy, type Misbehaviour } from './hostile-proxy.ts';
import { removeWorkspaces, runCli, tenantSettings, workspace, type CliResult, type Workspace } from './cli-run.ts';
import { reportInvariants } from './report-invariants.ts';

/** A property run and a few single writes: enough requests for every misbehaviour to meet some. */
const GREP = ['--grep', 'resource server: valid bodies'];

test.describe.configure({ mode: 'serial' });
test.setTimeout(240_000);

let harness: HarnessTenant;
const times: string[] = [];

test.beforeAll(async () => {
  harness = await startHarnessTenant('reference', { port: 0 });
});
test.afterAll(async () => {
  await harness?.tenant.close();
  removeWorkspaces();
  if (times.length > 0) console.log(`broken-target runs:\n  ${times.join('\n  ')}`);
});

async function readRs(): Promise<Record<string, unknown>> {
  const { token } = await requestDevToken(harness.tenant.url, harness.tenant.publicUrl);
  const res = await fetch(`${harness.tenant.url}/api/v2/resource-servers/rs_conformance`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  return (await res.json()) as Record<string, unknown>;
}

async function against(how: Misbehaviour): Promise<{
  r: CliResult;
  ws: Workspace;
  hits: number;
  report: ConformanceReport | null;
  before: Record<string, unknown>;
}> {
  const before = await readRs();
  const proxy = await startHostileProxy(harness.tenant.url, how);
  const ws = workspace();
  try {
    const r = await runCli(
      'conformance',
      ws,
      tenantSettings(proxy.url, {
        // The tenant's own audience (behind the proxy it keeps its public URL).
        IDM_AUDIENCE: `${harness.tenant.publicUrl}/api/v2/`,
        IDM_ALLOW: 'burst,experiments,irreversible',
        IDM_TIMEOUT_MS: '3000',
      }),
      GREP,
    );
    times.push(
      `${how}: exit ${r.code} in ${(r.ms / 1000).toFixed(1)} s (${proxy.hits()} requests met the misbehaviour)`,
    );
    const file = join(ws.reportsDir, 'conformance.json');
    const report = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ConformanceReport) : null;
    return { r, ws, hits: proxy.hits(), report, before };
  } finally {
    await proxy.close();
  }
}

/** The one line a refused run prints (its code), and nothing else from the suite. */
function oneLine(r: CliResult, code: string): string {
  const lines = r.stderr.split('\n').filter((l) => l.startsWith('idm-conformance:'));
  expect(lines, r.stderr.slice(-800)).toHaveLength(1);
  expect(lines[0]).toContain(`idm-conformance: ${code}: `);
  return lines[0]!;
}

/** The run went through to the end: a report, the resource server as found, no journal left. */
async function endedCleanly(x: Awaited<ReturnType<typeof against>>): Promise<ConformanceReport> {
  expect(x.hits, 'the misbehaviour was met').toBeGreaterThan(0);
  expect(x.report, `a report was written (${x.r.stderr.slice(-600)})`).not.toBeNull();
  expect(x.r.stderr, 'no reporter crashed').not.toMatch(/Error in reporter|Unhandled|FATAL/i);
  expect(
    existsSync(x.ws.stateDir) ? readdirSync(x.ws.stateDir).filter((f) => f.startsWith('journal-')) : [],
    'the restore ran and was verified',
  ).toEqual([]);
  const after = await readRs();
  expect(Object.keys(after).filter((k) => JSON.stringify(after[k]) !== JSON.stringify(x.before[k]))).toEqual([]);
  return x.report!;
}

/** An unanswered request failed nothing: the clauses it stopped are the run's, each naming it. */
function noAnswerOnly(report: ConformanceReport, what: RegExp): void {
  expect(report.clauses.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual([]);
  expect(report.gate.verdict).toBe('incomplete');
  const stopped = report.incomplete.filter((u) => u.skips.some((r) => r.cause.answer === 'no-answer'));
  expect(stopped.length, JSON.stringify(report.incomplete)).toBeGreaterThan(0);
  for (const u of stopped) expect(u.reason).toMatch(what);
}

function failureTexts(report: ConformanceReport): string {
  return (
    JSON.stringify(report.clauses.filter((c) => c.status === 'failed').map((c) => c.failures)) +
    JSON.stringify(report.gate.reasons)
  );
}

test('the token endpoint answers an HTML login page with 200: one line, exit 3', async () => {
  const x = await against('login-wall-token');
  expect(x.r.code).toBe(3);
  expect(oneLine(x.r, 'IDM_E_TARGET_UNUSABLE')).toMatch(/HTML page .*login page or proxy/);
});

test('the management API answers an HTML login page with 200: one line, exit 3', async () => {
  const x = await against('login-wall-api');
  expect(x.r.code).toBe(3);
  expect(oneLine(x.r, 'IDM_E_TARGET_UNUSABLE')).toMatch(/IDM_RESOURCE_SERVER_ID .*HTML page/);
});

test('an http:// base URL redirected to https://: the user is told which URL to set, exit 3', async () => {
  const x = await against('redirect-https');
  expect(x.r.code).toBe(3);
  expect(oneLine(x.r, 'IDM_E_TARGET_UNUSABLE')).toMatch(/redirecting to https:\/\/.*set IDM_BASE_URL to https:\/\//);
});

test('a response that stalls mid-body: one cause of the run (INCOMPLETE, the request and the limit named), never a failure', async () => {
  const x = await against('stall-mid-body');
  const report = await endedCleanly(x);
  expect(x.r.code).toBe(0);
  noAnswerOnly(
    report,
    /did not answer [A-Z]+ http:\/\/\S+\/api\/v2\/[^\s,]+, sent twice: the target did not answer in full within 3000 ms \(IDM_TIMEOUT_MS\)/,
  );
});

test('a body of hundreds of MB: read no further than the cap, evidence capped with a note', async () => {
  const x = await against('huge-body');
  const report = await endedCleanly(x);
  expect(x.r.code).toBe(1);
  expect(failureTexts(report)).toMatch(/the response body of \d+ bytes \(Content-Length\) was cut after 1048576 bytes/);
  expect(
    readFileSync(join(x.ws.reportsDir, 'conformance.json')).length,
    'the report holds capped evidence, not the body',
  ).toBeLessThan(5 * 1024 * 1024);
});

test('connections reset on some requests: one cause of the run naming the reset, never a failure', async () => {
  const x = await against('reset');
  const report = await endedCleanly(x);
  expect(x.r.code).toBe(0);
  noAnswerOnly(report, /the target reset the connection/);
});

test('invalid JSON under a JSON content type: per-clause failures with the body as evidence', async () => {
  const x = await against('invalid-json');
  const report = await endedCleanly(x);
  expect(x.r.code).toBe(1);
  expect(report.gate.verdict).toBe('non-conformant');
  const failed = report.clauses.filter((c) => c.status === 'failed');
  expect(failed.map((c) => c.id)).toContain('rs.response.object');
  expect(JSON.stringify(failed.find((c) => c.id === 'rs.response.object')?.failures)).toContain(
    '"id\\":\\"rs_conformance',
  );
});

test('intermittent 503s on valid requests: each sent again until it passes and absorbed, listed in run.resent, no finding', async () => {
  const x = await against('intermittent-503');
  const report = await endedCleanly(x);
  expect(x.r.code, failureTexts(report)).toBe(0);
  expect(report.clauses.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual([]);
  expect(report.clauses.find((c) => c.id === 'mgmt.error.server-fault')?.status).toBe('passed');
  // Every 503 the tests met, and only those, was sent again (a resend may meet the next one), after
  // a back-off of our own (no Retry-After): 1 s, then 2 s…; each ended in the answer, no bound spent.
  const resent = report.run.resent ?? [];
  expect(resent.reduce((n, r) => n + r.resends, 0)).toBe(x.hits);
  for (const r of resent) {
    expect(r).toMatchObject({ status: 503, waitedMs: 1000 * (2 ** r.resends - 1) });
    expect(r.final).not.toBe(503);
    expect(r.spent).toBeUndefined();
  }
  expect(reportInvariants(report)).toEqual([]);
});

test('intermittent 500s on valid requests: a finding about the tenant, mgmt.error.server-fault alone, what they answered skipped naming it', async () => {
  const x = await against('intermittent-500');
  const report = await endedCleanly(x);
  expect(x.r.code).toBe(1);
  expect(report.gate.verdict).toBe('non-conformant');
  expect(report.clauses.filter((c) => c.status === 'failed').map((c) => c.id)).toEqual(['mgmt.error.server-fault']);
  expect(report.run.resent ?? [], 'a 500 is not sent again').toEqual([]);
  // A clause a fault left unjudged names the fault clause, as the tenant's (never the run's).
  const byFault = report.clauses.filter((c) => (c.skips ?? []).some((s) => s.cause.answer === 'fault'));
  for (const c of byFault)
    expect(c.skips?.filter((s) => s.cause.answer === 'fault')).toEqual(
      c.skips?.filter((s) => s.by === 'tenant' && s.cause.clause === 'mgmt.error.server-fault'),
    );
  expect(reportInvariants(report)).toEqual([]);
});
