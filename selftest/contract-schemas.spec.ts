// The §2 schemas against the generators: thousands of valid samples per type
// validate; every violating sample fails on exactly its labelled clause and no
// other; response-side breaks map to the response clauses.
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import {
  buildValidator,
  fieldsOf,
  loadSchemaFiles,
  SCHEMA_BASE,
  schemaOf,
  TYPES,
  typeNames,
  validate,
} from '../schemas/index.ts';
import { specText } from '../contract/clauses.ts';
import type { TypeName } from '../schemas/index.ts';
import * as g from '../generators/index.ts';
import { loadSettings } from '../lib/config/parse.ts';
import { runSettings } from '../lib/config/run.ts';

const N = runSettings().selftestSamples;
// A fixed default keeps titles and samples identical across workers and runs; IDM_SEED explores others.
const SEED = loadSettings(process.env, process.cwd(), ['IDM_SEED']).int('IDM_SEED') ?? 20261122;
const EXP: g.ExperimentOptions = {
  featureFlagId: 'flg_7Hq2kPzR',
  variationIds: ['var_control', 'var_treatment'],
  runTag: 'idm-selftest',
};

const VALID: Array<[TypeName, fc.Arbitrary<unknown>, string?]> = [
  ['ResourceServerUpdate', g.updateBody(), 'any subset of fields'],
  ['ResourceServerUpdate', g.fullUpdateBody(), 'every field'],
  ['ResourceServer', g.resourceServerResponse()],
  ['Scope', g.scope()],
  ['SigningAlgorithm', fc.constantFrom(...g.SIGNING_ALGS)],
  ['TokenDialect', fc.constantFrom(...g.TOKEN_DIALECTS)],
  ['TokenEncryption', fc.option(g.tokenEncryption(), { nil: null })],
  ['EncryptionKey', g.encryptionKey()],
  ['ConsentPolicy', fc.constantFrom('transactional-authorization-with-mfa', null)],
  ['ProofOfPossession', fc.option(g.proofOfPossession(), { nil: null })],
  ['SubjectTypeAuthorization', g.subjectTypeAuthorization()],
  ['AuthorizationPolicy', fc.option(g.authorizationPolicy(), { nil: null })],
  ['Allocation', g.experimentPayloadArb(EXP).chain((p) => fc.constantFrom(...(p['allocations'] as unknown[])))],
  ['ExperimentCreate', g.experimentPayloadArb(EXP)],
  ['Experiment', g.experimentResponse(EXP)],
  ['AllocationStrategy', fc.constantFrom('percentage', 'segment')],
  ['AuthError', fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }))],
  [
    'TokenResponse',
    fc.record(
      {
        access_token: fc.string({ minLength: 1 }),
        token_type: fc.constantFrom('Bearer', 'bearer', 'DPoP'),
        expires_in: fc.nat(),
        scope: fc.string(),
        id_token: fc.string(),
      },
      { requiredKeys: ['access_token', 'token_type'] },
    ),
  ],
];

test.describe('valid samples validate', () => {
  for (const [type, arb, label] of VALID) {
    const count = ['SigningAlgorithm', 'TokenDialect', 'ConsentPolicy', 'AllocationStrategy'].includes(type) ? 50 : N;
    test(`${count} valid ${type} samples${label ? ` (${label})` : ''} validate`, () => {
      const started = performance.now();
      fc.assert(
        fc.property(arb, (v) => {
          const r = validate(type, v);
          if (!r.valid)
            throw new Error(`${type} sample rejected: ${r.errors.map((e) => `${e.clause} ${e.message}`).join('; ')}`);
        }),
        { numRuns: count, seed: SEED },
      );
      note(
        `${type}${label ? ` (${label})` : ''}: ${count} samples, seed ${SEED}, in ${((performance.now() - started) / 1000).toFixed(2)} s`,
      );
    });
  }
  test('every type has a valid-sample generator', () => {
    expect(new Set(VALID.map(([t]) => t))).toEqual(new Set(typeNames));
  });
});

