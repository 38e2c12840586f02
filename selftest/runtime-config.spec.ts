// lib/config.ts: the one configuration path. Cases are data (one titled test each): the
// embedded defaults, every required setting missing against a non-embedded target, settings
// that contradict each other, values the suite cannot use, and the .env reader. Tests assert
// the stable code and that the message names the variable, never the rest of the prose.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { EMBEDDED, loadConfig, parseConfig, secretValues, withDiscovered, type Env } from '../lib/config.ts';
import { parseEnvFile } from '../lib/config/sources.ts';
import { ErrorCodes, IdmError, type ErrorCode } from '../lib/errors.ts';

/** A complete, valid configuration for a non-embedded target. */
const STAGING: Env = {
  IDM_BASE_URL: 'https://staging.example.test',
  IDM_CLIENT_ID: 'client-full',
  IDM_CLIENT_SECRET: 'secret-full-abcdef',
  IDM_RESOURCE_SERVER_ID: 'rs_custom',
};

/** Runs `fn`, expecting an IdmError; returns it. */
function idmErrorOf(fn: () => unknown): IdmError {
  try {
    fn();
  } catch (e) {
    expect(e, 'an IdmError, not another exception').toBeInstanceOf(IdmError);
    return e as IdmError;
  }
  throw new Error('expected an IdmError, but nothing was thrown');
}

function expectIdmError(err: IdmError, code: ErrorCode, names: string[]): void {
  expect(err.code).toBe(code);
  expect(err.exitCode).toBe(2);
  for (const n of names) expect(err.message).toContain(n);
  expect(err.line()).toMatch(new RegExp(`^idm-conformance: ${code}: `));
  expect(err.line(), 'the error is one line').not.toMatch(/[\r\n]/);
}

// README "Exit codes and stable error codes": configuration → 2, target → 3.
test.describe('stable error codes and their exit codes', () => {
  const EXPECTED: Record<ErrorCode, number> = {
    IDM_E_CONFIG_MISSING: 2,
    IDM_E_CONFIG_INVALID: 2,
    IDM_E_CONFIG_CONTRADICTORY: 2,
    IDM_E_CONFIG_ENV_FILE: 2,
    IDM_E_CONFIG_RESOURCE_SERVER: 2,
    IDM_E_RUN_STATE: 2,
    IDM_E_RUN_IN_PROGRESS: 2,
    IDM_E_JOURNAL: 2,
    IDM_E_TARGET_UNREACHABLE: 3,
    IDM_E_RESTORE_UNVERIFIED: 3,
    IDM_E_CREDENTIALS_REJECTED: 3,
    IDM_E_TARGET_UNUSABLE: 3,
  };
  test('the table of codes is exactly the documented one', () => {
    expect(Object.keys(ErrorCodes).sort()).toEqual(Object.keys(EXPECTED).sort());
  });
  for (const [code, exit] of Object.entries(EXPECTED)) {
    test(`${code} → exit ${exit}, printed as one prefixed line`, () => {
      const err = new IdmError(code as ErrorCode, 'what went wrong');
      expect(err.exitCode).toBe(exit);
      expect(err.line()).toBe(`idm-conformance: ${code}: what went wrong`);
    });
  }
});

test.describe('embedded defaults', () => {
  test('no settings at all: the embedded reference tenant with its documented dev credentials', () => {
    const cfg = parseConfig({});
    expect(cfg).toMatchObject({
      embedded: true,
      baseUrl: 'http://127.0.0.1:4810',
      apiBase: 'http://127.0.0.1:4810/api/v2',
      tokenUrl: 'http://127.0.0.1:4810/oauth/token',
      audience: 'http://127.0.0.1:4810/api/v2/',
      client: { id: 'conformance-full', secret: 'dev-secret-full-0123456789' },
      limited: { id: 'conformance-limited', secret: 'dev-secret-limited-0123456789' },
      resourceServerId: 'rs_conformance',
      systemResourceServerId: 'http://127.0.0.1:4810/api/v2/',
      featureFlagId: 'flg_7Hq2kPzR',
      variationIds: ['var_control', 'var_treatment'],
      strategyField: 'allocation_strategy',
      segmentIds: ['seg_conformance_a', 'seg_conformance_b'],
      authenticationFlow: 'login',
      assignmentSubject: 'device',
      depth: 'default',
      seed: null,
      timeoutMs: 8000,
      pacingReserve: 1,
      expiredToken: null,
      earlyAccess: true,
      envFile: null,
    });
    expect([...cfg.allow]).toEqual([]);
    expect(cfg.auth.pkjwt).toEqual({ id: EMBEDDED.pkjwtClientId, keyFile: EMBEDDED.pkjwtKeyFile });
  });

  test('embedded: a setting given explicitly overrides its default (same code path)', () => {
    const cfg = parseConfig({
      IDM_CLIENT_SECRET: 'other-secret',
      IDM_RESOURCE_SERVER_ID: 'rs_other',
      IDM_DEPTH: 'quick',
    });
    expect(cfg.embedded).toBe(true);
    expect(cfg.client).toEqual({ id: 'conformance-full', secret: 'other-secret' });
    expect(cfg.resourceServerId).toBe('rs_other');
    expect(cfg.depth).toBe('quick');
  });

  test('non-embedded: optional clients and the flag stay unset, nothing falls back to dev values', () => {
    const cfg = parseConfig(STAGING);
    expect(cfg.embedded).toBe(false);
    expect(cfg.baseUrl).toBe('https://staging.example.test');
    expect(cfg.limited).toBeNull();
    expect(cfg.featureFlagId).toBeNull();
    expect(cfg.variationIds).toEqual([]);
    expect(cfg.segmentIds).toEqual([]);
    expect(cfg.auth.pkjwt).toBeNull();
    expect(cfg.systemResourceServerId).toBe('https://staging.example.test/api/v2/');
    expect(secretValues(cfg)).toEqual(['secret-full-abcdef']);
  });
});

