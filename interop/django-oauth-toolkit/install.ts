// Django OAuth Toolkit installed on this machine: a Python virtual environment made by the
// machine's `python3 -m venv` in the git-ignored cache, and `pip install` from PyPI of the pinned
// packages (the server, Django, the WSGI server and every package they pull in, each at the
// version the leg was judged on). Nothing of theirs is committed; a second prepare finds the
// same pins installed and returns at once.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The versions the leg is judged on (docs/interop.md); a new one is a deliberate change. */
export const DOT_VERSION = '3.4.1';
export const DJANGO_VERSION = '5.2.19';
/** Everything the venv holds: the server, its framework, gunicorn (the WSGI server), and what they pull in. */
const PINS = [
  `django-oauth-toolkit==${DOT_VERSION}`,
  `Django==${DJANGO_VERSION}`,
  'gunicorn==27.0.1',
  'oauthlib==4.0.1',
  'jwcrypto==1.6.1',
  'cryptography==50.0.2',
  'cffi==2.1.1',
  'pycparser==3.12',
  'requests==2.34.2',
  'urllib3==2.8.0',
  'idna==3.20',
  'charset-normalizer==3.5.3',
  'certifi==2026.10.19.post1',
  'asgiref==3.13.0',
  'sqlparse==0.6.1',
  'typing_extensions==4.16.0',
];

export const CACHE_DIR = fileURLToPath(new URL('../.cache/django-oauth-toolkit/', import.meta.url));
const VENV = join(CACHE_DIR, 'venv');
export const PYTHON = join(VENV, 'bin', 'python');
export const GUNICORN = join(VENV, 'bin', 'gunicorn');
/** Written after pip succeeded: the pins it installed, so a cut-short install is never taken for one. */
const INSTALLED = join(CACHE_DIR, 'installed.txt');

export async function prepareDot(log: (line: string) => void): Promise<void> {
  const wanted = `${PINS.join('\n')}\n`;
  if (existsSync(PYTHON) && existsSync(INSTALLED) && readFileSync(INSTALLED, 'utf8') === wanted)
    return log(`django-oauth-toolkit ${DOT_VERSION} (Django ${DJANGO_VERSION}): already in ${VENV}`);
  const started = Date.now();
  rmSync(INSTALLED, { force: true });
  rmSync(VENV, { recursive: true, force: true });
  mkdirSync(CACHE_DIR, { recursive: true });
  log(`python3 -m venv ${VENV}`);
  await run('python3', ['-m', 'venv', VENV], { timeout: 120_000 });
  log(
    `pip install django-oauth-toolkit==${DOT_VERSION} Django==${DJANGO_VERSION} gunicorn and their pinned dependencies`,
  );
  const pip = (args: string[]) =>
    run(PYTHON, ['-m', 'pip', '--disable-pip-version-check', '--no-input', ...args], {
      timeout: 600_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  // The pins are the whole environment (--no-deps: nothing else comes in), and pip check says
  // that they satisfy one another's requirements.
  await pip(['install', '--quiet', '--no-deps', ...PINS]);
  await pip(['check']);
  writeFileSync(INSTALLED, wanted);
  log(`django-oauth-toolkit ${DOT_VERSION}: installed in ${Math.round((Date.now() - started) / 1000)} s`);
}
