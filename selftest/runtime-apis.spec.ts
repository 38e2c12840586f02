// IDM_APIS=authentication: the authentication API judged alone, through the whole chain (global
// setup, fixtures, reporter), in a small real run against the embedded tenant. A Management-API
// test is skipped as the run's, naming IDM_APIS; so is a management clause no test declares
// (judged on its every answer); an authentication clause is judged as in any run, and one this
// selection left out still reads "not run in this selection". Nothing of the Management API is
// read or written: no token, no snapshot, no restore. IDM_APIS=management is the mirror image:
// the authentication API's tests and its run-wide clauses skipped naming the setting.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { RunMeta } from '../lib/run-meta.ts';
import { runSettings } from '../lib/config/run.ts';
import type { ConformanceReport } from '../reporters/model.ts';
import { removeWorkspaces, runCli, workspace } from './cli-run.ts';

test.afterAll(removeWorkspaces);

/** Whose skip a clause outside the run's half carries: the run's, naming the setting. */
const APIS = { by: 'run', cause: { setting: 'IDM_APIS' } };

test('a run of the authentication API alone: management clauses skipped naming IDM_APIS, authentication clauses judged, nothing read or restored', async () => {
  // A port of its own next to the one this checkout uses (report-origins takes +8).
  const port = runSettings().embeddedPort + 9;
  const { report, of, meta } = await runAlone('authentication', port);
  expect(of('rs.update.name.max-length')).toMatchObject({ status: 'skipped', skips: [APIS] });
  expect(of('rs.response.object')).toMatchObject({ status: 'skipped', skips: [APIS] });
  expect(of('auth.flow.client-credentials').status).toBe('passed');
  expect(of('auth.flow.userinfo')).toMatchObject({ status: 'skipped', skips: [{ by: 'run', cause: {} }] });
  expect(report.target).toBe(`http://127.0.0.1:${port}`);
  // Outside the tests, only the discovery document was read: no management token, no snapshot, no restore.
  expect(meta).toMatchObject({ requestsOutsideTests: { setup: 1, teardown: 0 } });
  expect(meta.restore).toBeUndefined();
});

test('a run of the Management API alone: authentication clauses skipped naming IDM_APIS, management clauses judged', async () => {
  const { of } = await runAlone('management', runSettings().embeddedPort + 10);
  expect(of('auth.flow.client-credentials')).toMatchObject({ status: 'skipped', skips: [APIS] });
  // Judged over the run from the authentication API's errors, declared by no test: IDM_APIS's too.
  expect(of('auth.error.code-and-description')).toMatchObject({ status: 'skipped', skips: [APIS] });
  expect(of('rs.update.name.max-length').status).toBe('passed');
  expect(of('mgmt.error.server-fault').status).toBe('passed');
});

// Helpers

/** A small run with one API under test: its report, a clause by id, its run facts (which name that API). */
async function runAlone(apis: 'authentication' | 'management', port: number) {
  test.setTimeout(150_000);
  const ws = workspace();
  const r = await runCli('conformance', ws, { IDM_EMBEDDED_PORT: String(port), IDM_APIS: apis }, [
    '--grep',
    '@rs.update.name.max-length|@auth.flow.client-credentials',
  ]);
  expect(r.code, r.stdout.slice(-1500) + r.stderr.slice(-1500)).toBe(0);
  const report = JSON.parse(readFileSync(join(ws.reportsDir, 'conformance.json'), 'utf8')) as ConformanceReport;
  const meta = JSON.parse(readFileSync(join(ws.reportsDir, 'run-meta.json'), 'utf8')) as RunMeta;
  expect(report.run.notes?.some((n) => n.includes(`IDM_APIS=${apis}`))).toBe(true);
  expect(meta.apis).toBe(apis);
  return { report, meta, of: (id: string) => report.clauses.find((c) => c.id === id)! };
}
