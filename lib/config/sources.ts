// Where settings come from: the environment, then an optional .env file (the environment
// wins). Every process reads the same file the same way (runner, workers, reporters, bin/*,
// the mutation harness), so a setting in .env takes effect wherever it is read. A malformed
// line or an unknown IDM_* name is an error naming the line, never skipped: a typo such as
// IDM_DEPHT would otherwise quietly run the default.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { IdmError } from '../errors.ts';
import { SETTINGS } from './declarations.ts';

export type Env = Record<string, string | undefined>;

export interface Sources {
  /** The environment over the .env file. */
  merged: Env;
  /** Names whose value came from the .env file (not overridden by the environment). */
  fromFile: ReadonlySet<string>;
  /** The .env file read, if one was. */
  envFile: string | null;
}

const KNOWN: ReadonlySet<string> = new Set(SETTINGS.map((s) => s.name));

export function readSources(env: Env = process.env, cwd = process.cwd()): Sources {
  // IDM_ENV_FILE names the file, so it is read from the environment only.
  const explicit = env.IDM_ENV_FILE?.trim();
  const path = resolve(cwd, explicit || '.env');
  if (!existsSync(path)) {
    if (explicit) throw new IdmError('IDM_E_CONFIG_ENV_FILE', `IDM_ENV_FILE names ${explicit}, which does not exist`);
    return { merged: env, fromFile: new Set(), envFile: null };
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new IdmError('IDM_E_CONFIG_ENV_FILE', `cannot read ${path}: ${(e as Error).message}`);
  }
  const file = parseEnvFile(text, path);
  const merged: Env = { ...env };
  const fromFile = new Set<string>();
  for (const [k, v] of Object.entries(file)) {
    if (env[k] !== undefined) continue;
    merged[k] = v;
    fromFile.add(k);
  }
  return { merged, fromFile, envFile: path };
}

/**
 * KEY=VALUE lines, `export ` prefix, # comments, '…' literal, "…" with \n, \" and \\ escapes.
 * Not util.parseEnv: Node 20's parser merges an indented comment line into the next key (the
 * setting on it is silently lost), cuts `a#b` to `a` and ends "say \"hi\"" at the backslash.
 */
export function parseEnvFile(text: string, where = '.env'): Record<string, string> {
  const out: Record<string, string> = {};
  text.split(/\r?\n/).forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const at = `${where}:${i + 1}`;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(trimmed);
    if (!m) throw new IdmError('IDM_E_CONFIG_ENV_FILE', `${at} is not KEY=VALUE`);
    const [, key, rest] = m as unknown as [string, string, string];
    if (key === 'IDM_ENV_FILE')
      throw new IdmError(
        'IDM_E_CONFIG_ENV_FILE',
        `${at} sets IDM_ENV_FILE, which names the file and is read from the environment only`,
      );
    if (key.startsWith('IDM_') && !KNOWN.has(key))
      throw new IdmError(
        'IDM_E_CONFIG_ENV_FILE',
        `${at} sets ${key}, which is not a setting (npm run config lists them)`,
      );
    out[key] = value(rest, at);
  });
  return out;
}

function value(raw: string, at: string): string {
  const q = raw[0];
  if (q !== '"' && q !== "'") return raw.replace(/\s+#.*$/, '').trim();
  const end = raw.lastIndexOf(q);
  if (end === 0) throw new IdmError('IDM_E_CONFIG_ENV_FILE', `${at} has an unterminated quote`);
  const inner = raw.slice(1, end);
  return q === "'" ? inner : inner.replace(/\\([\\"n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
}
