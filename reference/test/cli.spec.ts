// The command line: one line when listening, flags parsed, clean stop on SIGTERM.
import { test, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseCli } from '../src/config.ts';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

function launch(args: string[]): { child: ChildProcess; firstLine: Promise<string>; exit: Promise<number | null> } {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) resolve(out.slice(0, nl));
    });
    child.on('exit', () => reject(new Error(`exited before listening: ${out}`)));
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, firstLine, exit };
}

test('starts, prints its URL on one line, serves, and exits 0 on SIGTERM', async () => {
  const started = performance.now();
  const { child, firstLine, exit } = launch([
    '--host',
    '127.0.0.1',
    '--port',
    '0',
    '--public-url',
    'http://edge.example.test:8443',
    '--rate-limit',
    '7/3',
  ]);
  try {
    const line = await firstLine;
    test
      .info()
      .annotations.push({ type: 'start-time-ms', description: String(Math.round(performance.now() - started)) });
    const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line)?.[1];
    expect(url, line).toBeDefined();
    const oidc = await fetch(`${url}/.well-known/openid-configuration`);
    expect(oidc.headers.get('x-ratelimit-limit')).toBe('7');
    expect(((await oidc.json()) as { issuer: string }).issuer).toBe('http://edge.example.test:8443/');
  } finally {
    child.kill('SIGTERM');
  }
  expect(await exit).toBe(0);
});

test('a bad flag ends with exit code 2 and one line on stderr', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--rate-limit', 'fast'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  expect(code).toBe(2);
  expect(err).toContain('rate limit must be <capacity>/<refillPerSecond>');
});

test('login profile flags and env: flags win, --logout-confirm takes no value, bad values are refused', () => {
  const cli = parseCli(
    ['--login', 'identifier-first', '--consent=offline', '--logout-confirm', '--login-origin', 'http://localhost:4810'],
    { REFERENCE_LOGIN: 'challenge' },
  );
  expect(cli).toHaveProperty('login', {
    flow: 'identifier-first',
    consent: 'offline',
    logoutConfirm: true,
    origin: 'http://localhost:4810',
  });
  const env = parseCli([], {
    REFERENCE_LOGIN: 'challenge',
    REFERENCE_CONSENT: 'always',
    REFERENCE_LOGOUT_CONFIRM: 'false',
  });
  expect(env).toHaveProperty('login', { flow: 'challenge', consent: 'always', logoutConfirm: false });
  expect(parseCli([], {})).toHaveProperty('login', {});
  expect(() => parseCli(['--login', 'two-page'], {})).toThrow('login must be one-page, identifier-first, challenge');
  expect(() => parseCli(['--consent', 'sometimes'], {})).toThrow('consent must be always, offline, never, remembered');
  expect(() => parseCli([], { REFERENCE_LOGOUT_CONFIRM: 'yes' })).toThrow(
    'REFERENCE_LOGOUT_CONFIRM must be true, false',
  );
  expect(() => parseCli(['--login-origin', 'http://localhost:1/u'], {})).toThrow('without a path');
});

test('--consent-to all|confidential (or REFERENCE_CONSENT_TO): the clients shown the consent page; the flag wins', () => {
  expect(parseCli(['--consent-to', 'confidential'], { REFERENCE_CONSENT_TO: 'all' })).toMatchObject({
    login: { consentTo: 'confidential' },
  });
  expect(parseCli([], { REFERENCE_CONSENT_TO: 'confidential' })).toMatchObject({
    login: { consentTo: 'confidential' },
  });
  expect(() => parseCli(['--consent-to', 'public'], {})).toThrow('consent-to must be all, confidential');
});

test('--refresh-rotation takes no value; REFERENCE_REFRESH_ROTATION true|false; off by default; the flag wins', () => {
  expect(parseCli([], {})).toHaveProperty('refreshRotation', false);
  expect(parseCli(['--refresh-rotation'], {})).toHaveProperty('refreshRotation', true);
  expect(parseCli([], { REFERENCE_REFRESH_ROTATION: 'true' })).toHaveProperty('refreshRotation', true);
  expect(parseCli(['--refresh-rotation'], { REFERENCE_REFRESH_ROTATION: 'false' })).toHaveProperty(
    'refreshRotation',
    true,
  );
  expect(() => parseCli([], { REFERENCE_REFRESH_ROTATION: 'yes' })).toThrow(
    'REFERENCE_REFRESH_ROTATION must be true, false',
  );
});

test('--experiments unique-names,delete (or REFERENCE_EXPERIMENTS): the experiment profile; neither by default', () => {
  expect(parseCli([], {})).toHaveProperty('experiments', { uniqueNames: false, deletable: false });
  expect(parseCli(['--experiments', 'unique-names,delete'], {})).toHaveProperty('experiments', {
    uniqueNames: true,
    deletable: true,
  });
  expect(parseCli([], { REFERENCE_EXPERIMENTS: 'delete' })).toHaveProperty('experiments', {
    uniqueNames: false,
    deletable: true,
  });
  expect(() => parseCli(['--experiments', 'list'], {})).toThrow('experiments must be unique-names, delete');
});

test('issue 40’s profile flags and env: --login-first takes no value, consent remembered and its controls, revocation in RFC 8414 metadata', () => {
  const cli = parseCli(
    ['--login-first', '--consent', 'remembered', '--consent-controls', 'inputs', '--revocation-announced', 'rfc8414'],
    {},
  );
  expect(cli).toMatchObject({
    login: { loginFirst: true, consent: 'remembered', consentControls: 'inputs' },
    revocationAnnounced: 'rfc8414',
  });
  expect(
    parseCli([], {
      REFERENCE_LOGIN_FIRST: 'true',
      REFERENCE_CONSENT_CONTROLS: 'nested',
      REFERENCE_REVOCATION_ANNOUNCED: 'both',
    }),
  ).toMatchObject({ login: { loginFirst: true, consentControls: 'nested' }, revocationAnnounced: 'both' });
  expect(parseCli([], {})).toHaveProperty('revocationAnnounced', 'both');
  expect(() => parseCli(['--consent-controls', 'links'], {})).toThrow(
    'consent-controls must be buttons, inputs, nested',
  );
  expect(() => parseCli(['--revocation-announced', 'nowhere'], {})).toThrow(
    'revocation announced must be both, rfc8414',
  );
  expect(() => parseCli(['--login-first', '--login', 'identifier-first'], {})).toThrow(/loginFirst/);
});
