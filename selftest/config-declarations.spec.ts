// lib/config/: every declared setting, set only in a .env file, takes effect exactly as the
// same value in the environment does; the declarations are consistent; the README's table is
// the generated one; no TypeScript outside lib/config/ reads process.env.IDM_*; and
// `npm run config` explains a fresh checkout and refuses a misconfigured .env in one line.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';
import { EMBEDDED, loadConfig } from '../lib/config.ts';
import { SETTINGS, type Setting } from '../lib/config/declarations.ts';
import { settingsTable } from '../lib/config/explain.ts';
import { loadSettings, readValue } from '../lib/config/parse.ts';
import { README, tableIn } from '../lib/config/readme.ts';
import { runSettings } from '../lib/config/run.ts';

const ROOT = process.cwd();
// The tsx loader by URL: the command runs in a folder of its own, where `tsx` does not resolve.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const NAMES = SETTINGS.map((s) => s.name);

/** A valid value of the setting's kind that differs from its defaults (derived, so a new setting needs no entry here). */
function sample(s: Setting): string {
  const k = s.kind;
  const candidates: Record<string, string[]> = {
    text: [`sample_${s.name.toLowerCase()}`, 'sample@example.test', '+15555550199'],
    url: ['https://sample.example.test/x'],
    path: ['/sample/path'],
    int: k.type === 'int' ? [String(k.max - 1)] : [],
    bool: [s.default === 'false' ? 'true' : 'false'],
    enum: k.type === 'enum' ? [...k.values].reverse() : [],
    list: k.type === 'list' ? [k.values ? k.values.slice(0, 2).join(',') : 'sample_a,sample_b,sample_c'] : [],
    file: [EMBEDDED.mtls.certFile],
  };
  for (const c of candidates[k.type] ?? []) {
    try {
      readValue(s, c);
      return c;
    } catch {
      /* next candidate */
    }
  }
  throw new Error(`no sample value for ${s.name}`);
}

/** The setting and what must come with it: its `together` set, and the required ones for a staging target. */
function entry(s: Setting): Record<string, string> {
  const out: Record<string, string> = { [s.name]: sample(s) };
  for (const o of SETTINGS) if (s.together && o.together === s.together) out[o.name] = sample(o);
  if (s.name === 'IDM_BASE_URL') for (const o of SETTINGS) if (o.required) out[o.name] = sample(o);
  // The CA-verified client shares the API key, which comes with the whole mTLS set (config.ts).
  if (s.together === 'mtls-ca') for (const o of SETTINGS) if (o.together === 'mtls') out[o.name] = sample(o);
  return out;
}

const dir = (): string => mkdtempSync(join(tmpdir(), 'idm-selftest-settings-'));
const dotenv = (values: Record<string, string>): string =>
  Object.entries(values)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');

test.describe('each setting set only in .env takes effect', () => {
  for (const s of SETTINGS) {
    if (s.name === 'IDM_ENV_FILE') continue; // names the file itself: read from the environment only
    test(s.name, () => {
      const values = entry(s);
      const withFile = dir();
      writeFileSync(join(withFile, '.env'), dotenv(values));
      const fromFile = loadSettings({}, withFile);
      const resolved = fromFile.byName.get(s.name);
      expect(resolved?.origin).toBe('.env');
      expect(resolved?.value).toEqual(readValue(s, values[s.name] as string));
      // The same value in the environment (no .env) gives the same configuration.
      // The same value in the environment (same folder, an empty env file) gives the same configuration.
      writeFileSync(join(withFile, 'empty.env'), '');
      const onlyEnv = { ...values, IDM_ENV_FILE: 'empty.env' };
      expect(loadSettings(onlyEnv, withFile).byName.get(s.name)?.value).toEqual(resolved?.value);
      if (s.run) {
        expect(runSettings({}, withFile)).toEqual(runSettings(onlyEnv, withFile));
        expect(runSettings({}, withFile), 'the setting changes the run settings').not.toEqual(
          runSettings({ IDM_ENV_FILE: 'empty.env' }, withFile),
        );
      } else {
        const { envFile, ...cfg } = loadConfig({}, withFile);
        expect(envFile).toBe(join(withFile, '.env'));
        const { envFile: _none, ...cfgEnv } = loadConfig(onlyEnv, withFile);
        expect(cfg).toEqual(cfgEnv);
        const { envFile: _, ...plain } = loadConfig({ IDM_ENV_FILE: 'empty.env' }, withFile);
        expect(cfg, 'the setting changes the configuration').not.toEqual(plain);
      }
    });
  }

  test('the reports folder, the state folder and the baseline file from .env (runSettings, as every process reads them)', () => {
    const d = dir();
    writeFileSync(
      join(d, '.env'),
      'IDM_REPORTS_DIR=out/conformance\nIDM_STATE_DIR=state-here\nIDM_BASELINE=my-baseline.json\nIDM_DEPTH=quick\n',
    );
    expect(runSettings({}, d)).toMatchObject({
      reportsDir: 'out/conformance',
      stateDir: join(d, 'state-here'),
      baseline: 'my-baseline.json',
    });
    expect(loadConfig({}, d).depth).toBe('quick');
    // The environment still wins.
    expect(runSettings({ IDM_REPORTS_DIR: 'elsewhere' }, d).reportsDir).toBe('elsewhere');
  });

  test('a .env line naming an unknown IDM_* setting is refused naming the line (a typo never runs the default)', () => {
    const d = dir();
    writeFileSync(join(d, '.env'), 'IDM_DEPTH=quick\nIDM_DEPHT=deep\n');
    expect(() => loadConfig({}, d)).toThrow(/IDM_E_CONFIG_ENV_FILE.*\.env:2.*IDM_DEPHT|\.env:2 sets IDM_DEPHT/);
  });
});

