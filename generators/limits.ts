// Every numeric limit of a §2 request type, read from its JSON Schema (x-clause included),
// with the valid edge and the first invalid value on each side. The numbers live in the
// schemas only: boundary cases, violation cases and their self-tests all come from here.
import { schemaOf, TYPES, typeNames, type TypeName } from '../schemas/index.ts';
import type { Json, UpdateBody } from './resource-server.ts';
import { PUBLIC_KEY_PEM, pemOfLength } from './resource-server.ts';
import { exactText } from './text.ts';

export type LimitKeyword = 'minLength' | 'maxLength' | 'minimum' | 'maximum' | 'minItems';

export interface Limit {
  /** Field path from the body: object members by name, `*` for an array item. */
  path: string[];
  keyword: LimitKeyword;
  bound: number;
  /** The clause x-clause names for this keyword. */
  clause: string;
}

/** The limits of a request type, in schema order, nested types (through $ref) included. */
export function limitsOf(typeName: TypeName): Limit[] {
  const out: Limit[] = [];
  walk(schemaOf(typeName), [], out);
  return out;
}

/** The value at the edge (`valid`) or one past it (`invalid`); for minLength 1 the invalid value is ''. */
export function edgeValue(limit: Limit, side: 'valid' | 'invalid'): Json {
  const step = side === 'valid' ? 0 : limit.keyword.startsWith('min') ? -1 : 1;
  const n = limit.bound + step;
  if (limit.keyword === 'minimum' || limit.keyword === 'maximum') return n;
  if (limit.keyword === 'minItems')
    throw new Error(`edgeValue: ${limit.path.join('.')} minItems needs items of its own`);
  // A pem long enough to hold the real key is that key, padded: the edge stays a usable key.
  if (limit.path.at(-1) === 'pem' && n >= PUBLIC_KEY_PEM.length) return pemOfLength(n);
  return exactText(n);
}

/** `path.keyword` in words: `token_encryption.encryption_key.name of 129 characters`. */
export function describeEdge(limit: Limit, value: Json): string {
  const where = limit.path.filter((p) => p !== '*').join('.');
  if (typeof value === 'number') return `${where} ${value}`;
  const n = typeof value === 'string' ? [...value].length : 0;
  return `${where} of ${n} character${n === 1 ? '' : 's'}`;
}

/**
 * `base` with `value` at `path`. A nested object missing from the base starts from
 * `fallbacks[member]` (a valid instance: the schema cannot give one, e.g. a usable PEM key);
 * an array path (`*`) appends one item.
 */
export function placeAt(base: UpdateBody, path: string[], value: Json, fallbacks: Record<string, UpdateBody>): Json {
  const [head, ...rest] = path;
  if (head === undefined) return value;
  if (rest[0] === '*') {
    const list = Array.isArray(base[head]) ? [...(base[head] as Json[])] : [];
    const item =
      rest.length === 1 ? value : placeAt(structuredClone(fallbacks[head] ?? {}), rest.slice(1), value, fallbacks);
    return { ...base, [head]: [...list, item] };
  }
  if (rest.length === 0) return { ...base, [head]: value };
  const current = base[head];
  const inner = isObj(current) ? structuredClone(current) : structuredClone(fallbacks[head] ?? {});
  return { ...base, [head]: placeAt(inner, rest, value, fallbacks) };
}

// Helpers

type Node = { [k: string]: unknown };

const KEYWORDS: readonly LimitKeyword[] = ['minLength', 'maxLength', 'minimum', 'maximum', 'minItems'];

function walk(node: Node, path: string[], out: Limit[]): void {
  const target = typeof node['$ref'] === 'string' ? schemaByFile(node['$ref']) : node;
  const xc = node['x-clause'] ?? target['x-clause'];
  for (const k of KEYWORDS) {
    const bound = target[k];
    if (typeof bound !== 'number') continue;
    const clause = typeof xc === 'string' ? xc : (xc as Record<string, string> | undefined)?.[k];
    if (!clause) throw new Error(`limitsOf: ${path.join('.')} ${k} has no x-clause`);
    out.push({ path, keyword: k, bound, clause });
  }
  const props = target['properties'] as Record<string, Node> | undefined;
  if (props) for (const [name, sub] of Object.entries(props)) if (!('not' in sub)) walk(sub, [...path, name], out);
  const items = target['items'] as Node | undefined;
  if (items) walk(items, [...path, '*'], out);
}

function schemaByFile(file: string): Node {
  const t = typeNames.find((n) => TYPES[n].file === file);
  if (!t) throw new Error(`limitsOf: no schema for ${file}`);
  return schemaOf(t);
}

const isObj = (v: unknown): v is UpdateBody => typeof v === 'object' && v !== null && !Array.isArray(v);
