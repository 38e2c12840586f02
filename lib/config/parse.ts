// Reads every declared setting from its sources: the kind's check (IDM_E_CONFIG_INVALID),
// the `together` rule (IDM_E_CONFIG_CONTRADICTORY), the `required` rule
// (IDM_E_CONFIG_MISSING), then the value: as set, else the embedded default (embedded tenant,
// none of its `together` settings set), else the default. Rules between settings of different
// meaning (two clients that must differ, …) live with the configuration they shape (config.ts).
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { IdmError } from '../errors.ts';
import {
  partners,
  SETTINGS,
  type Kind,
  type NameOfKind,
  type Setting,
  type SettingName,
  type SettingValue,
} from './declarations.ts';
import { readSources, type Env } from './sources.ts';

export type Origin = 'environment' | '.env' | 'embedded default' | 'default' | 'unset';
type Value = string | number | boolean | string[];
/** The kinds whose value is text. */
type TextKind = 'text' | 'url' | 'path' | 'file' | 'enum';

export interface Resolved {
  setting: Setting;
  /** The text the value was read from (null: unset, no default). */
  raw: string | null;
  value: Value | null;
  origin: Origin;
}

/**
 * The parsed settings, each read by an accessor of its kind and typed by its entry: a setting
 * with a default or required reads as its value, any other as its value or null; an enum as
 * its values, a list as an array (empty when unset). readValue made each value of its kind.
 */
export class Settings {
  constructor(
    readonly byName: ReadonlyMap<SettingName, Resolved>,
    readonly embedded: boolean,
    readonly envFile: string | null,
  ) {}

  private get(name: SettingName): Value | null {
    const r = this.byName.get(name);
    if (!r) throw new Error(`${name} is not a declared setting (lib/config/declarations.ts)`);
    return r.value;
  }
  text<N extends NameOfKind<TextKind>>(name: N): SettingValue<N> {
    const v = this.get(name);
    return (v === null ? null : String(v)) as SettingValue<N>;
  }
  int<N extends NameOfKind<'int'>>(name: N): SettingValue<N> {
    return this.get(name) as SettingValue<N>;
  }
  bool<N extends NameOfKind<'bool'>>(name: N): SettingValue<N> {
    return this.get(name) as SettingValue<N>;
  }
  list<N extends NameOfKind<'list'>>(name: N): NonNullable<SettingValue<N>> {
    return (this.get(name) ?? []) as NonNullable<SettingValue<N>>;
  }
  /** Whether the user set it (environment or .env), not a default. */
  isSet(name: SettingName): boolean {
    const o = this.byName.get(name)?.origin;
    return o === 'environment' || o === '.env';
  }
  /** The effective values of the secret settings (the redactor hides them wherever they appear). */
  secrets(): string[] {
    return [...this.byName.values()].filter((r) => r.setting.secret && r.raw !== null).map((r) => r.raw as string);
  }
}

const blank = (v: string | undefined): string | undefined =>
  v === undefined || v.trim() === '' ? undefined : v.trim();

/**
 * Every setting, from `env` (with `fromFile` naming those that came from .env). `only`
 * restricts the reading to some settings (the run's folders and ports are read even when the
 * target's settings are wrong, e.g. by `npm run report`).
 */
export function parseSettings(
  env: Env,
  opts: { fromFile?: ReadonlySet<string>; envFile?: string | null; only?: readonly SettingName[] } = {},
): Settings {
  const get = (name: string) => blank(env[name]);
  const embedded = get('IDM_BASE_URL') === undefined;
  const chosen = opts.only ? SETTINGS.filter((s) => opts.only?.includes(s.name)) : SETTINGS;
  if (!opts.only) {
    checkTogether(get);
    // The required settings are the Management API's: not needed when it is not under test.
    if (!embedded && get('IDM_APIS') !== 'authentication')
      for (const s of SETTINGS)
        if (s.required && get(s.name) === undefined)
          throw new IdmError('IDM_E_CONFIG_MISSING', `${s.name} is not set (required when IDM_BASE_URL is set)`);
  }
  const out = new Map<SettingName, Resolved>();
  const base = (): string =>
    embedded
      ? `http://127.0.0.1:${out.get('IDM_EMBEDDED_PORT')?.value ?? readValue(byName('IDM_EMBEDDED_PORT'), get('IDM_EMBEDDED_PORT') ?? '4810')}`
      : (readValue(byName('IDM_BASE_URL'), get('IDM_BASE_URL') as string) as string);
  // The files group first: the embedded base URL derives from IDM_EMBEDDED_PORT.
  for (const s of [...chosen].sort((a, b) => Number(b.group === 'files') - Number(a.group === 'files'))) {
    const own = get(s.name);
    let raw: string | null = own ?? null;
    let origin: Origin = own === undefined ? 'unset' : opts.fromFile?.has(s.name) ? '.env' : 'environment';
    const groupUnset = partners(s).every((o) => get(o.name) === undefined);
    if (raw === null && embedded && s.embedded !== undefined && groupUnset) {
      raw = s.embedded;
      origin = 'embedded default';
    } else if (raw === null && s.default !== undefined) {
      raw = typeof s.default === 'string' ? s.default : s.default(base());
      origin = 'default';
    }
    out.set(s.name, { setting: s, raw, value: raw === null ? null : readValue(s, raw), origin });
  }
  return new Settings(out, embedded, opts.envFile ?? null);
}

