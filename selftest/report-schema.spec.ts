// conformance.json is read by machines (npm run diff, CI, dashboards): its format is
// fixed by reporters/conformance.schema.json. Reports the reporter builds — every status,
// full evidence, a baselined failure — must validate (ajv 2020-12, strict), and the
// schema must refuse what the format does not allow.
import { existsSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { expect, test } from '@playwright/test';
import { runSkip } from '../lib/skip-record.ts';
import { runSettings } from '../lib/config/run.ts';
import { buildReport } from '../reporters/build-report.ts';
import { loadContractCatalogue } from '../reporters/catalogue.ts';
import type { CatalogueEntry, ConformanceReport, TestOutcome } from '../reporters/model.ts';

// ajv-formats ships CommonJS; under NodeNext its default import is the module object.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true });
addFormats(ajv, { formats: ['date-time'] });
const validate = ajv.compile(JSON.parse(readFileSync('reporters/conformance.schema.json', 'utf8')) as object);

test('a report with every status, full evidence and a baselined failure validates', async () => {
  const report = await sampleReport();
  expect(new Set(report.clauses.map((c) => c.status))).toEqual(
    new Set(['failed', 'expected-failure', 'passed', 'observed', 'skipped', 'not-exercisable']),
  );
  expect(validate(report), ajv.errorsText(validate.errors)).toBe(true);
  const apart = { ...report, authTarget: 'https://login.example.com' };
  expect(validate(apart), `with a separate authentication API: ${ajv.errorsText(validate.errors)}`).toBe(true);
});

test('the schema refuses an unknown status, an unknown field, a missing gate and an authTarget that is not a string', async () => {
  const report = await sampleReport();
  const broken: unknown[] = [
    { ...report, clauses: [{ ...report.clauses[0]!, status: 'mostly-passed' }] },
    { ...report, verdict: 'ok' },
    Object.fromEntries(Object.entries(report).filter(([k]) => k !== 'gate')),
    { ...report, authTarget: null },
  ];
  for (const doc of broken) expect(validate(doc)).toBe(false);
});

test("the last real run's conformance.json validates, if there is one", () => {
  const path = `${runSettings().reportsDir}/conformance.json`;
  test.skip(!existsSync(path), `no ${path} yet (npm run conformance writes it)`);
  const doc = JSON.parse(readFileSync(path, 'utf8')) as unknown;
  expect(validate(doc), ajv.errorsText(validate.errors)).toBe(true);
});

// Helpers

async function sampleReport(): Promise<ConformanceReport> {
  const catalogue = await loadContractCatalogue();
  const must = catalogue.filter((c) => c.kind === 'must');
  const [failing, baselined, passing, skipped] = must as [
    CatalogueEntry,
    CatalogueEntry,
    CatalogueEntry,
    CatalogueEntry,
  ];
  const observe = catalogue.find((c) => c.kind === 'observe')!;
  const tests: TestOutcome[] = [
    {
      title: 'fails with evidence',
      file: 'specs/a.spec.ts',
      line: 3,
      status: 'failed',
      clauses: [failing.id, baselined.id],
      checks: [
        {
          clause: failing.id,
          outcome: 'failed',
          message: 'expected 400, got 201',
          evidence: {
            request: {
              method: 'PATCH',
              url: 'http://127.0.0.1:4810/api/v2/resource-servers/rs_conformance',
              headers: { authorization: 'Bearer <redacted>' },
              body: { name: 'x' },
            },
            response: { status: 201, headers: { 'content-type': 'application/json' }, body: { id: 'rs_conformance' } },
            curl: 'curl -X PATCH …',
            seed: 42,
            path: '1:0',
            counterexample: { name: 'x' },
          },
        },
        { clause: baselined.id, outcome: 'failed', message: 'known deviation' },
      ],
      requests: 3,
    },
    {
      title: 'passes',
      file: 'specs/b.spec.ts',
      status: 'passed',
      flaky: true,
      clauses: [passing.id],
      checks: [{ clause: passing.id, outcome: 'passed', message: 'ok' }],
    },
    {
      title: 'observes',
      file: 'specs/c.spec.ts',
      status: 'passed',
      clauses: [observe.id],
      checks: [{ clause: observe.id, outcome: 'observed', message: 'status', observation: 'answered 201' }],
    },
    {
      title: 'skips',
      file: 'specs/d.spec.ts',
      status: 'skipped',
      skip: runSkip({ setting: 'IDM_LIMITED_CLIENT_ID' }, 'limited client not configured'),
      clauses: [skipped.id],
      checks: [],
    },
  ];
  return buildReport({
    catalogue,
    tests,
    baseline: {
      path: 'baseline/known-deviations.json',
      entries: [{ clause: baselined.id, reason: 'known', link: 'https://tracker.example/IDM-1' }],
    },
    playwrightStatus: 'failed',
    globalErrors: [],
    otherFailures: [],
    meta: {
      suite: { name: 'idm-conformance', version: '0.1.0' },
      target: 'http://127.0.0.1:4810',
      seed: 42,
      depth: 'quick',
      startedAt: new Date(0),
      endedAt: new Date(5000),
    },
  }).report;
}
