// Playwright reporter for the `conformance` project: per-clause verdicts
// (reports/conformance.json, reports/conformance.html), the terminal summary, and the gate
// (docs/ARCHITECTURE.md, "Exit codes"). The decisions live in pure modules next to it.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type {
  FullConfig,
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestError,
  TestResult,
} from '@playwright/test/reporter';
import { halfNotUnderTest, loadConfig, secretValues } from '../lib/config.ts';
import { createRedactor, type Redactor } from '../lib/redact.ts';
import { readRunMeta, type RunMeta as RuntimeMeta } from '../lib/run-meta.ts';
import { cleanupLine, cleanupReport } from '../lib/experiment-cleanup.ts';
import { runSettings } from '../lib/config/run.ts';
import { readSources } from '../lib/config/sources.ts';
import {
  decodeSkip,
  isSkipRecord,
  NO_ANSWER_ANNOTATION,
  STOPPED_ANNOTATION,
  type SkipRecord,
} from '../lib/skip-record.ts';
import { CLAUSE_TAG_PATTERN } from '../contract/grammar.ts';
import { BASELINE_ERROR, BaselineError, loadBaseline } from './baseline.ts';
import type { ErrorRecord } from '../lib/errors.ts';
import { RESENT_ANNOTATION, type Resent } from '../lib/http.ts';
import { runErrors } from '../lib/run-errors.ts';
import { buildReport } from './build-report.ts';
import { judgedNothing } from './aggregate.ts';
import { CatalogueError, loadCatalogueFile, loadContractCatalogue } from './catalogue.ts';
import { renderHtml } from './html.ts';
import type {
  AttackResult,
  AuthErrorRecord,
  BaselineEntry,
  CatalogueEntry,
  CheckRecord,
  ConformanceReport,
  TestOutcome,
} from './model.ts';
import { parseAuthError } from './auth-errors.ts';
import { parseAttack } from './attacks.ts';
import { renderSummary } from './summary.ts';

export interface ConformanceReporterOptions {
  /** Folder for conformance.json / conformance.html (default `reports`). */
  outputDir?: string;
  /** Catalogue JSON file; default: the contract's loader (contract/clauses.ts). */
  catalogue?: string;
  /** Baseline file (default `baseline/known-deviations.json`, or IDM_BASELINE). */
  baseline?: string;
  /** Name of the project whose tests carry verdicts (default `conformance`). */
  project?: string;
  /** Print the terminal summary (default true). */
  summary?: boolean;
  /** Read the runtime's reports/run-meta.json for target, seed, depth and requests (default true). */
  runMeta?: boolean;
}

export default class ConformanceReporter implements Reporter {
  private readonly opts: Required<Omit<ConformanceReporterOptions, 'catalogue'>> & { catalogue?: string };
  private config?: FullConfig;
  private root?: Suite;
  private startedAt = new Date();
  /** Before the global setup runs: a run-meta.json older than this is another run's. */
  private readonly createdAt = Date.now();
  private readonly globalErrors: ErrorRecord[] = [];

  constructor(options: ConformanceReporterOptions = {}) {
    this.opts = {
      outputDir: options.outputDir ?? 'reports',
      baseline: options.baseline ?? runSettings().baseline,
      project: options.project ?? 'conformance',
      summary: options.summary ?? true,
      runMeta: options.runMeta ?? true,
      ...(options.catalogue !== undefined ? { catalogue: options.catalogue } : {}),
    };
  }

  printsToStdio(): boolean {
    return this.opts.summary;
  }

  onBegin(config: FullConfig, suite: Suite): void {
    this.config = config;
    this.root = suite;
    this.startedAt = new Date();
  }

  onError(error: TestError): void {
    // An error Playwright met outside tests carries no code of ours (the runtime records its own: lib/run-errors.ts).
    this.globalErrors.push({ code: null, line: oneLine(error.message ?? error.value ?? 'unknown error') });
  }

  async onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    const root = this.root;
    // Runs without the conformance project (self-tests, reference tests) are not ours to judge.
    if (!root?.suites.some((s) => s.project()?.name === this.opts.project)) return undefined;

