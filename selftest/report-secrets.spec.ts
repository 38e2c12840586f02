// Secrets never reach a report or the terminal: a real conformance run against the
// reference tenant started with recognisable credentials (canary client secrets, a fresh
// private key) and with one known fault, so that failure evidence (requests, responses,
// curl) is written too. Then every file the run wrote — zips and the HTML report's
// embedded archive included — and everything it printed is searched for the credentials
// and for any bearer token the tenant signed. A token the suite forged (signed by a key of its
// own, or HMAC-keyed with the published key) is the case a reproduction sends, printed as
// sent (lib/credential-origin.ts): no signature of the tenant's verifies it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, generateKeyPairSync } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { compactVerify, createLocalJWKSet, type JSONWebKeySet } from 'jose';
import { expect, test } from '@playwright/test';
import type { ConformanceReport } from '../reporters/model.ts';
import { DEV_AUTH } from '../mutation/suite.ts';

const PORT = 4901; // from the reporter's self-test range 4900-4909
const BASE = `http://127.0.0.1:${PORT}`;
const require = createRequire(import.meta.url);
const PLAYWRIGHT_CLI = require.resolve('@playwright/test/cli');
const TSX_CLI = join(process.cwd(), 'node_modules', 'tsx', 'dist', 'cli.mjs');
/** A variant of the mutation catalogue (mutation/mutants.ts): accepts a name of 201 characters. */
const FAULT = { variant: 'rs-name-201-accepted', clause: 'rs.update.name.max-length' };
/** Any JWS in compact form: a management token the tenant signed must never be printed whole. */
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/g;