// --- every required setting, missing ------------------------------------------------------

const MISSING: Array<{ unset: string; extra?: Env }> = [
  { unset: 'IDM_CLIENT_ID' },
  { unset: 'IDM_CLIENT_SECRET' },
  { unset: 'IDM_RESOURCE_SERVER_ID' },
];
test.describe('required settings against a non-embedded target', () => {
  for (const c of MISSING) {
    test(`${c.unset} unset → IDM_E_CONFIG_MISSING naming it`, () => {
      const env = { ...STAGING, [c.unset]: undefined };
      expectIdmError(
        idmErrorOf(() => parseConfig(env)),
        'IDM_E_CONFIG_MISSING',
        [c.unset],
      );
    });
    test(`${c.unset} unset with IDM_APIS=authentication: not required (the Management API is not under test)`, () => {
      const cfg = parseConfig({ ...STAGING, [c.unset]: undefined, IDM_APIS: 'authentication' });
      expect(cfg.apis).toBe('authentication');
      expect(cfg.embedded).toBe(false);
    });
    test(`${c.unset} blank (spaces only) counts as unset → IDM_E_CONFIG_MISSING`, () => {
      const env = { ...STAGING, [c.unset]: '   ' };
      expectIdmError(
        idmErrorOf(() => parseConfig(env)),
        'IDM_E_CONFIG_MISSING',
        [c.unset],
      );
    });
  }
  test('IDM_ALLOW=experiments without IDM_FEATURE_FLAG_ID → IDM_E_CONFIG_MISSING naming the flag', () => {
    expectIdmError(
      idmErrorOf(() => parseConfig({ ...STAGING, IDM_ALLOW: 'experiments' })),
      'IDM_E_CONFIG_MISSING',
      ['IDM_FEATURE_FLAG_ID'],
    );
  });
  // The flag and its variations go together (declarations.ts): half of the set is a contradiction.
  test('IDM_FEATURE_FLAG_ID without IDM_VARIATION_IDS → IDM_E_CONFIG_CONTRADICTORY naming the variations', () => {
    expectIdmError(
      idmErrorOf(() => parseConfig({ ...STAGING, IDM_FEATURE_FLAG_ID: 'flg_x' })),
      'IDM_E_CONFIG_CONTRADICTORY',
      ['IDM_VARIATION_IDS'],
    );
  });
});

// --- contradictions -------------------------------------------------------------------------

