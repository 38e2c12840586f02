// Compiles the spec §2 schemas (ajv 2020-12, strict), each type on its first validation, and
// reports every validation error as the catalogue clause it breaks.
//
// Clause lookup: each constraint's subschema carries `x-clause`, either one id
// for all its keywords or a map keyword → id. Where the failing subschema has no
// mapping for the keyword (shared types such as SigningAlgorithm, whose clause
// differs between request and response), the id comes from the deepest schema
// node along the error's instance path that has one — i.e. the referencing
// property. A type's `defaultClause` is the last resort for standalone use.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import type addFormatsModule from 'ajv-formats';

export const SCHEMA_BASE = 'https://idm-conformance.local/schemas/';

/** Every §2 type, with its file and the clause used when nothing more specific applies. */
export const TYPES = {
  ResourceServer: { file: 'resource-server.json', defaultClause: 'rs.response.object' },
  ResourceServerUpdate: { file: 'resource-server-update.json', defaultClause: 'rs.update.body.object' },
  Scope: { file: 'scope.json', defaultClause: 'rs.update.scopes.type' },
  SigningAlgorithm: { file: 'signing-algorithm.json', defaultClause: 'rs.update.signing_alg.enum' },
  TokenDialect: { file: 'token-dialect.json', defaultClause: 'rs.update.token_dialect.enum' },
  TokenEncryption: { file: 'token-encryption.json', defaultClause: 'rs.update.token_encryption.type' },
  EncryptionKey: { file: 'encryption-key.json', defaultClause: 'rs.token_encryption.encryption_key.type' },
  ConsentPolicy: { file: 'consent-policy.json', defaultClause: 'rs.update.consent_policy.enum' },
  ProofOfPossession: { file: 'proof-of-possession.json', defaultClause: 'rs.update.proof_of_possession.type' },
  SubjectTypeAuthorization: {
    file: 'subject-type-authorization.json',
    defaultClause: 'rs.update.subject_type_authorization.type',
  },
  AuthorizationPolicy: { file: 'authorization-policy.json', defaultClause: 'rs.update.authorization_policy.type' },
  Allocation: { file: 'allocation.json', defaultClause: 'exp.create.allocation.types' },
  ExperimentCreate: { file: 'experiment-create.json', defaultClause: 'exp.create.types' },
  Experiment: { file: 'experiment.json', defaultClause: 'exp.response.types' },
  AllocationStrategy: { file: 'allocation-strategy.json', defaultClause: 'exp.create.strategy.enum' },
  AuthError: { file: 'auth-error.json', defaultClause: 'auth.error.object' },
  TokenResponse: { file: 'token-response.json', defaultClause: 'auth.token.answer' },
} as const;

export type TypeName = keyof typeof TYPES;
export const typeNames = Object.keys(TYPES) as TypeName[];

export interface ClauseError {
  clause: string;
  instancePath: string;
  keyword: string;
  message: string;
  schemaPath: string;
}

export interface ValidationResult {
  valid: boolean;
  errors: ClauseError[];
  /** Distinct clause ids of `errors`, in order of first appearance. */
  clauses: string[];
}

type SchemaNode = { [k: string]: unknown };
type XClause = string | Record<string, string>;

const schemaDir = fileURLToPath(new URL('.', import.meta.url));

/** Raw schema documents by file name (for the OpenAPI assembly and self-tests). */
export function loadSchemaFiles(): Record<string, SchemaNode> {
  const out: Record<string, SchemaNode> = {};
  for (const { file } of Object.values(TYPES)) {
    out[file] = JSON.parse(readFileSync(schemaDir + file, 'utf8')) as SchemaNode;
  }
  return out;
}

const files = loadSchemaFiles();

let ajv: Ajv2020 | null = null;
const compiled = new Map<TypeName, ValidateFunction>();

/**
 * ajv with the §2 schemas added. `metaCheck`: each schema is first validated against the JSON
 * Schema 2020-12 meta-schema — the self-test's check (selftest/contract-schemas.spec.ts), not
 * every worker's: compiling the meta-schema cost each of them about 0.1 s of CPU.
 */
export function buildValidator(o: { metaCheck: boolean }): Ajv2020 {
  const load = createRequire(import.meta.url);
  const { Ajv2020: Ajv } = load('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  // ajv-formats ships CommonJS: its module object is the function.
  const addFormats = load('ajv-formats') as typeof addFormatsModule.default;
  const built = new Ajv({
    strict: true,
    allErrors: true,
    // parentSchema on each error lets us read the failing subschema's x-clause.
    verbose: true,
    // TokenEncryption & co. are "object or null": one schema, no anyOf noise in errors.
    allowUnionTypes: true,
    validateSchema: o.metaCheck,
  });
  // full mode: iso-date-time checks calendar validity, not only the shape.
  addFormats(built, { mode: 'full', formats: ['iso-date-time'] });
  built.addKeyword({
    keyword: 'x-clause',
    metaSchema: {
      anyOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: 'string' } }],
    },
  });
  for (const schema of Object.values(files)) built.addSchema(schema);
  return built;
}

/**
 * ajv, loaded and given the schemas on the first validation. Every process that loads the specs
 * imports this module (Playwright's runner lists the tests, each worker runs them): building the
 * validator at import cost each of them about 0.3 s of CPU, and the runner never validates.
 */
function validator(): Ajv2020 {
  ajv ??= buildValidator({ metaCheck: false });
  return ajv;
}

