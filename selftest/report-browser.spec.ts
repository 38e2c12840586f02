// The HTML report in a real browser: the Chromium lib/auth/browser.ts finds (`.ci/run` installs
// one), driven by Playwright. A report built from the real
// clause catalogue with synthetic results (one failure with full evidence, an observation,
// a skip) must render, show its headline figure, and expand a failing clause to its
// evidence. Screenshots are kept under reports/.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { findChromium, launchChromium, noChromiumReason } from '../lib/auth/browser.ts';
import { buildReport } from '../reporters/build-report.ts';
import { loadContractCatalogue } from '../reporters/catalogue.ts';
import { runSettings } from '../lib/config/run.ts';
import { renderHtml } from '../reporters/html.ts';
import type { CatalogueEntry, CheckRecord, ConformanceReport, TestOutcome } from '../reporters/model.ts';

const LOOKUP = findChromium();
const CHROMIUM = LOOKUP.path;
const REPORTS = runSettings().reportsDir;

test.describe('conformance.html in Chromium', () => {
  test.skip(!CHROMIUM && !process.env.CI, noChromiumReason(LOOKUP));

  let browser: Browser;
  let report: ConformanceReport;
  let file: string;
  let failing: CatalogueEntry;

  test.beforeAll(async () => {
    // In CI the browser test must run: a missing binary is a failure there, not a skip.
    if (!CHROMIUM) throw new Error(`${noChromiumReason(LOOKUP)} although CI is set; .ci/run installs a Chromium`);
    browser = await launchChromium(LOOKUP);
    ({ report, failing } = await sampleReport());
    mkdirSync(REPORTS, { recursive: true });
    file = join(process.cwd(), REPORTS, 'conformance-selftest.html');
    writeFileSync(file, renderHtml(report));
  });

  test.afterAll(async () => {
    await browser?.close();
  });

  test('the page renders its headline figure and a matrix square for every clause', async () => {
    const page = await open();
    await expect(page).toHaveTitle(/Conformance/);
    const c = report.totals.conformance;
    await expect(page.getByTestId('headline-figure')).toHaveText(`${c.passed}/${c.exercised}`);
    await expect(page.getByTestId('verdict')).toContainText('exit 1');
    await expect(page.locator('.matrix a.sq')).toHaveCount(report.clauses.length);
    await expect(page.locator('.matrix a.sq.s-failed')).toHaveCount(1);
    await expect(page.locator('#observations')).toContainText('experiment create answered 201');
    await page.screenshot({ path: join(REPORTS, 'conformance-selftest-top.png') });
    await page.close();
  });

  test('a failing clause expands to its evidence: message, replay seed, counterexample, curl', async () => {
    const page = await open();
    const details = page.locator(`details[data-clause="${failing.id}"]`);
    const evidence = details.getByTestId('evidence');
    await expect(evidence).toBeHidden();
    await details.locator('summary').click();
    await expect(evidence).toBeVisible();
    await expect(evidence).toContainText('name of 201 characters: expected 400, got 201');
    await expect(evidence).toContainText('seed 1234567');
    await expect(evidence.locator('pre.curl')).toContainText(
      "curl -X PATCH 'http://127.0.0.1:4810/api/v2/resource-servers/rs_conformance'",
    );
    await expect(evidence).toContainText('"name": "' + 'x'.repeat(201));
    await details.screenshot({ path: join(REPORTS, 'conformance-selftest-failure.png') });
    await page.close();
  });

  test('the matrix square of a failing clause leads to its row, and the row to the spec text', async () => {
    const page = await open();
    await page.locator(`.matrix a.sq[href="#clause-${failing.id}"]`).click();
    const row = page.locator(`tr[id="clause-${failing.id}"]`);
    await expect(row).toBeInViewport();
    await expect(row).toContainText(failing.text);
    await row.locator('a.speclink').click();
    const spec = page.locator(`details[id="spec-${failing.section.replace(/\./g, '-')}"]`);
    await expect(spec).toHaveAttribute('open', '');
    await expect(spec.locator('.spec-text')).toContainText('max length 200');
    await page.close();
  });

  test('the status filter leaves only the chosen clauses in the table', async () => {
    const page = await open();
    await page.locator('.chip[data-filter="failed"]').click();
    await expect(page.locator('tr.row:visible')).toHaveCount(1);
    await page.locator('.chip[data-filter="all"]').click();
    await expect(page.locator('tr.row:visible')).toHaveCount(report.clauses.length);
    await page.close();
  });

  test("the last real run's report renders, if there is one", async () => {
    const real = join(process.cwd(), REPORTS, 'conformance.html');
    test.skip(!existsSync(real), `no ${REPORTS}/conformance.html yet (npm run conformance writes it)`);
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors = watchErrors(page);
    await page.goto(`file://${real}`);
    await expect(page.getByTestId('headline-figure')).toHaveText(/^\d+\/\d+$/);
    await page.screenshot({ path: join(REPORTS, 'conformance.png') });
    expect(errors).toEqual([]);
    await page.close();
  });

  async function open(): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const errors = watchErrors(page);
    await page.goto(`file://${file}`);
    test.info().attachments.push({
      name: 'page errors',
      contentType: 'application/json',
      body: Buffer.from(JSON.stringify(errors)),
    });
    expect(errors, 'the page runs without script errors').toEqual([]);
    return page;
  }
});