const CONTRADICTORY: Array<{ title: string; env: Env; names: string[] }> = [
  {
    title: 'limited client id without its secret',
    env: { ...STAGING, IDM_LIMITED_CLIENT_ID: 'lim' },
    names: ['IDM_LIMITED_CLIENT_ID', 'IDM_LIMITED_CLIENT_SECRET'],
  },
  {
    title: 'limited client secret without its id',
    env: { ...STAGING, IDM_LIMITED_CLIENT_SECRET: 'lim-secret' },
    names: ['IDM_LIMITED_CLIENT_SECRET', 'IDM_LIMITED_CLIENT_ID'],
  },
  {
    title: 'the same client as full and as limited',
    env: { ...STAGING, IDM_LIMITED_CLIENT_ID: 'client-full', IDM_LIMITED_CLIENT_SECRET: 'x-secret' },
    names: ['IDM_LIMITED_CLIENT_ID', 'IDM_CLIENT_ID'],
  },
  {
    title: 'embedded: the limited client set to the full dev client',
    env: { IDM_LIMITED_CLIENT_ID: 'conformance-full', IDM_LIMITED_CLIENT_SECRET: 'dev-secret-full-0123456789' },
    names: ['IDM_LIMITED_CLIENT_ID'],
  },
  {
    title: 'the configured resource server is the system one (default identifier)',
    env: { ...STAGING, IDM_RESOURCE_SERVER_ID: 'https://staging.example.test/api/v2/' },
    names: ['IDM_RESOURCE_SERVER_ID'],
  },
  {
    title: 'the configured resource server is the system one (as configured)',
    env: { ...STAGING, IDM_RESOURCE_SERVER_ID: 'rs_sys', IDM_SYSTEM_RESOURCE_SERVER_ID: 'rs_sys' },
    names: ['IDM_RESOURCE_SERVER_ID'],
  },
  {
    title: 'variations without a feature flag',
    env: { ...STAGING, IDM_VARIATION_IDS: 'var_a,var_b' },
    names: ['IDM_VARIATION_IDS', 'IDM_FEATURE_FLAG_ID'],
  },
  {
    title: 'private_key_jwt client id without its key file',
    env: { ...STAGING, IDM_PKJWT_CLIENT_ID: 'pk' },
    names: ['IDM_PKJWT_CLIENT_ID', 'IDM_PKJWT_KEY_FILE'],
  },
  {
    title: 'private_key_jwt key file without its client id',
    env: { ...STAGING, IDM_PKJWT_KEY_FILE: EMBEDDED.pkjwtKeyFile },
    names: ['IDM_PKJWT_KEY_FILE', 'IDM_PKJWT_CLIENT_ID'],
  },
];
test.describe('contradictory settings → IDM_E_CONFIG_CONTRADICTORY', () => {
  for (const c of CONTRADICTORY) {
    test(c.title, () => {
      expectIdmError(
        idmErrorOf(() => parseConfig(c.env)),
        'IDM_E_CONFIG_CONTRADICTORY',
        c.names,
      );
    });
  }
});

// --- invalid values ---------------------------------------------------------------------------

const INVALID: Array<{ name: string; value: string }> = [
  { name: 'IDM_BASE_URL', value: 'not a url' },
  { name: 'IDM_BASE_URL', value: 'ftp://staging.example.test' },
  { name: 'IDM_BASE_URL', value: 'https://staging.example.test/api/v2' },
  { name: 'IDM_BASE_URL', value: 'https://staging.example.test/api/v2/' },
  { name: 'IDM_BASE_URL', value: 'https://user:pw@staging.example.test' },
  { name: 'IDM_BASE_URL', value: 'https://staging.example.test/?tenant=a' },
  { name: 'IDM_DEPTH', value: 'fast' },
  { name: 'IDM_DEPTH', value: 'DEEP' },
  { name: 'IDM_SEED', value: 'abc' },
  { name: 'IDM_SEED', value: '1.5' },
  { name: 'IDM_SEED', value: '4294967296' },
  { name: 'IDM_SEED', value: '0x10' },
  { name: 'IDM_TOKEN_PATH', value: 'oauth/token' },
  { name: 'IDM_TOKEN_PATH', value: 'https://other.example.test/oauth/token' },
  { name: 'IDM_STRATEGY_FIELD', value: 'allocation-strategy' },
  { name: 'IDM_STRATEGY_FIELD', value: '1strategy' },
  { name: 'IDM_STRATEGY_FIELD', value: 'allocation strategy' },
  { name: 'IDM_STRATEGY_FIELD', value: 'a.b' },
  { name: 'IDM_SEGMENT_IDS', value: ' , ' },
  { name: 'IDM_TIMEOUT_MS', value: 'abc' },
  { name: 'IDM_TIMEOUT_MS', value: '99' },
  { name: 'IDM_TIMEOUT_MS', value: '120001' },
  { name: 'IDM_TIMEOUT_MS', value: '-5' },
  { name: 'IDM_TIMEOUT_MS', value: '1e4' },
  { name: 'IDM_TIMEOUT_MS', value: '8000ms' },
  { name: 'IDM_PACING_RESERVE', value: '-1' },
  { name: 'IDM_PACING_RESERVE', value: '1001' },
  { name: 'IDM_ALLOW', value: 'everything' },
  { name: 'IDM_ALLOW', value: 'burst,delete' },
  { name: 'IDM_EARLY_ACCESS', value: 'maybe' },
  { name: 'IDM_VARIATION_IDS', value: 'var_only' },
  { name: 'IDM_PKJWT_KEY_FILE', value: '/nonexistent/idm-selftest/key.pem' },
  { name: 'IDM_AUTH_TOKEN_PATH', value: 'oauth/token' },
  { name: 'IDM_ASSERTION_AUDIENCE', value: 'the issuer' },
];
test.describe('invalid values → IDM_E_CONFIG_INVALID naming the variable', () => {
  for (const c of INVALID) {
    test(`${c.name}=${JSON.stringify(c.value)}`, () => {
      const env: Env = { ...STAGING, [c.name]: c.value };
      if (c.name === 'IDM_VARIATION_IDS') env.IDM_FEATURE_FLAG_ID = 'flg_x';
      if (c.name === 'IDM_PKJWT_KEY_FILE') env.IDM_PKJWT_CLIENT_ID = 'pk';
      expectIdmError(
        idmErrorOf(() => parseConfig(env)),
        'IDM_E_CONFIG_INVALID',
        [c.name],
      );
    });
  }

  // Values arrive from the environment or from a "…\n…" line of .env: a newline inside one
  // must not break the one-line promise of the error (README: "one line and exit code 2").
  const MULTILINE: Array<{ name: string; value: string }> = [
    { name: 'IDM_DEPTH', value: 'quick\ndeep' },
    { name: 'IDM_TOKEN_PATH', value: 'oauth\n/token' },
    { name: 'IDM_STRATEGY_FIELD', value: 'a\nb' },
  ];
  for (const c of MULTILINE) {
    test(`${c.name} holding a newline still yields a one-line error`, () => {
      const err = idmErrorOf(() => parseConfig({ ...STAGING, [c.name]: c.value }));
      expect(err.code).toBe('IDM_E_CONFIG_INVALID');
      expect(err.line()).not.toMatch(/[\r\n]/);
    });
  }
});