/** A type's validate function, compiled on first use. */
function compiledType(typeName: TypeName): ValidateFunction {
  let fn = compiled.get(typeName);
  if (!fn) {
    if (!(typeName in TYPES)) throw new Error(`schemas.validate: unknown type ${String(typeName)}`);
    fn = validator().getSchema(SCHEMA_BASE + TYPES[typeName].file);
    if (!fn) throw new Error(`schemas: ${TYPES[typeName].file} did not compile`);
    compiled.set(typeName, fn);
  }
  return fn;
}

/** Validates `data` as the §2 type `typeName`; every error names its clause. */
export function validate(typeName: TypeName, data: unknown): ValidationResult {
  const fn = compiledType(typeName);
  const valid = fn(data) as boolean;
  const errors = valid ? [] : (fn.errors ?? []).map((e) => toClauseError(typeName, e));
  return { valid, errors, clauses: [...new Set(errors.map((e) => e.clause))] };
}

/** The schema document of a type (parsed JSON, do not mutate). */
export function schemaOf(typeName: TypeName): SchemaNode {
  const s = files[TYPES[typeName].file];
  if (!s) throw new Error(`schemas.schemaOf: unknown type ${String(typeName)}`);
  return s;
}

/**
 * The clause ids a type's schema names (x-clause), plus its default clause. Referenced files
 * are followed only with `followRefs`: without it, their clauses belong to the referencing
 * context (request or answer), which is what a check of one answer wants.
 */
export function clausesOfType(typeName: TypeName, opts: { followRefs?: boolean } = {}): string[] {
  const ids = new Set<string>([TYPES[typeName].defaultClause]);
  const seen = new Set<string>();
  const visitFile = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    walk(files[file]);
  };
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      node.forEach(walk);
      return;
    }
    for (const [k, v] of Object.entries(node)) {
      if (k === 'x-clause')
        for (const id of typeof v === 'string' ? [v] : Object.values(v as Record<string, string>)) ids.add(id);
      else if (k === '$ref' && typeof v === 'string') opts.followRefs && visitFile(v);
      else walk(v);
    }
  };
  visitFile(TYPES[typeName].file);
  return [...ids];
}

/**
 * The fields of an object type in schema order, with the JSON types each admits (through its
 * `$ref`). A property the schema forbids (`not: {}`, e.g. identifier in the update body) is no field.
 */
export function fieldsOf(typeName: TypeName): Array<{ name: string; types: string[] }> {
  const props = (schemaOf(typeName).properties ?? {}) as Record<string, SchemaNode>;
  return Object.entries(props)
    .filter(([, node]) => !('not' in node))
    .map(([name, node]) => ({ name, types: jsonTypes(node) }));
}

/** Every clause id any schema names (self-tests check they exist in the catalogue). */
export function clausesInSchemas(): string[] {
  return [...new Set(typeNames.flatMap((t) => clausesOfType(t)))].sort();
}

// Helpers

function jsonTypes(node: SchemaNode): string[] {
  const target = typeof node.$ref === 'string' ? (files[node.$ref] ?? {}) : node;
  const types = new Set<string>([target.type ?? []].flat() as string[]);
  if (Array.isArray(target.enum))
    for (const v of target.enum) types.add(v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  return [...types];
}

function toClauseError(typeName: TypeName, e: ErrorObject): ClauseError {
  const clause =
    clauseFor(e.parentSchema as SchemaNode | undefined, e.keyword) ??
    clauseAlongInstancePath(typeName, e.instancePath, e.keyword) ??
    TYPES[typeName].defaultClause;
  return {
    clause,
    instancePath: e.instancePath,
    keyword: e.keyword,
    message: `${e.instancePath || '/'} ${e.message ?? e.keyword}`,
    schemaPath: e.schemaPath,
  };
}

function clauseFor(node: SchemaNode | undefined, keyword: string): string | undefined {
  const x = node?.['x-clause'] as XClause | undefined;
  if (x === undefined) return undefined;
  return typeof x === 'string' ? x : x[keyword];
}

/** Deepest x-clause (matching `keyword`) on the schema nodes the instance path runs through. */
function clauseAlongInstancePath(typeName: TypeName, instancePath: string, keyword: string): string | undefined {
  const segments = instancePath === '' ? [] : instancePath.slice(1).split('/').map(unescapePointer);
  let base = SCHEMA_BASE + TYPES[typeName].file;
  let node: SchemaNode | undefined = files[TYPES[typeName].file];
  let found: string | undefined;
  const visitNode = (): void => {
    // A node may carry x-clause next to $ref (the referencing property): read both.
    for (let hops = 0; node && hops < 8; hops++) {
      found = clauseFor(node, keyword) ?? found;
      const ref = node['$ref'];
      if (typeof ref !== 'string') break;
      base = new URL(ref, base).href;
      node = validator().getSchema(base)?.schema as SchemaNode | undefined;
    }
  };
  visitNode();
  for (const seg of segments) {
    if (!node) break;
    const props = node['properties'] as Record<string, SchemaNode> | undefined;
    if (/^\d+$/.test(seg) && node['items'] !== undefined) node = node['items'] as SchemaNode;
    else if (props?.[seg]) node = props[seg];
    else break; // an unknown member: the object's own clause (already found) applies
    visitNode();
  }
  return found;
}

function unescapePointer(s: string): string {
  return s.replace(/~1/g, '/').replace(/~0/g, '~');
}
