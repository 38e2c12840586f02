// What the declarations tell people: the effective configuration of `npm run config` (one
// line per setting, secrets as ***, where each value came from, then what the run skips), the
// README's configuration table, and the settings a mutation variant is launched with.
import {
  ALLOWANCE_NAMES,
  ALLOWANCES,
  defaultText,
  type EmbeddedName,
  embeddedText,
  GROUPS,
  partners,
  SETTINGS,
  type Group,
  type Setting,
} from './declarations.ts';
import type { Settings } from './parse.ts';

/** Every setting with an embedded default, at that default (a variant is the reference tenant elsewhere). */
export function embeddedEnv(): Record<EmbeddedName, string> {
  const out: Partial<Record<string, string>> = {};
  for (const s of SETTINGS) if (s.embedded !== undefined) out[s.name] = s.embedded;
  // Every EmbeddedName is a setting with an embedded default, so each has its entry.
  return out as Record<EmbeddedName, string>;
}

/** `npm run config`: one line per setting, then one per thing the run skips because of what is unset. */
export function explain(
  s: Settings,
  target: { baseUrl: string; authUrl: string | null; noBrowser: string | null },
): string[] {
  const rows = SETTINGS.map((d) => {
    const r = s.byName.get(d.name);
    const unset = d.defaultDoc ? `(unset: ${d.defaultDoc.replace(/`/g, '')})` : '(unset)';
    const shown = r?.raw == null ? unset : d.secret ? '***' : r.raw.replace(/\n/g, '\\n');
    return [d.name, shown, r?.origin ?? 'unset'] as const;
  });
  const w0 = Math.max(...rows.map((r) => r[0].length));
  const w1 = Math.min(64, Math.max(...rows.map((r) => r[1].length)));
  const lines = [
    `target: ${target.baseUrl}${s.embedded ? ' (the embedded reference tenant)' : ''}${target.authUrl ? ` · authentication API: ${target.authUrl}` : ''} · .env: ${s.envFile ?? 'none'}`,
    ...rows.map(([n, v, o]) => `${n.padEnd(w0)}  ${v.padEnd(w1)}  ${o}`),
  ];
  const skips = skipped(s, target.noBrowser);
  lines.push(skips.length ? 'skipped because of what is unset:' : 'nothing is skipped because of what is unset');
  for (const k of skips) lines.push(`  ${k}`);
  return lines;
}

/** `noBrowser`: why no browser was found (lib/auth/browser.ts), or null when one was. */
function skipped(s: Settings, noBrowser: string | null): string[] {
  const out: string[] = [];
  for (const d of SETTINGS) {
    if (!d.unset || s.byName.get(d.name)?.raw != null) continue;
    const names = partners(d).map((o) => o.name);
    out.push(`${family(names)} unset → ${d.unset}`);
  }
  if (!s.embedded) {
    const allow = new Set(s.list('IDM_ALLOW'));
    for (const k of ALLOWANCE_NAMES) if (!allow.has(k)) out.push(`IDM_ALLOW without ${k} → skipped: ${ALLOWANCES[k]}`);
  }
  if (noBrowser) out.push(`the browser flows skipped: ${noBrowser}`);
  return out;
}

/** IDM_MTLS_CLIENT_ID, IDM_MTLS_API_KEY, IDM_MTLS_CERT_FILE → IDM_MTLS_*; without a shared stem, the names. */
function family(names: string[]): string {
  if (names.length === 1) return names[0] as string;
  let prefix = names[0] as string;
  for (const n of names) while (!n.startsWith(prefix)) prefix = prefix.slice(0, -1);
  const stem = prefix.slice(0, prefix.lastIndexOf('_') + 1);
  return stem === 'IDM_' ? names.join(' + ') : `${stem}*`;
}

const cell = (t: string | null): string => (t ?? '—').replace(/\|/g, '\\|');

/** The README's configuration table, one section per group. */
export function settingsTable(): string {
  const out: string[] = [];
  for (const [group, title] of Object.entries(GROUPS) as Array<[Group, string]>) {
    out.push(`**${title}**`, '', '| Setting | Default | Embedded tenant | Meaning |', '|---|---|---|---|');
    for (const s of SETTINGS.filter((x) => x.group === group)) out.push(row(s));
    out.push('');
  }
  return out.join('\n').trimEnd();
}

function row(s: Setting): string {
  const others = partners(s).filter((o) => o !== s);
  const flags = [
    s.required ? 'required against a staging tenant' : null,
    others.length ? `with ${others.map((o) => `\`${o.name}\``).join(', ')}` : null,
    s.secret ? 'secret' : null,
    s.unset ? `unset → ${s.unset}` : null,
  ].filter(Boolean);
  const meaning = flags.length ? `${s.doc} (${flags.join('; ')})` : s.doc;
  return `| \`${s.name}\` | ${cell(defaultText(s))} | ${cell(embeddedText(s))} | ${cell(meaning)} |`;
}