    const problems: string[] = [];
    const tests: TestOutcome[] = [];
    const otherFailures: string[] = [];
    const hints: RunHints = {};
    const projectHints: RunHints = {};
    for (const s of root.suites) {
      const p = s.project();
      if (p?.name === this.opts.project) Object.assign(projectHints, metadataHints(p.metadata));
    }
    for (const test of root.allTests()) {
      const projectName = projectOf(test);
      const last = test.results.at(-1);
      if (projectName !== this.opts.project) {
        const outcome = test.outcome();
        if (outcome === 'unexpected')
          otherFailures.push(`test "${projectName} › ${test.title}" failed outside the conformance project`);
        continue;
      }
      tests.push(toOutcome(test, last, problems, hints));
    }

    let catalogue: CatalogueEntry[] = [];
    try {
      catalogue = this.opts.catalogue ? loadCatalogueFile(this.opts.catalogue) : await loadContractCatalogue();
    } catch (err) {
      const line =
        err instanceof CatalogueError ? err.line() : `idm-conformance: IDM_E_CONFIG_CATALOGUE: ${oneLine(String(err))}`;
      this.globalErrors.push({ code: 'IDM_E_CONFIG_CATALOGUE', line });
    }
    let baselineEntries: BaselineEntry[] = [];
    let baselineError: ErrorRecord | null = null;
    try {
      baselineEntries = loadBaseline(this.opts.baseline);
    } catch (err) {
      baselineError =
        err instanceof BaselineError
          ? { code: err.code, line: err.line() }
          : { code: BASELINE_ERROR, line: oneLine(String(err)) };
    }

    const runtime = this.runtimeMeta(hints);
    const meta = this.runMeta(hints, projectHints, runtime);
    if (runtime?.restore && !runtime.restore.ok)
      problems.push(
        `the resource server ${runtime.resourceServerId} was not restored to its snapshot: ${runtime.restore.unrestored.join(', ')}`,
      );
    const notUnderTest = runtime?.apis ? halfNotUnderTest({ apis: runtime.apis }) : null;
    const { report, warnings } = buildReport({
      catalogue,
      tests,
      baseline: { path: this.opts.baseline, entries: baselineEntries, error: baselineError },
      playwrightStatus: result.status,
      globalErrors: [...this.globalErrors, ...runErrors(), ...problems.map((line) => ({ code: null, line }))],
      stoppedEarly: stoppedEarly(this.config, root),
      resent: tests.flatMap((t) => (t.resent ?? []).map((r) => ({ ...r, test: `${t.file} › ${t.title}` }))),
      otherFailures,
      notes: [
        ...(runtime?.recovered
          ? [
              `restored the changes of an interrupted run ${runtime.recovered.runTag} from ${runtime.recovered.startedAt}`,
            ]
          : []),
        ...(runtime?.recoveredExperiments ? [cleanupLine(runtime.recoveredExperiments, true)] : []),
        ...(runtime?.experiments ? [cleanupLine(runtime.experiments, false)] : []),
        ...(notUnderTest ? [notUnderTest.record.text] : []),
      ],
      ...(runtime?.experiments ? { experiments: cleanupReport(runtime.experiments) } : {}),
      notUnderTest,
      meta: { ...meta, startedAt: result.startTime ?? this.startedAt, endedAt: new Date() },
      failOnIncomplete: failOnIncomplete(),
    });
    redactRunData(report, runRedactor());
    // Requests the runtime sent outside tests (token, snapshot, restore) count too.
    if (runtime && report.requests !== null)
      report.requests += runtime.requestsOutsideTests.setup + runtime.requestsOutsideTests.teardown;

    const files = this.write(report);
    // Uncoloured copy for CI job summaries and for people who get the files, not the log.
    writeFileSync(
      join(this.opts.outputDir, 'conformance-summary.txt'),
      renderSummary(report, { color: false, files, warnings }),
    );
    if (this.opts.summary) process.stdout.write(renderSummary(report, { color: useColour(), files, warnings }));
    if (report.gate.exitCode > 0 && report.gate.exitCode !== 1) {
      for (const reason of report.gate.reasons)
        if (reason.startsWith('idm-conformance:')) process.stderr.write(`${reason}\n`);
    }
    installExitCode(report.gate.exitCode);