test.describe("the authentication API's token endpoint and assertion audience: setting, discovery, default", () => {
  const FOUND = { tokenEndpoint: 'https://login.example.test/oauth2/token', issuer: 'https://login.example.test/' };
  const auth = { ...STAGING, IDM_AUTH_URL: 'https://login.example.test', IDM_TOKEN_PATH: '/mgmt/token' };
  test('IDM_AUTH_TOKEN_PATH wins over discovery; IDM_TOKEN_PATH stays the management one', () => {
    const cfg = withDiscovered(parseConfig({ ...auth, IDM_AUTH_TOKEN_PATH: '/as/token' }), FOUND);
    expect(cfg.auth.tokenUrl).toBe('https://login.example.test/as/token');
    expect(cfg.auth.targetsFrom.tokenUrl).toBe('IDM_AUTH_TOKEN_PATH');
    expect(cfg.tokenUrl).toBe('https://staging.example.test/mgmt/token');
  });
  test("unset: the discovery document's token_endpoint and issuer, else IDM_TOKEN_PATH on the auth URL", () => {
    const found = withDiscovered(parseConfig(auth), FOUND);
    expect(found.auth).toMatchObject({ tokenUrl: FOUND.tokenEndpoint, assertionAudience: FOUND.issuer });
    const none = parseConfig(auth);
    expect(none.auth).toMatchObject({
      tokenUrl: 'https://login.example.test/mgmt/token',
      assertionAudience: 'https://login.example.test/',
    });
  });
  test('IDM_ASSERTION_AUDIENCE names another audience, or the token endpoint wherever it came from', () => {
    const named = withDiscovered(parseConfig({ ...auth, IDM_ASSERTION_AUDIENCE: 'urn:login' }), FOUND);
    expect(named.auth.assertionAudience).toBe('urn:login');
    const token = withDiscovered(parseConfig({ ...auth, IDM_ASSERTION_AUDIENCE: 'token-endpoint' }), FOUND);
    expect(token.auth.assertionAudience).toBe(FOUND.tokenEndpoint);
  });
});