test.describe('violations fail on exactly their clause', () => {
  const cases = g.violationCases({ experimentBase: g.experimentPayload(EXP), probeTag: 'selftest' });
  for (const c of cases) {
    test(`${c.id} breaks ${c.clause} only`, () => {
      const r = validate(c.target === 'update' ? 'ResourceServerUpdate' : 'ExperimentCreate', c.body);
      expect(r.valid, c.description).toBe(false);
      expect(r.clauses, c.description).toEqual([c.clause]);
    });
  }

  // Strategy values outside the enum: the body stays a valid ExperimentCreate (the field's
  // name is not in that schema), the value alone breaks the enum, under any configured name.
  for (const field of [undefined, 'traffic_strategy'] as const) {
    for (const c of g.strategyViolationCases(
      g.experimentPayload({ ...EXP, ...(field ? { strategyField: field } : {}) }),
      field,
    )) {
      test(`${c.id}${field ? ` under ${field}` : ''} breaks ${c.clause} only`, () => {
        const body = c.body as Record<string, unknown>;
        expect(validate('ExperimentCreate', body).errors, c.description).toEqual([]);
        const r = validate('AllocationStrategy', body[field ?? g.DEFAULT_STRATEGY_FIELD]);
        expect(r.valid, c.description).toBe(false);
        expect(r.clauses, c.description).toEqual([c.clause]);
      });
    }
  }

  for (const [name, arb, type] of [
    ['update', g.updateViolation(), 'ResourceServerUpdate'],
    ['experiment', g.experimentViolation(EXP), 'ExperimentCreate'],
  ] as const) {
    test(`${N} random ${name} violations each break exactly their clause`, () => {
      const started = performance.now();
      fc.assert(
        fc.property(arb, (c) => {
          const r = validate(type, c.body);
          if (r.valid || r.clauses.length !== 1 || r.clauses[0] !== c.clause) {
            throw new Error(`${c.id}: expected [${c.clause}], validator said [${r.clauses.join(', ')}]`);
          }
        }),
        { numRuns: N, seed: SEED },
      );
      note(`${name} violations: ${N} samples, seed ${SEED}, in ${((performance.now() - started) / 1000).toFixed(2)} s`);
    });
  }
});

test.describe('boundary cases sit on the side they claim', () => {
  for (const b of g.boundaryCases({ experiment: EXP })) {
    test(`${b.id} (${b.side}, ${b.expect})`, () => {
      const r = validate(b.target === 'update' ? 'ResourceServerUpdate' : 'ExperimentCreate', b.body);
      if (b.side === 'valid') expect(r.errors, b.description).toEqual([]);
      else expect(r.clauses, b.description).toEqual([b.clause]);
    });
  }
});