/** The environment and .env together, parsed (what every process reads). */
export function loadSettings(env: Env = process.env, cwd = process.cwd(), only?: readonly SettingName[]): Settings {
  const { merged, fromFile, envFile } = readSources(env, cwd);
  return parseSettings(merged, { fromFile, envFile, ...(only ? { only } : {}) });
}

/** A setting's declared default, for code that must agree with it (a missing one throws, never NaN). */
export function declaredDefault(name: SettingName): string {
  const d = byName(name).default;
  if (typeof d !== 'string') throw new Error(`${name} declares no plain default`);
  return d;
}

function byName(name: SettingName): Setting {
  const s = SETTINGS.find((x) => x.name === name);
  if (!s) throw new Error(`${name} is not a declared setting`);
  return s;
}

/** All of a `together` set or none: the message names what is set and what is missing. */
function checkTogether(get: (n: string) => string | undefined): void {
  const sets = new Map<string, string[]>();
  for (const s of SETTINGS) if (s.together) sets.set(s.together, [...(sets.get(s.together) ?? []), s.name]);
  for (const names of sets.values()) {
    const given = names.filter((n) => get(n) !== undefined);
    if (given.length === 0 || given.length === names.length) continue;
    const missing = names.filter((n) => !given.includes(n));
    throw new IdmError(
      'IDM_E_CONFIG_CONTRADICTORY',
      `${given.join(', ')} ${given.length > 1 ? 'are' : 'is'} set without ${missing.join(', ')} (${names.join(', ')} go together)`,
    );
  }
}

/** One value read by its kind; a value the suite cannot use is IDM_E_CONFIG_INVALID naming the setting. */
export function readValue(s: Setting, raw: string): Value {
  const bad = (why: string): never => {
    throw new IdmError('IDM_E_CONFIG_INVALID', `${s.name} ${why} (got ${JSON.stringify(raw)})`);
  };
  const k: Kind = s.kind;
  switch (k.type) {
    case 'text':
      if (k.pattern && !k.pattern.test(raw)) bad(`must be ${k.what ?? `like ${k.pattern}`}`);
      return raw;
    case 'path':
      if (!raw.startsWith('/')) bad('must start with "/"');
      return raw;
    case 'int': {
      const n = Number(raw);
      if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(n) || n < k.min || n > k.max)
        bad(`must be an integer from ${k.min} to ${k.max}`);
      return n;
    }
    case 'bool': {
      const v = raw.toLowerCase();
      if (['true', '1', 'yes'].includes(v)) return true;
      if (['false', '0', 'no'].includes(v)) return false;
      return bad('must be true or false');
    }
    case 'enum':
      if (!k.values.includes(raw)) bad(`must be one of ${k.values.join(', ')}`);
      return raw;
    case 'list': {
      const items = raw
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean);
      if (items.length < k.min) bad(`must list at least ${k.min} ${k.what}, comma-separated`);
      if (!k.values) return items;
      const unknown = items.find((x) => x !== 'all' && !k.values?.includes(x));
      if (unknown !== undefined) bad(`has unknown value "${unknown}" (known: ${k.values.join(', ')}, all)`);
      return items.includes('all') ? [...k.values] : [...new Set(items)];
    }
    case 'file':
      if (!existsSync(raw)) bad(`names ${resolve(raw)}, which does not exist`);
      return raw;
    case 'url': {
      let u: URL;
      try {
        u = new URL(raw);
      } catch {
        return bad('is not an absolute URL');
      }
      if (u.protocol !== 'http:' && u.protocol !== 'https:') bad('must be http(s)');
      if (!k.origin) return raw;
      if (u.search || u.hash || u.username || u.password) bad('must not carry a query, fragment or credentials');
      return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
    }
  }
}