const VALID: Array<{ title: string; env: Env; expected: Record<string, unknown> }> = [
  {
    title: 'IDM_BASE_URL with trailing slashes is normalised',
    env: { IDM_BASE_URL: 'https://staging.example.test//' },
    expected: { baseUrl: 'https://staging.example.test', apiBase: 'https://staging.example.test/api/v2' },
  },
  {
    title: 'IDM_BASE_URL behind a proxy path prefix keeps the prefix',
    env: { IDM_BASE_URL: 'https://edge.example.test/tenant-a/' },
    expected: {
      baseUrl: 'https://edge.example.test/tenant-a',
      tokenUrl: 'https://edge.example.test/tenant-a/oauth/token',
    },
  },
  { title: 'IDM_SEED negative', env: { IDM_SEED: '-5' }, expected: { seed: -5 } },
  { title: 'IDM_SEED at the 32-bit maximum', env: { IDM_SEED: '2147483647' }, expected: { seed: 2147483647 } },
  { title: 'IDM_DEPTH deep', env: { IDM_DEPTH: 'deep' }, expected: { depth: 'deep' } },
  { title: 'IDM_TIMEOUT_MS at its lower bound', env: { IDM_TIMEOUT_MS: '100' }, expected: { timeoutMs: 100 } },
  { title: 'IDM_TIMEOUT_MS at its upper bound', env: { IDM_TIMEOUT_MS: '120000' }, expected: { timeoutMs: 120000 } },
  { title: 'IDM_PACING_RESERVE 0', env: { IDM_PACING_RESERVE: '0' }, expected: { pacingReserve: 0 } },
  {
    title: 'IDM_TOKEN_PATH with a trailing slash',
    env: { IDM_TOKEN_PATH: '/oauth/token/' },
    expected: { tokenUrl: 'https://staging.example.test/oauth/token/' },
  },
  {
    title: 'IDM_STRATEGY_FIELD another field name',
    env: { IDM_STRATEGY_FIELD: '_strategy2' },
    expected: { strategyField: '_strategy2' },
  },
  {
    title: 'IDM_SEGMENT_IDS with spaces around the ids',
    env: { IDM_SEGMENT_IDS: ' seg_a , seg_b ' },
    expected: { segmentIds: ['seg_a', 'seg_b'] },
  },
  { title: 'IDM_EARLY_ACCESS no', env: { IDM_EARLY_ACCESS: 'no' }, expected: { earlyAccess: false } },
  {
    title: 'IDM_EARLY_ACCESS FALSE (case-insensitive)',
    env: { IDM_EARLY_ACCESS: 'FALSE' },
    expected: { earlyAccess: false },
  },
  {
    title: 'IDM_VARIATION_IDS with spaces and an empty item',
    env: { IDM_FEATURE_FLAG_ID: 'flg_x', IDM_VARIATION_IDS: ' var_a , ,var_b ' },
    expected: { featureFlagId: 'flg_x', variationIds: ['var_a', 'var_b'] },
  },
  {
    title: 'values are trimmed',
    env: { IDM_RESOURCE_SERVER_ID: '  rs_custom2  ' },
    expected: { resourceServerId: 'rs_custom2' },
  },
];
test.describe('valid values are taken as given', () => {
  for (const c of VALID) {
    test(c.title, () => {
      expect(parseConfig({ ...STAGING, ...c.env })).toMatchObject(c.expected);
    });
  }
  test('IDM_SEED at the 32-bit minimum', () => {
    expect(parseConfig({ ...STAGING, IDM_SEED: '-2147483648' }).seed).toBe(-2147483648);
  });

  test('IDM_ALLOW=all grants every opt-in; a list grants exactly its items', () => {
    const flag = { IDM_FEATURE_FLAG_ID: 'flg_x', IDM_VARIATION_IDS: 'var_a,var_b' };
    expect([...parseConfig({ ...STAGING, ...flag, IDM_ALLOW: 'all' }).allow].sort()).toEqual([
      'burst',
      'experiments',
      'irreversible',
      'lifetime',
      'lockout',
      'passwordless',
    ]);
    expect([...parseConfig({ ...STAGING, IDM_ALLOW: ' burst , lifetime ' }).allow].sort()).toEqual([
      'burst',
      'lifetime',
    ]);
  });
});

// --- .env -------------------------------------------------------------------------------------

