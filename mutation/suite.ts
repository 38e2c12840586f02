// Runs the real conformance suite against a target, through configuration only (the same
// environment a user would set for a staging tenant), into an output directory of its own,
// and reads back the verdict from the conformance reporter's JSON.
import { fileURLToPath } from 'node:url';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ConformanceReport } from '../reporters/model.ts';
import { ROOT, runLogged, type RunResult } from './proc.ts';

/** Dev credentials of the reference tenant (docs/ARCHITECTURE.md). */
export const DEV_CREDENTIALS = {
  IDM_CLIENT_ID: 'conformance-full',
  IDM_CLIENT_SECRET: 'dev-secret-full-0123456789',
  IDM_LIMITED_CLIENT_ID: 'conformance-limited',
  IDM_LIMITED_CLIENT_SECRET: 'dev-secret-limited-0123456789',
} as const;

/** The authentication-API dev settings of the reference tenant (AUTH-CONTRACT), for non-embedded runs. */
export const DEV_AUTH = {
  IDM_POST_CLIENT_ID: 'conformance-post',
  IDM_POST_CLIENT_SECRET: 'dev-secret-post-0123456789',
  IDM_BASIC_CLIENT_ID: 'conformance-basic',
  IDM_BASIC_CLIENT_SECRET: 'dev-secret:basic+0123456789 %&=',
  IDM_PKJWT_CLIENT_ID: 'conformance-pkjwt',
  IDM_PKJWT_KEY_FILE: fileURLToPath(new URL('../reference/dev-keys/conformance-pkjwt.private.pem', import.meta.url)),
  IDM_PUBLIC_CLIENT_ID: 'conformance-spa',
  IDM_MTLS_CLIENT_ID: 'conformance-mtls',
  IDM_MTLS_API_KEY: 'dev-cname-api-key-0123456789',
  IDM_MTLS_CERT_FILE: fileURLToPath(new URL('../reference/dev-keys/conformance-mtls.cert.pem', import.meta.url)),
  IDM_MTLS_CA_CLIENT_ID: 'conformance-mtls-ca',
  IDM_MTLS_CA_CERT_FILE: fileURLToPath(new URL('../reference/dev-keys/conformance-mtls-ca.cert.pem', import.meta.url)),
  IDM_TEST_USERNAME: 'conformance-user@example.test',
  IDM_TEST_PASSWORD: 'dev-password-0123456789!',
  IDM_TEST_CONNECTION: 'Username-Password-Authentication',
  IDM_LOCKOUT_USERNAME: 'conformance-lockout@example.test',
  IDM_LOCKOUT_PASSWORD: 'dev-password-lockout-0123!',
  IDM_REDIRECT_URI: 'https://app.conformance.test/callback',
  IDM_LOGOUT_RETURN_TO: 'https://app.conformance.test/logged-out',
  IDM_PASSWORDLESS_EMAIL: 'conformance-user@example.test',
  IDM_PASSWORDLESS_PHONE: '+15555550100',
  IDM_SAML_CONNECTION: 'conformance-saml',
} as const;

/** The seeded resources of the reference tenant that a non-embedded run must name. */
export const DEV_RESOURCES = {
  IDM_RESOURCE_SERVER_ID: 'rs_conformance',
  IDM_FEATURE_FLAG_ID: 'flg_7Hq2kPzR',
  IDM_VARIATION_IDS: 'var_control,var_treatment',
  // The reference tenant takes any segment id (its README); named so the segment half runs.
  IDM_SEGMENT_IDS: 'seg_conformance_a,seg_conformance_b',
} as const;

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
    ...DEV_CREDENTIALS,
    ...DEV_AUTH,
    ...DEV_RESOURCES,
    IDM_BASE_URL: run.origin,
    IDM_MUTATION_REPORT_DIR: run.outDir,
    // run-meta.json (and anything else the runtime writes) next to this run's report.
    IDM_REPORTS_DIR: run.outDir,
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
