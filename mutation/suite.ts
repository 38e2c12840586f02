// Runs the real conformance suite against a target, through configuration only (the same
// environment a user would set for a staging tenant), into an output directory of its own,
// and reads back the verdict from the conformance reporter's JSON.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { METHOD_SETTINGS } from '../lib/auth/methods/clients.ts';
import type { EmbeddedName } from '../lib/config/declarations.ts';
import { embeddedEnv } from '../lib/config/explain.ts';
import { recordOf } from '../lib/config/records.ts';
import type { ConformanceReport } from '../reporters/model.ts';
import { ROOT, runLogged, type RunResult } from './proc.ts';

/** Settings at their embedded default, by name: the values come from the declarations, and a name not declared with one is a type error. */
const embeddedSettings = <N extends EmbeddedName>(...names: N[]): Record<N, string> => {
  const env = embeddedEnv();
  return recordOf(names, (n) => env[n]);
};

/** Dev credentials of the reference tenant (written once, in lib/config/embedded.ts). */
export const DEV_CREDENTIALS = embeddedSettings(
  'IDM_CLIENT_ID',
  'IDM_CLIENT_SECRET',
  'IDM_LIMITED_CLIENT_ID',
  'IDM_LIMITED_CLIENT_SECRET',
);

/**
 * The authentication-API dev settings of the reference tenant, by setting name (mutants,
 * self-tests): every client of the ways to authenticate (lib/auth/methods/clients.ts), and these.
 */
export const DEV_AUTH = embeddedSettings(
  ...METHOD_SETTINGS.map((s) => s.name),
  'IDM_PUBLIC_CLIENT_ID',
  'IDM_TEST_USERNAME',
  'IDM_TEST_PASSWORD',
  'IDM_TEST_CONNECTION',
  'IDM_LOCKOUT_USERNAME',
  'IDM_LOCKOUT_PASSWORD',
  'IDM_REDIRECT_URI',
  'IDM_LOGOUT_RETURN_TO',
  'IDM_SAML_CONNECTION',
);

/** The seeded resources of the reference tenant that a non-embedded run must name. */
export const DEV_RESOURCES = embeddedSettings(
  'IDM_RESOURCE_SERVER_ID',
  'IDM_FEATURE_FLAG_ID',
  'IDM_VARIATION_IDS',
  'IDM_SEGMENT_IDS',
);

export interface SuiteRun {
  origin: string;
  outDir: string;
  /** A tenant-signed expired token for the expired-token case (IDM_EXPIRED_TOKEN). */
  expiredToken?: string;
  /** Playwright --grep pattern (a subset), or undefined for the whole suite. */
  grep?: string;
  seed?: number | string;
  depth?: string;
  allow?: string[];
  workers?: number;
  timeoutMs: number;
  extraEnv?: Record<string, string>;
  /** More Playwright arguments, e.g. --max-failures=1. */
  extraArgs?: string[];
  /** Another checkout of the suite to run instead of this one (the bench's before/after comparison). */
  root?: string;
}

export interface SuiteOutcome extends RunResult {
  report: ConformanceReport | null;
  reportError?: string;
  logFile: string;
}

function suiteEnv(run: SuiteRun): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    // A variant is the reference tenant on another port: every setting with an embedded
    // default takes it, as a user would name them for a staging tenant.
    ...embeddedEnv(),
    IDM_BASE_URL: run.origin,
    // This run's report (mutation/reporter.ts), run-meta.json and the rest, in its own folder.
    IDM_REPORTS_DIR: run.outDir,
    // The name older checkouts' mutation reporter reads (the bench's before/after runs one).
    IDM_MUTATION_REPORT_DIR: run.outDir,
    // A variant's restore journal is its own: never honoured against the next variant on the port.
    IDM_STATE_DIR: resolve(run.outDir, 'state'),
    // A launched variant is disposable: every guarded test may run (burst, experiments, …).
    IDM_ALLOW: (run.allow ?? ['all']).join(','),
    FORCE_COLOR: '0',
    CI: process.env.CI ?? '',
    ...run.extraEnv,
  };
  if (run.expiredToken) env.IDM_EXPIRED_TOKEN = run.expiredToken;
  if (run.seed !== undefined) env.IDM_SEED = String(run.seed);
  if (run.depth !== undefined) env.IDM_DEPTH = run.depth;
  return env;
}

export async function runSuite(run: SuiteRun): Promise<SuiteOutcome> {
  const root = run.root ?? ROOT;
  const args = [
    'test',
    '--project=conformance',
    `--output=${resolve(run.outDir, 'test-results')}`,
    `--reporter=${resolve(root, 'mutation/reporter.ts')}`,
  ];
  if (run.grep) args.push(`--grep=${run.grep}`);
  if (run.workers) args.push(`--workers=${run.workers}`);
  if (run.extraArgs) args.push(...run.extraArgs);
  const logFile = resolve(run.outDir, 'suite.log');
  const res = await runLogged(
    resolve(root, 'node_modules/.bin/playwright'),
    args,
    suiteEnv(run),
    logFile,
    run.timeoutMs,
    root,
  );
  try {
    const report = JSON.parse(await readFile(resolve(run.outDir, 'conformance.json'), 'utf8')) as ConformanceReport;
    return { ...res, report, logFile };
  } catch (e) {
    return { ...res, report: null, reportError: (e as Error).message, logFile };
  }
}

/** A Playwright --grep pattern matching tests tagged with any of the clause ids. */
export function clauseGrep(clauses: string[]): string {
  return `@(${clauses.map(esc).join('|')})(?![\\w.-])`;
}

/** A Playwright --grep pattern matching tests tagged with every one of the clause ids. */
export function clauseGrepAll(clauses: string[]): string {
  return `^${clauses.map((c) => `(?=.*@${esc(c)}(?![\\w.-]))`).join('')}`;
}

const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