const DOTENV: Array<{ title: string; text: string; expected: Record<string, string> }> = [
  {
    title: 'comments, blank lines and CRLF line ends are ignored',
    text: '# a comment\r\n\r\n  # indented comment\r\nA=1\r\n',
    expected: { A: '1' },
  },
  { title: 'export prefix and spaces around =', text: 'export A = x\nB= y', expected: { A: 'x', B: 'y' } },
  {
    title: 'an unquoted value loses a trailing " # comment" but keeps an inner #',
    text: 'A=abc # note\nB=a#b',
    expected: { A: 'abc', B: 'a#b' },
  },
  { title: 'single quotes are literal (no escapes, # kept)', text: "A='x # y\\n'", expected: { A: 'x # y\\n' } },
  {
    title: 'double quotes: \\n becomes a newline, \\" a quote',
    text: 'A="line1\\nline2"\nB="say \\"hi\\""',
    expected: { A: 'line1\nline2', B: 'say "hi"' },
  },
  { title: 'a quoted value followed by a comment', text: 'A="x y" # note', expected: { A: 'x y' } },
  { title: 'an empty value', text: 'A=\nB=""', expected: { A: '', B: '' } },
  { title: 'a later line wins over an earlier one', text: 'A=1\nA=2', expected: { A: '2' } },
  { title: 'an = inside the value is kept', text: 'A=k=v=w', expected: { A: 'k=v=w' } },
];
test.describe('.env parsing', () => {
  for (const c of DOTENV) {
    test(c.title, () => {
      expect(parseEnvFile(c.text)).toEqual(c.expected);
    });
  }

  test('an escaped backslash before n stays a backslash and an n (Windows path in double quotes)', () => {
    expect(parseEnvFile('A="C:\\\\new\\\\key.pem"')).toEqual({ A: 'C:\\new\\key.pem' });
  });

  const BAD: Array<{ title: string; text: string; line: number }> = [
    { title: 'a line without =', text: 'A=1\nJUSTTEXT', line: 2 },
    { title: 'a key starting with a digit', text: '1A=x', line: 1 },
    { title: 'an unterminated double quote', text: '# c\nA="abc', line: 2 },
    { title: 'an unterminated single quote', text: "A='abc", line: 1 },
  ];
  for (const c of BAD) {
    test(`${c.title} → IDM_E_CONFIG_ENV_FILE naming file and line`, () => {
      const err = idmErrorOf(() => parseEnvFile(c.text, '/tmp/x.env'));
      expectIdmError(err, 'IDM_E_CONFIG_ENV_FILE', [`/tmp/x.env:${c.line}`]);
    });
  }

  test('loadConfig: the file supplies settings, the environment wins over it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idm-selftest-env-'));
    writeFileSync(
      join(dir, '.env'),
      [
        'IDM_BASE_URL=https://from-file.example.test',
        'IDM_CLIENT_ID=file-client',
        "IDM_CLIENT_SECRET='file-secret'",
        'IDM_RESOURCE_SERVER_ID=rs_file',
        'IDM_DEPTH=deep',
      ].join('\n'),
    );
    const cfg = loadConfig({ IDM_CLIENT_ID: 'env-client', IDM_DEPTH: 'quick' }, dir);
    expect(cfg.envFile).toBe(join(dir, '.env'));
    expect(cfg.baseUrl).toBe('https://from-file.example.test');
    expect(cfg.client).toEqual({ id: 'env-client', secret: 'file-secret' });
    expect(cfg.depth).toBe('quick');
    expect(cfg.resourceServerId).toBe('rs_file');
  });

  test('loadConfig: IDM_ENV_FILE names another file, relative to the working directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idm-selftest-env-'));
    writeFileSync(join(dir, 'staging.env'), 'IDM_DEPTH=deep\n');
    writeFileSync(join(dir, '.env'), 'IDM_DEPTH=quick\n');
    const cfg = loadConfig({ IDM_ENV_FILE: 'staging.env' }, dir);
    expect(cfg.depth).toBe('deep');
    expect(cfg.envFile).toBe(join(dir, 'staging.env'));
  });

  test('loadConfig: no .env is fine; a named IDM_ENV_FILE that does not exist → IDM_E_CONFIG_ENV_FILE', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idm-selftest-env-'));
    expect(loadConfig({}, dir).envFile).toBeNull();
    expectIdmError(
      idmErrorOf(() => loadConfig({ IDM_ENV_FILE: 'missing.env' }, dir)),
      'IDM_E_CONFIG_ENV_FILE',
      ['missing.env'],
    );
  });

  test('loadConfig: a bad line in .env ends with IDM_E_CONFIG_ENV_FILE naming the line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'idm-selftest-env-'));
    writeFileSync(join(dir, '.env'), 'IDM_DEPTH=quick\nthis is not a setting\n');
    expectIdmError(
      idmErrorOf(() => loadConfig({}, dir)),
      'IDM_E_CONFIG_ENV_FILE',
      ['.env:2'],
    );
  });
});

// --- authentication-API settings (§4.3, §5.2, §8) ----------------------------------------------

const PEM_FILE = EMBEDDED.pkjwtKeyFile; // any existing file stands in for a certificate file here
const MTLS: Env = { IDM_MTLS_CLIENT_ID: 'm', IDM_MTLS_API_KEY: 'api-key-xyz', IDM_MTLS_CERT_FILE: PEM_FILE };