    if (result.status === 'interrupted' || result.status === 'timedout') return undefined;
    return { status: report.gate.exitCode === 0 ? 'passed' : 'failed' };
  }

  private write(report: ConformanceReport): string[] {
    const dir = this.opts.outputDir;
    mkdirSync(dir, { recursive: true });
    const json = join(dir, 'conformance.json');
    const html = join(dir, 'conformance.html');
    writeFileSync(json, JSON.stringify(report, null, 2) + '\n');
    writeFileSync(html, renderHtml(report));
    return [json, html];
  }

  /**
   * reports/run-meta.json written by this run's global setup (lib/run-meta.ts). The path is
   * shared, so it counts only when written after this reporter started, outside
   * merge-reports (the shards' run-meta stays on their runners), and for the seed the tests
   * ran with when they say so.
   */
  private runtimeMeta(fromTests: RunHints): RuntimeMeta | null {
    if (!this.opts.runMeta || process.argv.includes('merge-reports')) return null;
    const meta = readRunMeta();
    if (!meta || !(Date.parse(meta.startedAt) >= this.createdAt)) return null;
    if (fromTests.seed !== undefined && fromTests.seed !== String(meta.seed)) return null;
    return meta;
  }

  /** Run facts: what the tests recorded, the runtime's run-meta, config and project metadata, the environment. */
  private runMeta(
    fromTests: RunHints,
    fromProject: RunHints,
    runtime: RuntimeMeta | null,
  ): {
    suite: { name: string; version: string };
    target: string | null;
    authTarget: string | null;
    seed: number | string | null;
    depth: string | null;
  } {
    const md = metadataHints((this.config?.metadata ?? {}) as Record<string, unknown>);
    const pick = (k: keyof RunHints, fromRuntime: string | number | undefined, env: string | undefined) =>
      fromTests[k] ?? fromRuntime ?? md[k] ?? fromProject[k] ?? nonEmpty(env);
    const env = settingsAsGiven();
    const seedRaw = pick('seed', runtime?.seed, env.IDM_SEED);
    const seed =
      typeof seedRaw === 'number'
        ? seedRaw
        : typeof seedRaw === 'string'
          ? /^-?\d+$/.test(seedRaw)
            ? Number(seedRaw)
            : seedRaw
          : null;
    return {
      suite: suiteVersion(),
      target: String(pick('target', runtime?.target, env.IDM_BASE_URL) ?? '') || null,
      // From the same source as the target: a run-meta without one says the two are the same.
      authTarget: runtime
        ? (runtime.authTarget ?? null)
        : String(fromTests.authTarget ?? nonEmpty(env.IDM_AUTH_URL) ?? '') || null,
      seed,
      depth: String(pick('depth', runtime?.depth, env.IDM_DEPTH) ?? '') || null,
    };
  }
}

interface RunHints {
  target?: string;
  authTarget?: string;
  seed?: string;
  depth?: string;
}

function parseClauseSkip(d: string): { clause: string; skip: SkipRecord } | null {
  try {
    const v = JSON.parse(d) as { clause?: unknown; skip?: unknown };
    return typeof v.clause === 'string' && isSkipRecord(v.skip) ? { clause: v.clause, skip: v.skip } : null;
  } catch {
    return null;
  }
}