test('no client secret, access token or private key appears in any report or in what the run prints', async ({}, testInfo) => {
  test.setTimeout(420_000);
  // Outside test-results/: a concurrent Playwright run elsewhere in the repo may empty that.
  const work = mkdtempSync(join(tmpdir(), 'idm-report-secrets-'));
  const canary = (who: string) => `idmc-canary-${who}-${randomBytes(9).toString('hex')}`;
  const secrets = { full: canary('full'), limited: canary('limited') };
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const publicKeyFile = join(work, 'canary-pkjwt.public.pem');
  const privateKeyFile = join(work, 'canary-pkjwt.private.pem');
  writeFileSync(publicKeyFile, keys.publicKey);
  writeFileSync(privateKeyFile, keys.privateKey);

  const tenant = await startTenant({
    REFERENCE_FULL_CLIENT_SECRET: secrets.full,
    REFERENCE_LIMITED_CLIENT_SECRET: secrets.limited,
    REFERENCE_PKJWT_PUBLIC_KEY_FILE: publicKeyFile,
  });
  const reportsDir = join(work, 'reports');
  const outputDir = join(work, 'run-output');
  let run: ReturnType<typeof spawnSync>;
  const tenantKeys = createLocalJWKSet((await (await fetch(`${BASE}/.well-known/jwks.json`)).json()) as JSONWebKeySet);
  try {
    run = spawnSync(process.execPath, [PLAYWRIGHT_CLI, 'test', '--project=conformance', '--output', outputDir], {
      encoding: 'utf8',
      timeout: 400_000,
      env: {
        ...withoutIdmSettings(process.env),
        // The authentication-API clients and users (their documented dev values): every one
        // of them must be masked too. The canary settings below win where they overlap.
        ...DEV_AUTH,
        FORCE_COLOR: '0',
        IDM_REPORTS_DIR: reportsDir,
        IDM_BASE_URL: BASE,
        IDM_CLIENT_ID: 'conformance-full',
        IDM_CLIENT_SECRET: secrets.full,
        IDM_LIMITED_CLIENT_ID: 'conformance-limited',
        IDM_LIMITED_CLIENT_SECRET: secrets.limited,
        IDM_PKJWT_CLIENT_ID: 'conformance-pkjwt',
        IDM_PKJWT_KEY_FILE: privateKeyFile,
        IDM_RESOURCE_SERVER_ID: 'rs_conformance',
        IDM_FEATURE_FLAG_ID: 'flg_7Hq2kPzR',
        IDM_VARIATION_IDS: 'var_control,var_treatment',
        IDM_ALLOW: 'burst,experiments,lifetime,irreversible,lockout',
        IDM_DEPTH: 'quick',
      },
    });
  } finally {
    await stopTenant(tenant.process);
  }
  const printed = `${run.stdout}\n${run.stderr}`;
  testInfo.annotations.push({ type: 'conformance run', description: `exit ${run.status}` });

  // The scan proves something only if the run got through, caught the fault with its
  // evidence, and wrote every report.
  const report = JSON.parse(readFileSync(join(reportsDir, 'conformance.json'), 'utf8')) as ConformanceReport;
  expect(run.status, printed).toBe(1);
  expect(report.run.tests.passed, printed).toBeGreaterThan(0);
  const caught = report.clauses.find((c) => c.id === FAULT.clause);
  expect(caught?.status, printed).toBe('failed');
  expect(
    caught?.failures.some((f) => f.evidence?.curl?.startsWith('curl ')),
    'the failure carries a curl reproduction',
  ).toBe(true);
  for (const f of ['conformance.html', 'junit.xml', 'playwright-html/index.html'])
    expect(existsSync(join(reportsDir, f)), f).toBe(true);
  expect(readdirSync(join(reportsDir, 'allure-results')).length).toBeGreaterThan(0);

  const needles: [string, string][] = [
    ['full client secret', secrets.full],
    ['limited client secret', secrets.limited],
    ['full client Basic credential', Buffer.from(`conformance-full:${secrets.full}`).toString('base64')],
    ['limited client Basic credential', Buffer.from(`conformance-limited:${secrets.limited}`).toString('base64')],
    ...pemChunks(keys.privateKey).map((c, i): [string, string] => [`private key (part ${i + 1})`, c]),
    ['post client secret', DEV_AUTH.IDM_POST_CLIENT_SECRET],
    ['basic client secret', DEV_AUTH.IDM_BASIC_CLIENT_SECRET],
    ['basic client Basic credential', basicOf(DEV_AUTH.IDM_BASIC_CLIENT_ID, DEV_AUTH.IDM_BASIC_CLIENT_SECRET)],
    ['basic client secret, form-encoded', encodeURIComponent(DEV_AUTH.IDM_BASIC_CLIENT_SECRET)],
    ['post client Basic credential', basicOf(DEV_AUTH.IDM_POST_CLIENT_ID, DEV_AUTH.IDM_POST_CLIENT_SECRET)],
    ['mTLS API key', DEV_AUTH.IDM_MTLS_API_KEY],
    ['test user password', DEV_AUTH.IDM_TEST_PASSWORD],
    ['lockout user password', DEV_AUTH.IDM_LOCKOUT_PASSWORD],
  ];
  const texts: [string, string][] = [['stdout+stderr of the run', printed]];
  for (const dir of [reportsDir, outputDir]) for (const f of walk(dir)) texts.push(...readable(f, work));
  const runMeta = join(process.cwd(), 'reports', 'run-meta.json');
  if (existsSync(runMeta)) texts.push(['reports/run-meta.json', readFileSync(runMeta, 'utf8')]);

  const leaks: string[] = [];
  /** Tokens the suite forged, printed as sent in a reproduction: no leak, but the scan must meet some. */
  let forged = 0;
  for (const [where, text] of texts) {
    for (const [what, needle] of needles) if (text.includes(needle)) leaks.push(`${what} in ${where}`);
    if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(text)) leaks.push(`a PEM private key block in ${where}`);
    for (const [jwt] of text.matchAll(JWT))
      if (await signedByTenant(jwt, tenantKeys)) leaks.push(`a bearer token (JWT ${jwt.slice(0, 24)}…) in ${where}`);
      else forged++;
  }
  testInfo.annotations.push({
    type: 'scanned',
    description: `${texts.length} files/streams, ${needles.length} needles, ${forged} forged tokens printed as sent`,
  });
  expect(leaks).toEqual([]);
  expect(
    forged,
    'reproductions print the tokens the suite forged (else the scan would prove nothing of them)',
  ).toBeGreaterThan(0);
  expect(texts.length).toBeGreaterThan(10);
  expect(
    texts.some(([where]) => where.includes('!embedded!')),
    "the HTML report's embedded archive was opened",
  ).toBe(true);
  rmSync(work, { recursive: true, force: true });
});