/** Settings that contradict each other, and the names the refusal must carry. */
const AUTH_CONTRADICTORY: Array<{ title: string; env: Env; names: string[] }> = [
  {
    title: 'post client id without its secret',
    env: { ...STAGING, IDM_POST_CLIENT_ID: 'p' },
    names: ['IDM_POST_CLIENT_ID', 'IDM_POST_CLIENT_SECRET'],
  },
  {
    title: 'basic client secret without its id',
    env: { ...STAGING, IDM_BASIC_CLIENT_SECRET: 'b-secret' },
    names: ['IDM_BASIC_CLIENT_SECRET', 'IDM_BASIC_CLIENT_ID'],
  },
  {
    title: 'mTLS client id without API key and certificate',
    env: { ...STAGING, IDM_MTLS_CLIENT_ID: 'm' },
    names: ['IDM_MTLS_API_KEY', 'IDM_MTLS_CERT_FILE'],
  },
  {
    title: 'mTLS API key without the client',
    env: { ...STAGING, IDM_MTLS_API_KEY: 'k-123' },
    names: ['IDM_MTLS_CLIENT_ID', 'IDM_MTLS_CERT_FILE'],
  },
  {
    title: 'CA-verified mTLS client without its certificate',
    env: { ...STAGING, IDM_MTLS_CA_CLIENT_ID: 'mca' },
    names: ['IDM_MTLS_CA_CLIENT_ID', 'IDM_MTLS_CA_CERT_FILE'],
  },
  {
    title: 'both mTLS clients the same',
    env: { ...STAGING, ...MTLS, IDM_MTLS_CA_CLIENT_ID: 'm', IDM_MTLS_CA_CERT_FILE: PEM_FILE },
    names: ['IDM_MTLS_CA_CLIENT_ID', 'IDM_MTLS_CLIENT_ID'],
  },
  {
    title: 'test username without its password',
    env: { ...STAGING, IDM_TEST_USERNAME: 'u' },
    names: ['IDM_TEST_USERNAME', 'IDM_TEST_PASSWORD'],
  },
  {
    title: 'lockout password without its username',
    env: { ...STAGING, IDM_LOCKOUT_PASSWORD: 'pw-1' },
    names: ['IDM_LOCKOUT_PASSWORD', 'IDM_LOCKOUT_USERNAME'],
  },
  {
    title: 'the lockout user is the test user',
    env: {
      ...STAGING,
      IDM_TEST_USERNAME: 'U@x.test',
      IDM_TEST_PASSWORD: 'a',
      IDM_LOCKOUT_USERNAME: 'u@x.test',
      IDM_LOCKOUT_PASSWORD: 'b',
    },
    names: ['IDM_LOCKOUT_USERNAME', 'IDM_TEST_USERNAME'],
  },
  {
    title: 'embedded: the lockout user set to the test user',
    env: { IDM_LOCKOUT_USERNAME: EMBEDDED.user.username, IDM_LOCKOUT_PASSWORD: 'x' },
    names: ['IDM_LOCKOUT_USERNAME'],
  },
  {
    title: 'the public client is the post client',
    env: { ...STAGING, IDM_POST_CLIENT_ID: 'c', IDM_POST_CLIENT_SECRET: 's', IDM_PUBLIC_CLIENT_ID: 'c' },
    names: ['IDM_PUBLIC_CLIENT_ID', 'IDM_POST_CLIENT_ID'],
  },
];

/** One invalid value at a time (with what it must come with), refused naming the setting. */
const AUTH_INVALID: Array<{ name: string; value: string; extra?: Env }> = [
  { name: 'IDM_AUTH_URL', value: 'login.example.test' },
  { name: 'IDM_AUTH_URL', value: 'ftp://login.example.test' },
  { name: 'IDM_AUTH_URL', value: 'https://login.example.test/?x=1' },
  { name: 'IDM_REDIRECT_URI', value: '/callback' },
  { name: 'IDM_LOGOUT_RETURN_TO', value: 'javascript:alert(1)' },
  { name: 'IDM_USERINFO_PATH', value: 'userinfo' },
  { name: 'IDM_AUTHORIZE_PATH', value: 'https://x.test/authorize' },
  { name: 'IDM_REVOKE_PATH', value: 'oauth/revoke' },
  { name: 'IDM_PASSWORDLESS_PATH', value: 'start' },
  { name: 'IDM_LOGOUT_PATH', value: 'v2/logout' },
  { name: 'IDM_SAML_CALLBACK_PATH', value: 'login/callback' },
  { name: 'IDM_PASSWORDLESS_PHONE', value: '5555550100' },
  { name: 'IDM_PASSWORDLESS_EMAIL', value: 'not-an-address' },
  { name: 'IDM_ALLOW', value: 'lockouts' },
  {
    name: 'IDM_MTLS_CERT_FILE',
    value: '/nonexistent/idm-selftest/cert.pem',
    extra: { IDM_MTLS_CLIENT_ID: 'm', IDM_MTLS_API_KEY: 'k-123' },
  },
  {
    name: 'IDM_MTLS_CA_CERT_FILE',
    value: '/nonexistent/idm-selftest/ca.pem',
    extra: { ...MTLS, IDM_MTLS_CA_CLIENT_ID: 'mca' },
  },
];

