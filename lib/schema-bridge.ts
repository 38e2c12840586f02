// The one place the runtime calls schemas/index.ts: validation errors normalised to
// { clause, path, message } for the checks, and the clauses a type's schema names.
import { clausesOfType as schemaClauses, validate, TYPES, type TypeName } from '../schemas/index.ts';

export interface SchemaError {
  clause: string | null;
  path: string;
  message: string;
}

function typeName(name: string): TypeName {
  if (!(name in TYPES)) throw new Error(`schemas: unknown type ${name}`);
  return name as TypeName;
}

/** The clauses a type's own schema file names (x-clause), plus its default clause. */
export function clausesOfType(name: string): string[] {
  return schemaClauses(typeName(name));
}

export function validateAgainst(name: string, data: unknown): SchemaError[] {
  return validate(typeName(name), data).errors.map((e) => ({
    clause: e.clause,
    path: e.instancePath,
    message: e.message,
  }));
}