/** The final attempt of a test, reduced to what the verdict needs. */
function toOutcome(test: TestCase, result: TestResult | undefined, problems: string[], hints: RunHints): TestOutcome {
  const annotations = result?.annotations?.length ? result.annotations : test.annotations;
  const clauses = new Set<string>();
  for (const tag of test.tags) {
    const m = CLAUSE_TAG_PATTERN.exec(tag);
    if (m) clauses.add(m[1]!);
  }
  const checks: CheckRecord[] = [];
  let skip: SkipRecord | undefined;
  let requests: number | undefined;
  let authErrors: AuthErrorRecord[] | undefined;
  let attacks: AttackResult[] | undefined;
  let clauseSkips: Record<string, SkipRecord> | undefined;
  let noAnswer: SkipRecord | undefined;
  let stopped: SkipRecord | undefined;
  let resent: Resent[] | undefined;
  const title = test.titlePath().slice(3).join(' › ');
  const file = relative(process.cwd(), test.location.file);
  for (const a of annotations) {
    const d = a.description ?? '';
    if (a.type === 'clause' && d) clauses.add(d);
    else if (a.type === 'check') {
      const check = parseCheck(d);
      if (check) checks.push(check);
      else problems.push(`test "${file} › ${title}" recorded a malformed check annotation: ${d.slice(0, 120)}`);
    } else if ((a.type === 'skip' || a.type === 'fixme') && d) skip = decodeSkip(d);
    else if (a.type === 'clause-skip' && d) {
      const parsed = parseClauseSkip(d);
      if (parsed) (clauseSkips ??= {})[parsed.clause] ??= parsed.skip;
      else problems.push(`test "${file} › ${title}" recorded a malformed clause-skip annotation: ${d.slice(0, 120)}`);
    } else if (a.type === NO_ANSWER_ANNOTATION && d) noAnswer ??= decodeSkip(d);
    else if (a.type === STOPPED_ANNOTATION && d) stopped ??= decodeSkip(d);
    else if (a.type === 'requests' && /^\d+$/.test(d)) requests = (requests ?? 0) + Number(d);
    else if (a.type === RESENT_ANNOTATION && d) {
      const rec = parseResent(d);
      if (rec) (resent ??= []).push(rec);
    } else if (a.type === 'auth-error' && d) {
      const rec = parseAuthError(d);
      if (rec) (authErrors ??= []).push(rec);
    } else if (a.type === 'attack' && d) {
      const rec = parseAttack(d);
      if (rec) (attacks ??= []).push(rec);
      else problems.push(`test "${file} › ${title}" recorded a malformed attack annotation: ${d.slice(0, 120)}`);
    } else if (a.type === 'seed' && d) hints.seed ??= d;
    else if (a.type === 'depth' && d) hints.depth ??= d;
    else if (a.type === 'target' && d) hints.target ??= d;
    else if (a.type === 'auth-target' && d) hints.authTarget ??= d;
  }
  const status = result?.status ?? 'skipped';
  const outcome: TestOutcome = {
    title,
    file,
    line: test.location.line,
    status,
    clauses: [...clauses],
    checks,
  };
  if (test.outcome() === 'flaky') outcome.flaky = true;
  if (skip !== undefined) outcome.skip = skip;
  if (requests !== undefined) outcome.requests = requests;
  if (authErrors !== undefined) outcome.authErrors = authErrors;
  if (attacks !== undefined) outcome.attacks = attacks;
  if (clauseSkips !== undefined) outcome.clauseSkips = clauseSkips;
  const none = judgedNothing(outcome);
  if (none) {
    outcome.status = 'skipped';
    outcome.skip ??= none;
  }
  if (noAnswer !== undefined) outcome.noAnswer = noAnswer;
  if (stopped !== undefined) outcome.stopped = stopped;
  if (resent !== undefined) outcome.resent = resent;
  const err = result?.error ?? result?.errors?.[0];
  if ((status === 'failed' || status === 'timedOut') && err)
    outcome.error = oneLine(err.message ?? err.value ?? status);
  return outcome;
}

function parseResent(d: string): Resent | null {
  try {
    const v = JSON.parse(d) as Partial<Resent>;
    if (typeof v.method !== 'string' || typeof v.target !== 'string' || typeof v.status !== 'number') return null;
    return {
      method: v.method,
      target: v.target,
      status: v.status,
      resends: Number(v.resends ?? 0),
      waitedMs: Number(v.waitedMs ?? 0),
      final: Number(v.final ?? v.status),
      ...(v.spent === 'IDM_RESEND_WINDOW_S' || v.spent === 'IDM_RESEND_RUN_S' ? { spent: v.spent } : {}),
    };
  } catch {
    return null;
  }
}

/** --max-failures was reached: some selected test of the project never ran. */
function stoppedEarly(config: FullConfig | undefined, root: Suite): boolean {
  return (config?.maxFailures ?? 0) > 0 && root.allTests().some((t) => t.results.length === 0);
}