// Helpers

/** Whether the tenant's published keys verify the token's signature (whatever its claims say). */
async function signedByTenant(jwt: string, keys: ReturnType<typeof createLocalJWKSet>): Promise<boolean> {
  try {
    await compactVerify(jwt, keys);
    return true;
  } catch {
    return false;
  }
}

/** The Basic credential as RFC 6749 §2.3.1 builds it (form-encoded id and secret). */
function basicOf(id: string, secret: string): string {
  const e = (x: string) => encodeURIComponent(x).replace(/%20/g, '+');
  return Buffer.from(`${e(id)}:${e(secret)}`).toString('base64');
}

async function startTenant(env: Record<string, string>): Promise<{ process: ChildProcess; log: () => string }> {
  // The mutation harness's launcher starts the tenant with the fault wrapped around it; the
  // tenant reads the REFERENCE_* credential overrides from the environment.
  const child = spawn(
    process.execPath,
    [TSX_CLI, 'mutation/launch.ts', '--variant', FAULT.variant, '--port', String(PORT)],
    {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const deadline = Date.now() + 20_000;
  while (!log.includes(`ready ${BASE}`)) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`startTenant: the reference tenant did not start on ${BASE}: ${log}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return { process: child, log: () => log };
}

async function stopTenant(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** The outer environment's IDM_* settings (or a developer's) must not leak into this run. */
function withoutIdmSettings(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([k]) => !k.startsWith('IDM_')));
}

/** Slices of the key's base64 body: any one of them printed is a leak. */
function pemChunks(pem: string): string[] {
  const body = pem.replace(/-----[A-Z ]+-----/g, '').replace(/\s+/g, '');
  const out: string[] = [];
  for (let i = 0; i + 48 <= body.length; i += 48) out.push(body.slice(i, i + 48));
  return out;
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

/** A file as text, and the entries of any zip in it (blobs, traces, the HTML report's embedded archive). */
function readable(file: string, root: string): [string, string][] {
  const bytes = readFileSync(file);
  const name = relative(root, file);
  const out: [string, string][] = [[name, bytes.toString('utf8')]];
  if (bytes.subarray(0, 4).toString('binary') === 'PK\x03\x04')
    out.push(...unzip(bytes).map(([n, t]): [string, string] => [`${name}!${n}`, t]));
  const embedded = /data:application\/zip;base64,([A-Za-z0-9+/=]+)/.exec(out[0]![1]);
  if (embedded)
    out.push(
      ...unzip(Buffer.from(embedded[1]!, 'base64')).map(([n, t]): [string, string] => [`${name}!embedded!${n}`, t]),
    );
  return out;
}

/** Reads a zip through its central directory (stored and deflated entries). */
function unzip(zip: Buffer): [string, string][] {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('unzip: no end of central directory');
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  const out: [string, string][] = [];
  for (let i = 0; i < count; i++) {
    const method = zip.readUInt16LE(p + 10);
    const size = zip.readUInt32LE(p + 20);
    const nameLen = zip.readUInt16LE(p + 28);
    const extraLen = zip.readUInt16LE(p + 30);
    const commentLen = zip.readUInt16LE(p + 32);
    const local = zip.readUInt32LE(p + 42);
    const name = zip.subarray(p + 46, p + 46 + nameLen).toString('utf8');
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const raw = zip.subarray(dataStart, dataStart + size);
    const data = method === 8 ? inflateRawSync(raw) : raw;
    out.push([name, data.toString('utf8')]);
    p += 46 + nameLen + extraLen + commentLen;
  }
  return out;
}