test.describe('authentication-API settings', () => {
  test('embedded: every way to authenticate takes its documented dev credentials', () => {
    const a = parseConfig({}).auth;
    expect(a).toMatchObject({
      url: 'http://127.0.0.1:4810',
      tokenUrl: 'http://127.0.0.1:4810/oauth/token',
      post: EMBEDDED.post,
      basic: EMBEDDED.basic,
      publicClientId: 'conformance-spa',
      user: { ...EMBEDDED.user },
      lockout: EMBEDDED.lockout,
      redirectUri: 'https://app.conformance.test/callback',
      logoutReturnTo: 'https://app.conformance.test/logged-out',
      samlConnection: 'conformance-saml',
      paths: { authorize: null, userinfo: null, revoke: null, passwordless: null, logout: null, samlCallback: null },
      loginControls: {
        username: expect.stringContaining('input[type=email]'),
        password: 'input[type=password]',
        // Unset, the buttons are found by role and accessible name (lib/auth/control-words.ts).
        submit: null,
        consentAccept: null,
        consentDecline: null,
        logoutConfirm: null,
      },
      chromium: null,
    });
  });

  test('embedded: every secret among them is masked by the redactor', () => {
    const cfg = parseConfig({ ...MTLS });
    const secrets = secretValues(cfg);
    for (const s of [
      EMBEDDED.post.secret,
      EMBEDDED.basic.secret,
      'api-key-xyz',
      EMBEDDED.user.password,
      EMBEDDED.lockout.password,
    ])
      expect(secrets).toContain(s);
  });

  test('non-embedded: nothing falls back to dev values; each unset one is null', () => {
    const a = parseConfig(STAGING).auth;
    expect(a).toMatchObject({
      url: 'https://staging.example.test',
      post: null,
      basic: null,
      publicClientId: null,
      mtls: null,
      mtlsCa: null,
      user: null,
      lockout: null,
      redirectUri: null,
      logoutReturnTo: null,
      passwordlessEmail: null,
      passwordlessPhone: null,
      samlConnection: null,
    });
  });

  test('non-embedded: configured clients, users and paths are taken as given', () => {
    const cfg = parseConfig({
      ...STAGING,
      ...MTLS,
      IDM_AUTH_URL: 'https://login.example.test/',
      IDM_TOKEN_PATH: '/oauth/token',
      IDM_POST_CLIENT_ID: 'p',
      IDM_POST_CLIENT_SECRET: 'post-secret',
      IDM_BASIC_CLIENT_ID: 'b',
      IDM_BASIC_CLIENT_SECRET: 'basic-secret',
      IDM_PUBLIC_CLIENT_ID: 'spa',
      IDM_MTLS_CA_CLIENT_ID: 'mca',
      IDM_MTLS_CA_CERT_FILE: PEM_FILE,
      IDM_TEST_USERNAME: 'u@example.test',
      IDM_TEST_PASSWORD: 'user-pw',
      IDM_LOCKOUT_USERNAME: 'l@example.test',
      IDM_LOCKOUT_PASSWORD: 'lock-pw',
      IDM_USERINFO_PATH: '/me',
      IDM_PASSWORDLESS_PHONE: '+4915123456789',
      IDM_ALLOW: 'lockout',
    });
    expect(cfg.auth).toMatchObject({
      url: 'https://login.example.test',
      tokenUrl: 'https://login.example.test/oauth/token',
      post: { id: 'p', secret: 'post-secret' },
      basic: { id: 'b', secret: 'basic-secret' },
      publicClientId: 'spa',
      mtls: { id: 'm', apiKey: 'api-key-xyz', certFile: PEM_FILE },
      mtlsCa: { id: 'mca', apiKey: 'api-key-xyz', certFile: PEM_FILE },
      user: { username: 'u@example.test', password: 'user-pw', connection: null },
      lockout: { username: 'l@example.test', password: 'lock-pw' },
      passwordlessPhone: '+4915123456789',
    });
    expect(cfg.auth.paths.userinfo).toBe('/me');
    expect(cfg.tokenUrl, 'the management token endpoint stays on the base URL').toBe(
      'https://staging.example.test/oauth/token',
    );
    expect(cfg.auth.assertionAudience, 'without discovery: the authentication API URL, issuer-style').toBe(
      'https://login.example.test/',
    );
    expect([...cfg.allow]).toEqual(['lockout']);
    expect(secretValues(cfg)).toEqual(
      expect.arrayContaining(['post-secret', 'basic-secret', 'api-key-xyz', 'user-pw', 'lock-pw']),
    );
  });

  refusedAuthSettings();
});

/** Contradictory, missing and invalid authentication-API settings: each refused with its code, naming the settings. */
function refusedAuthSettings(): void {
  for (const c of AUTH_CONTRADICTORY) {
    test(`contradictory: ${c.title}`, () => {
      expectIdmError(
        idmErrorOf(() => parseConfig(c.env)),
        'IDM_E_CONFIG_CONTRADICTORY',
        c.names,
      );
    });
  }

  test('missing: a CA-verified mTLS client without IDM_MTLS_API_KEY', () => {
    const env = { ...STAGING, IDM_MTLS_CA_CLIENT_ID: 'mca', IDM_MTLS_CA_CERT_FILE: PEM_FILE };
    expectIdmError(
      idmErrorOf(() => parseConfig(env)),
      'IDM_E_CONFIG_MISSING',
      ['IDM_MTLS_API_KEY'],
    );
  });

  for (const c of AUTH_INVALID) {
    test(`invalid: ${c.name}=${JSON.stringify(c.value)}`, () => {
      const env: Env = { ...STAGING, ...c.extra, [c.name]: c.value };
      expectIdmError(
        idmErrorOf(() => parseConfig(env)),
        'IDM_E_CONFIG_INVALID',
        [c.name],
      );
    });
  }
}