// Helpers

function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  return errors;
}

/** The real catalogue; a few must clauses pass, one fails with evidence, one observe clause is observed. */
async function sampleReport(): Promise<{ report: ConformanceReport; failing: CatalogueEntry }> {
  const catalogue = await loadContractCatalogue();
  const must = catalogue.filter((c) => c.kind === 'must');
  const failing = must.find((c) => c.section === '2.2' && /max length 200/.test(c.text)) ?? must[0]!;
  const observe =
    catalogue.find((c) => c.kind === 'observe' && c.section === '4.2') ?? catalogue.find((c) => c.kind === 'observe')!;
  const passing = must.filter((c) => c.id !== failing.id).slice(0, 40);
  const fail: CheckRecord = {
    clause: failing.id,
    outcome: 'failed',
    message: 'name of 201 characters: expected 400, got 201',
    evidence: {
      seed: 1234567,
      path: '4:2',
      counterexample: { name: 'x'.repeat(201) },
      curl: "curl -X PATCH 'http://127.0.0.1:4810/api/v2/resource-servers/rs_conformance' -H 'Authorization: Bearer <redacted>' -H 'Content-Type: application/json' --data-raw '{\"name\":\"xxx…\"}'",
      request: {
        method: 'PATCH',
        url: 'http://127.0.0.1:4810/api/v2/resource-servers/rs_conformance',
        headers: { authorization: 'Bearer <redacted>', 'content-type': 'application/json' },
        body: { name: 'x'.repeat(201) },
      },
      response: {
        status: 201,
        headers: { 'content-type': 'application/json' },
        body: { id: 'rs_conformance', name: 'x'.repeat(201) },
      },
    },
  };
  const tests: TestOutcome[] = [
    {
      title: 'name of 201 characters is rejected with 400',
      file: 'specs/resource-server/limits.spec.ts',
      status: 'failed',
      clauses: [failing.id],
      checks: [fail],
    },
    {
      title: 'valid bodies are accepted',
      file: 'specs/resource-server/accepts-valid-updates.spec.ts',
      status: 'passed',
      clauses: passing.map((c) => c.id),
      checks: passing.map((c) => ({ clause: c.id, outcome: 'passed', message: 'as specified' })),
      requests: 120,
    },
    {
      title: 'experiment creation status is recorded',
      file: 'specs/experiment/create.spec.ts',
      status: 'passed',
      clauses: [observe.id],
      checks: [
        {
          clause: observe.id,
          outcome: 'observed',
          message: 'success status',
          observation: 'experiment create answered 201',
        },
      ],
      requests: 2,
    },
  ];
  const { report } = buildReport({
    catalogue,
    tests,
    baseline: { path: 'baseline/known-deviations.json', entries: [] },
    playwrightStatus: 'failed',
    globalErrors: [],
    otherFailures: [],
    meta: {
      suite: { name: 'idm-conformance', version: 'selftest' },
      target: 'http://127.0.0.1:4810',
      seed: 1234567,
      depth: 'quick',
      startedAt: new Date('2026-01-01T00:00:00Z'),
      endedAt: new Date('2026-01-01T00:00:12Z'),
    },
  });
  return { report, failing };
}
