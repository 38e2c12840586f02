// Staging safety: the configured resource server is snapshotted before any test runs and
// put back after every test that wrote to it and once more at the end of the run, also when
// tests fail. The spec shows no read operation, so the state is read with an empty partial
// update (PATCH {}), which §4.1 answers with the full object.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fieldsOf } from '../schemas/index.ts';
import type { Exchange } from './http.ts';
import { deepEqual, isObject, short } from './values.ts';

/** The request-body fields of §2.2 (from the update schema): the only fields a restore can write. */
export const UPDATABLE_FIELDS: readonly string[] = fieldsOf('ResourceServerUpdate').map((f) => f.name);

/** Fields whose "unset" can be written back as null (§2.2 "or null"). */
const NULLABLE = new Set(
  fieldsOf('ResourceServerUpdate')
    .filter((f) => f.types.includes('null'))
    .map((f) => f.name),
);

export type ResourceServer = Record<string, unknown>;

/** The smallest body that turns `current` back into `snapshot`; {} when nothing differs. */
export function restoreBody(snapshot: ResourceServer, current: ResourceServer): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of UPDATABLE_FIELDS) {
    const inSnap = f in snapshot;
    if (inSnap && !deepEqual(snapshot[f], current[f])) body[f] = snapshot[f];
    else if (!inSnap && f in current && current[f] !== null && NULLABLE.has(f)) body[f] = null;
  }
  // Lowering token_lifetime first would clamp token_lifetime_for_web; raising is harmless.
  return body;
}

/** Fields where `current` still differs from `snapshot` after a restore (for the warning). */
export function unrestored(snapshot: ResourceServer, current: ResourceServer): string[] {
  const out: string[] = [];
  for (const f of [...UPDATABLE_FIELDS, 'token_lifetime_for_web', 'identifier', 'id']) {
    if (f in snapshot && !deepEqual(snapshot[f], current[f])) out.push(f);
  }
  return out;
}

export interface SafetyPolicy {
  /** Writes that lower token_lifetime below the original token_lifetime_for_web are allowed. */
  lowerLifetime: boolean;
  /** Writes to fields the snapshot does not show are allowed. */
  irreversible: boolean;
}

/**
 * Makes a valid update body safe for a shared tenant: token_lifetime is kept at or above the
 * original token_lifetime_for_web (the tenant would clamp the latter, and §2.2 gives no way
 * to write it back), and fields that the snapshot does not show are left out.
 */
export function makeSafe(
  body: Record<string, unknown>,
  snapshot: ResourceServer,
  policy: SafetyPolicy,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (!policy.irreversible && !(k in snapshot)) continue;
    out[k] = v;
  }
  const web = snapshot.token_lifetime_for_web;
  if (
    !policy.lowerLifetime &&
    typeof web === 'number' &&
    typeof out.token_lifetime === 'number' &&
    out.token_lifetime < web
  ) {
    out.token_lifetime = web;
  }
  return out;
}

// A refused restore (issue 16): the tenant refuses a value the snapshot holds (e.g.
// consent_policy: null). It is one finding, said once per run with the field refused; the
// tests after it start from the state they read instead of the snapshot.

export interface RestoreRefusal {
  /** Fields left differing from the snapshot. */
  fields: string[];
  /** "field: value (status error)" for each field the tenant refused when written alone. */
  refused: string[];
}

const REFUSAL_FILE = 'restore-refused.json';

export function readRestoreRefusal(runDir: string): RestoreRefusal | null {
  try {
    const v = JSON.parse(readFileSync(join(runDir, REFUSAL_FILE), 'utf8')) as RestoreRefusal;
    return Array.isArray(v.fields) ? v : null;
  } catch {
    return null;
  }
}

export function writeRestoreRefusal(runDir: string, r: RestoreRefusal): void {
  writeFileSync(join(runDir, REFUSAL_FILE), JSON.stringify(r));
}

/** Writes each field of a refused restore body alone; the ones refused again are named. */
export async function refusedRestoreFields(
  body: Record<string, unknown>,
  patch: (one: Record<string, unknown>) => Promise<Exchange>,
): Promise<{ refused: string[] }> {
  const refused: string[] = [];
  for (const [f, v] of Object.entries(body)) {
    const ex = await patch({ [f]: v });
    if (ex.status >= 400) {
      const code = isObject(ex.body) ? (ex.body.errorCode ?? ex.body.error ?? '') : '';
      refused.push(`${f}: ${short(v)} (${ex.status}${code ? ` ${String(code)}` : ''})`);
    }
  }
  return { refused };
}