function parseCheck(description: string): CheckRecord | null {
  try {
    const c = JSON.parse(description) as Partial<CheckRecord>;
    if (typeof c.clause !== 'string' || typeof c.message !== 'string') return null;
    if (c.outcome !== 'passed' && c.outcome !== 'failed' && c.outcome !== 'observed') return null;
    return c as CheckRecord;
  } catch {
    return null;
  }
}

// Helpers

/** The runtime's redactor with this run's secrets: what the target did passes through it once more. */
function runRedactor(): Redactor {
  let known: string[] = [];
  try {
    known = secretValues(loadConfig());
  } catch {
    // no usable configuration (fixture suites): the patterns still apply
  }
  return createRedactor(known);
}

/**
 * A second net under the runtime's redaction: evidence, observations and error lines come
 * from the target and the tests, so they are scrubbed again before anything is written or
 * printed. Catalogue texts and titles are the suite's own and stay as they are.
 */
function redactRunData(report: ConformanceReport, r: Redactor): void {
  for (const c of report.clauses) {
    c.failures = c.failures.map((f) => {
      const kept = f.evidence?.forged;
      const out = r.value(f);
      // A forged credential is the case, printed as sent (lib/credential-origin.ts); every other token is masked.
      if (kept !== undefined && out.evidence && f.evidence?.curl !== undefined) {
        out.evidence.curl = r.keeping(f.evidence.curl, kept);
        out.evidence.forged = r.keeping(kept, kept);
      }
      return out;
    });
    c.observations = r.value(c.observations);
    if (c.reason !== undefined) c.reason = r.text(c.reason);
    for (const s of c.skips ?? []) s.text = r.text(s.text);
  }
  for (const u of report.incomplete) u.reason = r.text(u.reason);
  report.run.errors = r.value(report.run.errors);
  report.gate.reasons = r.value(report.gate.reasons);
}

function nonEmpty(v: string | undefined): string | undefined {
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function metadataHints(md: Record<string, unknown> | undefined): RunHints {
  const out: RunHints = {};
  const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : undefined);
  for (const k of ['target', 'seed', 'depth'] as const) {
    const v = str(md?.[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function projectOf(test: TestCase): string | undefined {
  let s: Suite | undefined = test.parent;
  while (s && !s.project()) s = s.parent;
  return s?.project()?.name;
}

function oneLine(message: string): string {
  // eslint-disable-next-line no-control-regex
  const plain = message.replace(/\x1b\[[0-9;]*m/g, '');
  return (plain.split('\n').find((l) => l.trim() !== '') ?? plain).trim();
}

function useColour(): boolean {
  if (process.env.NO_COLOR) return false;
  if (process.env.FORCE_COLOR && process.env.FORCE_COLOR !== '0') return true;
  return Boolean(process.stdout.isTTY);
}

let suiteInfo: { name: string; version: string } | undefined;
function suiteVersion(): { name: string; version: string } {
  if (!suiteInfo) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
        name?: string;
        version?: string;
      };
      suiteInfo = { name: pkg.name ?? 'idm-conformance', version: pkg.version ?? '0.0.0' };
    } catch {
      suiteInfo = { name: 'idm-conformance', version: 'unknown' };
    }
  }
  return suiteInfo;
}

let exitHookCode = 0;
/**
 * Playwright maps a run's status to exit code 0 or 1 only, and merge-reports ignores the
 * status a reporter returns. Raising the process exit code on the way out carries the
 * gate's 2 (configuration) and 3 (unreachable) through both; it never lowers a code.
 */
function installExitCode(code: number): void {
  if (exitHookCode === 0 && code > 0) {
    process.on('exit', (current) => {
      if (current !== 130 && exitHookCode > current) process.exitCode = exitHookCode;
    });
  }
  exitHookCode = Math.max(exitHookCode, code);
}

/** IDM_FAIL_ON_INCOMPLETE; a value the run's own settings check refused counts as off. */
function failOnIncomplete(): boolean {
  try {
    return runSettings().failOnIncomplete;
  } catch {
    return false;
  }
}

/** The settings as given (environment over .env), for hints only: a broken .env gives none. */
function settingsAsGiven(): Record<string, string | undefined> {
  try {
    return readSources().merged;
  } catch {
    return {};
  }
}
