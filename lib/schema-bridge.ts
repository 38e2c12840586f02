// The one place the runtime calls schemas/index.ts: validate(typeName, data) with errors
// mapped to clause ids. Normalised here so checks see { clause, path, message }.
export interface SchemaError {
  clause: string | null;
  path: string;
  message: string;
}

import { validate as validateType, schemaOf, TYPES, type TypeName } from '../schemas/index.ts';

type Validate = (typeName: string, data: unknown) => unknown;
let validateFn: Validate | null = null;

async function load(): Promise<Validate> {
  validateFn ??= (t, d) => validateType(t as TypeName, d);
  return validateFn;
}

const clauseCache = new Map<string, string[]>();

/**
 * The clauses a type's own schema file names (x-clause), plus its default clause. Referenced
 * files are not followed: their clauses belong to the referencing context (request or answer).
 */
export function clausesOfType(typeName: string): string[] {
  const hit = clauseCache.get(typeName);
  if (hit) return hit;
  if (!(typeName in TYPES)) throw new Error(`schemas: unknown type ${typeName}`);
  const ids = new Set<string>([TYPES[typeName as TypeName].defaultClause]);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === 'x-clause') {
        if (typeof v === 'string') ids.add(v);
        else for (const id of Object.values(v as Record<string, string>)) ids.add(id);
      } else visit(v);
    }
  };
  visit(schemaOf(typeName as TypeName));
  const out = [...ids];
  clauseCache.set(typeName, out);
  return out;
}

export async function validateAgainst(typeName: string, data: unknown): Promise<SchemaError[]> {
  const validate = await load();
  const result = validate(typeName, data) as unknown;
  const list: unknown[] = Array.isArray(result) ? result : ((result as { errors?: unknown[] } | null)?.errors ?? []);
  return list.map((e) => {
    const o = e as Record<string, unknown>;
    return {
      clause: typeof o.clause === 'string' ? o.clause : null,
      path: String(o.instancePath ?? o.path ?? ''),
      message: String(o.message ?? o.keyword ?? 'invalid'),
    };
  });
}