test('IDM_ENV_FILE inside a .env is refused: it names the file, so only the environment can set it', () => {
  const d = dir();
  writeFileSync(join(d, '.env'), 'IDM_ENV_FILE=other.env\n');
  expect(() => loadConfig({}, d)).toThrow(/\.env:1 sets IDM_ENV_FILE/);
});

test.describe('the declarations', () => {
  test('names are unique IDM_* names, each documented', () => {
    expect(new Set(NAMES).size).toBe(NAMES.length);
    for (const s of SETTINGS) {
      expect(s.name).toMatch(/^IDM_[A-Z0-9_]+$/);
      expect(s.doc.length, s.name).toBeGreaterThan(3);
    }
  });
  test('every default and embedded default passes its own kind; every together set has two or more', () => {
    for (const s of SETTINGS) {
      if (typeof s.default === 'string') readValue(s, s.default);
      if (s.embedded !== undefined) readValue(s, s.embedded);
      if (s.together) expect(SETTINGS.filter((o) => o.together === s.together).length, s.name).toBeGreaterThan(1);
    }
  });
  test('a required setting has an embedded default (its accessor reads it as always set)', () => {
    for (const s of SETTINGS) if (s.required) expect(s.embedded, s.name).toBeDefined();
  });
  test('a setting is named by its declared name and read by its kind (else a type error)', () => {
    const s = loadSettings({}, dir());
    // @ts-expect-error IDM_DEPHT is not a declared setting
    expect(() => s.text('IDM_DEPHT')).toThrow(/IDM_DEPHT is not a declared setting/);
    // @ts-expect-error IDM_DEPTH is an enum, not an integer
    expect(s.int('IDM_DEPTH')).toBe('default');
  });
  test('every secret setting with an embedded default is hidden by the redactor list', () => {
    const cfg = loadConfig({}, dir());
    for (const s of SETTINGS)
      if (s.secret && s.embedded !== undefined) expect(cfg.secrets, s.name).toContain(s.embedded);
  });
});

test('the README configuration table is the one generated from the declarations (npm run config -- --readme)', () => {
  expect(tableIn(readFileSync(README, 'utf8'))).toBe(settingsTable());
});

test('outside lib/config/, no TypeScript reads process.env.IDM_* (unless a nearby "// env:" comment says why)', () => {
  const offenders: string[] = [];
  const walk = (d: string): void => {
    for (const f of readdirSync(d)) {
      if (['node_modules', '.git', 'reports', 'test-results', '.idm-state'].includes(f)) continue;
      const p = join(d, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (p.endsWith('.ts')) {
        const rel = relative(ROOT, p);
        if (rel.startsWith('lib/config/') || rel === 'selftest/config-declarations.spec.ts') continue;
        const lines = readFileSync(p, 'utf8').split('\n');
        lines.forEach((line, i) => {
          if (!/process\.env(\.|\[['"])IDM_/.test(line)) return;
          const near = lines.slice(Math.max(0, i - 15), i + 1).join('\n');
          if (!near.includes('// env:')) offenders.push(`${rel}:${i + 1}: ${line.trim()}`);
        });
      }
    }
  };
  walk(ROOT);
  expect(offenders).toEqual([]);
});

test.describe('npm run config', () => {
  const run = (cwd: string, env: Record<string, string> = {}) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('IDM_')));
    return spawnSync(process.execPath, ['--import', TSX, join(ROOT, 'bin/config.ts')], {
      cwd,
      env: { ...clean, ...env },
      encoding: 'utf8',
    });
  };

  test('a fresh checkout: one line per setting with its source, then what is skipped; secrets as ***', () => {
    const r = run(dir());
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^target: http:\/\/127\.0\.0\.1:4810 \(the embedded reference tenant\) · \.env: none$/);
    for (const s of SETTINGS) expect(r.stdout).toMatch(new RegExp(`^${s.name} `, 'm'));
    expect(r.stdout).toMatch(/^IDM_CLIENT_SECRET +\*\*\* +embedded default$/m);
    expect(r.stdout).toMatch(/^IDM_DEPTH +default +default$/m);
    expect(r.stdout).not.toContain(EMBEDDED.client.secret);
  });

  test('against a staging .env: sources named, the unset sets listed as skipped', () => {
    const d = dir();
    writeFileSync(
      join(d, '.env'),
      'IDM_BASE_URL=https://staging.example.test\nIDM_CLIENT_ID=c\nIDM_CLIENT_SECRET=secret-abcdef\nIDM_RESOURCE_SERVER_ID=rs_x\n',
    );
    const r = run(d, { IDM_DEPTH: 'quick' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^IDM_BASE_URL +https:\/\/staging\.example\.test +\.env$/m);
    expect(r.stdout).toMatch(/^IDM_DEPTH +quick +environment$/m);
    expect(r.stdout).toContain('IDM_MTLS_* unset → §5.2 mTLS skipped');
    expect(r.stdout).toContain('IDM_FEATURE_FLAG_ID + IDM_VARIATION_IDS unset →');
    expect(r.stdout).toContain('IDM_ALLOW without burst → skipped');
    expect(r.stdout).not.toContain('secret-abcdef');
  });

  test('a misconfigured .env: one line on stderr, exit 2, nothing else', () => {
    const d = dir();
    writeFileSync(join(d, '.env'), 'IDM_DEPTH=fast\n');
    const r = run(d);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(/^idm-conformance: IDM_E_CONFIG_INVALID: IDM_DEPTH /),
    ]);
  });
});