// Response-side breaks, as data (the mutation harness fakes these in a tenant).
const RS = {
  id: 'rs_conformance',
  name: 'Conformance API',
  identifier: 'https://api.conformance.test/',
  is_system: false,
  token_lifetime: 3600,
  token_lifetime_for_web: 600,
};
const EXPERIMENT = {
  id: 'exp_7Hq2kPzR',
  is_valid: true,
  created_at: '2026-11-22T03:00:00Z',
  updated_at: '2026-11-22T03:00:00.123Z',
  status: 'draft',
};
const RESPONSE_BREAKS: Array<{ description: string; type: TypeName; data: unknown; clause: string }> = [
  {
    description: 'an extra field',
    type: 'ResourceServer',
    data: { ...RS, audience: 'x' },
    clause: 'rs.response.closed',
  },
  { description: 'no id', type: 'ResourceServer', data: { name: 'x' }, clause: 'rs.response.id.present' },
  { description: 'not an object', type: 'ResourceServer', data: [RS], clause: 'rs.response.object' },
  {
    description: 'is_system as a string',
    type: 'ResourceServer',
    data: { ...RS, is_system: 'false' },
    clause: 'rs.response.types',
  },
  {
    description: 'token_lifetime as a string',
    type: 'ResourceServer',
    data: { ...RS, token_lifetime: '3600' },
    clause: 'rs.response.types',
  },
  {
    description: 'name with <',
    type: 'ResourceServer',
    data: { ...RS, name: '<x>' },
    clause: 'rs.response.name.pattern',
  },
  {
    description: 'signing_alg outsider',
    type: 'ResourceServer',
    data: { ...RS, signing_alg: 'none' },
    clause: 'rs.response.signing_alg.enum',
  },
  {
    description: 'signing_secret of 15',
    type: 'ResourceServer',
    data: { ...RS, signing_secret: 'x'.repeat(15) },
    clause: 'rs.response.signing_secret.min-length',
  },
  {
    description: 'token_dialect outsider',
    type: 'ResourceServer',
    data: { ...RS, token_dialect: 'jwt' },
    clause: 'rs.response.token_dialect.enum',
  },
  {
    description: 'token_encryption as a string',
    type: 'ResourceServer',
    data: { ...RS, token_encryption: 'x' },
    clause: 'rs.response.token_encryption.shape',
  },
  {
    description: 'consent_policy outsider',
    type: 'ResourceServer',
    data: { ...RS, consent_policy: 'always' },
    clause: 'rs.response.consent_policy.enum',
  },
  {
    description: 'authorization_details as an object',
    type: 'ResourceServer',
    data: { ...RS, authorization_details: {} },
    clause: 'rs.response.authorization_details.type',
  },
  {
    description: 'proof_of_possession as a string',
    type: 'ResourceServer',
    data: { ...RS, proof_of_possession: 'dpop' },
    clause: 'rs.response.proof_of_possession.shape',
  },
  {
    description: 'subject_type_authorization null',
    type: 'ResourceServer',
    data: { ...RS, subject_type_authorization: null },
    clause: 'rs.response.subject_type_authorization.shape',
  },
  {
    description: 'authorization_policy as a string',
    type: 'ResourceServer',
    data: { ...RS, authorization_policy: 'p' },
    clause: 'rs.response.authorization_policy.shape',
  },
  {
    description: 'scopes as an object',
    type: 'ResourceServer',
    data: { ...RS, scopes: {} },
    clause: 'rs.response.scopes.items',
  },
  {
    description: 'a scope of 281 characters',
    type: 'ResourceServer',
    data: { ...RS, scopes: [{ value: 'x'.repeat(281) }] },
    clause: 'rs.scope.value.length',
  },
  {
    description: 'no is_valid',
    type: 'Experiment',
    data: { ...EXPERIMENT, is_valid: undefined },
    clause: 'exp.response.required-fields',
  },
  {
    description: 'is_valid as a string',
    type: 'Experiment',
    data: { ...EXPERIMENT, is_valid: 'true' },
    clause: 'exp.response.is_valid.type',
  },
  {
    description: 'id with 0',
    type: 'Experiment',
    data: { ...EXPERIMENT, id: 'exp_0abc' },
    clause: 'exp.response.id.pattern',
  },
  {
    description: 'created_at not a date-time',
    type: 'Experiment',
    data: { ...EXPERIMENT, created_at: '22/11/2026' },
    clause: 'exp.response.timestamps.format',
  },
  {
    description: 'updated_at on day 32',
    type: 'Experiment',
    data: { ...EXPERIMENT, updated_at: '2026-01-32T00:00:00Z' },
    clause: 'exp.response.timestamps.format',
  },
  {
    description: 'started_at as epoch seconds',
    type: 'Experiment',
    data: { ...EXPERIMENT, started_at: '1790000000' },
    clause: 'exp.response.timestamps.format',
  },
  {
    description: 'allocations item weight as string',
    type: 'Experiment',
    data: { ...EXPERIMENT, allocations: [{ weight: '50' }] },
    clause: 'exp.response.types',
  },
  { description: 'auth error not an object', type: 'AuthError', data: 'invalid_client', clause: 'auth.error.object' },
  {
    description: 'token answer without token_type',
    type: 'TokenResponse',
    data: { access_token: 'x' },
    clause: 'auth.token.answer',
  },
  {
    description: 'token answer with a numeric access_token',
    type: 'TokenResponse',
    data: { access_token: 42, token_type: 'Bearer' },
    clause: 'auth.token.answer',
  },
];

test.describe('response breaks map to response clauses', () => {
  for (const b of RESPONSE_BREAKS) {
    test(`${b.type}: ${b.description} → ${b.clause}`, () => {
      const data = JSON.parse(JSON.stringify(b.data)) as unknown; // drops undefined members
      expect(validate(b.type, data).clauses).toEqual([b.clause]);
    });
  }
  test('the open parts of the responses stay open', () => {
    expect(
      validate('Experiment', { ...EXPERIMENT, status: 'draft', allocation_strategy: 'percentage', extra: 1 }).valid,
    ).toBe(true);
    expect(
      validate('Experiment', { ...EXPERIMENT, created_at: '2026-11-22T03:00:00' }).valid,
      'ISO 8601 without offset',
    ).toBe(true);
    expect(validate('ResourceServer', { id: 'rs_1' }).valid, 'only id is required').toBe(true);
    expect(validate('AuthError', { error: 'invalid_client', error_description: 'x', anything: 1 }).valid).toBe(true);
  });
});

