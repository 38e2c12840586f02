// The one place the runtime calls schemas/index.ts: validate(typeName, data) with errors
// mapped to clause ids. Normalised here so checks see { clause, path, message }.
export interface SchemaError {
  clause: string | null;
  path: string;
  message: string;
}

type Validate = (typeName: string, data: unknown) => unknown;
let validateFn: Validate | null = null;

async function load(): Promise<Validate> {
  if (validateFn) return validateFn;
  const mod = (await import(new URL('../schemas/index.ts', import.meta.url).href)) as { validate?: Validate };
  if (typeof mod.validate !== 'function') throw new Error('schemas/index.ts exports no validate(typeName, data)');
  validateFn = mod.validate;
  return validateFn;
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
