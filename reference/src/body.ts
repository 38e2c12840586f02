// Request body decoding (§4: bodies are application/json or application/x-www-form-urlencoded).
import type { Limits, TenantRequest } from './types.ts';

export type BodyFormat = 'json' | 'form';

/** How a field of a form body is typed: the spec's types, flattened for form encoding. */
/** `nullable-*`: an empty value or the text `null` stands for null (forms have no null). */
export type FormKind = 'string' | 'integer' | 'boolean' | 'nullable-string' | 'json' | 'nullable-json';
export type FormKinds = Record<string, FormKind>;

export type Decoded<T> = { ok: true; value: T } | { ok: false; status: 400 | 413 | 415; message: string };

/** 413 when the body (or its declared length) exceeds the limit. */
export function bodyTooLarge(req: TenantRequest, limits: Limits): boolean {
  const declared = Number(req.headers['content-length'] ?? '0');
  return req.body.length > limits.maxBodyBytes || (Number.isFinite(declared) && declared > limits.maxBodyBytes);
}

/** Media type of the body, or a 415 reason. Only UTF-8 is accepted. */
export function bodyFormat(req: TenantRequest): Decoded<BodyFormat> {
  const header = req.headers['content-type'];
  if (header === undefined || header.trim() === '') {
    return {
      ok: false,
      status: 415,
      message: 'Content-Type is required: application/json or application/x-www-form-urlencoded',
    };
  }
  const [type, ...params] = header.split(';').map((s) => s.trim());
  for (const p of params) {
    const [k, v] = p.split('=').map((s) => s.trim().toLowerCase());
    if (k === 'charset' && v !== undefined && v.replace(/"/g, '') !== 'utf-8') {
      return { ok: false, status: 415, message: `Unsupported charset: ${v}` };
    }
  }
  switch ((type ?? '').toLowerCase()) {
    case 'application/json':
      return { ok: true, value: 'json' };
    case 'application/x-www-form-urlencoded':
      return { ok: true, value: 'form' };
    default:
      return { ok: false, status: 415, message: `Unsupported Content-Type: ${type}` };
  }
}

/** Decodes the body as a JSON object (json) or a typed flat form (form). */
export function decodeObject(
  req: TenantRequest,
  format: BodyFormat,
  kinds: FormKinds,
  limits: Limits,
): Decoded<Record<string, unknown>> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(req.body);
  } catch {
    return { ok: false, status: 400, message: 'Request body is not valid UTF-8' };
  }
  if (format === 'json') {
    const parsed = parseJson(text, limits);
    if (!parsed.ok) return parsed;
    const v = parsed.value;
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      return { ok: false, status: 400, message: 'Request body must be a JSON object' };
    }
    return { ok: true, value: v as Record<string, unknown> };
  }
  return decodeForm(text, kinds, limits);
}

/** Flat form fields typed by the operation's schema; non-flat fields carry JSON text. */
function decodeForm(text: string, kinds: FormKinds, limits: Limits): Decoded<Record<string, unknown>> {
  const params = new URLSearchParams(text);
  const out: Record<string, unknown> = {};
  for (const [key, raw] of params) {
    if (Object.hasOwn(out, key)) {
      return { ok: false, status: 400, message: `Form field ${key} is repeated` };
    }
    const kind = kinds[key] ?? 'string';
    switch (kind) {
      case 'integer':
        out[key] = /^-?\d+$/.test(raw) ? Number(raw) : raw;
        break;
      case 'boolean':
        out[key] = raw === 'true' ? true : raw === 'false' ? false : raw;
        break;
      case 'nullable-string':
        out[key] = raw === 'null' || raw === '' ? null : raw;
        break;
      case 'nullable-json':
      case 'json': {
        if (kind === 'nullable-json' && raw === '') {
          out[key] = null;
          break;
        }
        const parsed = parseJson(raw, limits);
        if (!parsed.ok) return { ok: false, status: 400, message: `Form field ${key}: ${parsed.message}` };
        out[key] = parsed.value;
        break;
      }
      default:
        out[key] = raw;
    }
  }
  return { ok: true, value: out };
}

/** JSON.parse behind an iterative nesting-depth check, so no input can exhaust the stack. */
function parseJson(text: string, limits: Limits): Decoded<unknown> {
  if (jsonDepth(text) > limits.maxJsonDepth) {
    return { ok: false, status: 400, message: `JSON nesting deeper than ${limits.maxJsonDepth}` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, status: 400, message: 'Malformed JSON in request body' };
  }
}

/** Maximum bracket depth outside string literals. */
function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip escaped char
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}