test.describe('schema files are consistent', () => {
  test('every schema is valid under the JSON Schema 2020-12 meta-schema and compiles in strict mode', () => {
    // The workers' validator skips the meta-schema (schemas/index.ts): this is where it is held.
    const ajv = buildValidator({ metaCheck: true });
    for (const name of typeNames) expect(ajv.getSchema(SCHEMA_BASE + TYPES[name].file), name).toBeTruthy();
  });

  test('constraints shared by the experiment request and response are equal', () => {
    const req = schemaOf('ExperimentCreate')['properties'] as Record<string, unknown>;
    const res = schemaOf('Experiment')['properties'] as Record<string, unknown>;
    for (const field of Object.keys(req)) expect(stripClauses(res[field]), field).toEqual(stripClauses(req[field]));
  });

  test('every x-clause map names a keyword of its own subschema', () => {
    const problems: string[] = [];
    const visit = (node: unknown, path: string): void => {
      if (!node || typeof node !== 'object') return;
      if (Array.isArray(node)) {
        for (const [i, n] of node.entries()) visit(n, `${path}/${i}`);
        return;
      }
      const o = node as Record<string, unknown>;
      const x = o['x-clause'];
      if (x && typeof x === 'object')
        for (const k of Object.keys(x))
          if (!(k in o)) problems.push(`${path}: x-clause maps "${k}" but the subschema has no ${k}`);
      for (const [k, v] of Object.entries(o)) if (k !== 'x-clause') visit(v, `${path}/${k}`);
    };
    for (const [file, schema] of Object.entries(loadSchemaFiles())) visit(schema, file);
    expect(problems).toEqual([]);
  });

  test('closed exactly where the spec says "no other fields"', () => {
    const closed = Object.entries(loadSchemaFiles())
      .filter(([, s]) => s['additionalProperties'] === false)
      .map(([f]) => f)
      .sort();
    expect(closed).toEqual(
      [
        'authorization-policy.json',
        'encryption-key.json',
        'proof-of-possession.json',
        'resource-server-update.json',
        'resource-server.json',
        'scope.json',
        'subject-type-authorization.json',
        'token-encryption.json',
      ].sort(),
    );
    const sta = schemaOf('SubjectTypeAuthorization')['properties'] as Record<string, Record<string, unknown>>;
    expect(sta['user']?.['additionalProperties']).toBeUndefined();
    expect(sta['client']?.['additionalProperties']).toBeUndefined();
    expect(schemaOf('ExperimentCreate')['required'], 'required-ness of request fields is not shown').toBeUndefined();
  });
});

// Helpers

function stripClauses(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripClauses);
  if (!v || typeof v !== 'object') return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => k !== 'x-clause')
      .map(([k, x]) => [k, stripClauses(x)]),
  );
}

function note(line: string): void {
  test.info().annotations.push({ type: 'timing', description: line });
  console.log(`[contract-schemas] ${line}`);
}

test('the update schema holds exactly the fields of the §2.2 table, nullable where the table says "or null"', () => {
  // The runtime (lib/staging.ts), the generators and the mutation harness take the field list from here.
  const rows = specText('2.2')
    .split('\n')
    .map((l) => /^\| ([a-z_]+) \| ([^|]+) \|/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null && m[1] !== 'Field');
  const fields = fieldsOf('ResourceServerUpdate');
  expect(fields.map((f) => f.name)).toEqual(rows.map((m) => m[1]));
  // "or null" in the row, or in the definition of the row's type (ConsentPolicy: "string or null", §2.3)
  const section2 = specText('2');
  const nullable = rows.filter(
    ([, , type = '']) =>
      /or null/.test(type) || new RegExp(`\\*\\*${type.trim()}\\*\\*: [^\\n]*or null`).test(section2),
  );
  expect(fields.filter((f) => f.types.includes('null')).map((f) => f.name)).toEqual(nullable.map((m) => m[1]));
});
