// The OpenAPI document: committed as assembled, valid for a third-party
// parser, carrying the spec's statuses, media types and security schemes, and
// consumable by a plain JSON Schema validator with the same verdicts as ours.
import { test, expect } from '@playwright/test';
import { validate as validateOpenApi, dereference, compileErrors } from '@readme/openapi-parser';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { buildOpenApi, openApiJson, committedOpenApi, OPENAPI_PATH } from '../contract/openapi.ts';
import { specText } from '../contract/clauses.ts';
import { validate } from '../schemas/index.ts';
import * as g from '../generators/index.ts';

type Doc = Record<string, any>;

test('contract/openapi.json is what contract/openapi.ts assembles (run `npm run openapi` after changing schemas)', () => {
  expect(committedOpenApi() === openApiJson(), `${OPENAPI_PATH} is stale`).toBe(true);
});

test('the document validates with @readme/openapi-parser', async () => {
  const result = await validateOpenApi(JSON.parse(committedOpenApi()));
  expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  expect(result.specification).toBe('OpenAPI');
});

test('the validator can fail: a broken copy is rejected', async () => {
  const broken = buildOpenApi() as Doc;
  delete broken['paths']['/resource-servers/{id}']['patch']['responses'];
  broken['components']['securitySchemes']['bearerAuth']['type'] = 'magic';
  expect((await validateOpenApi(broken as Parameters<typeof validateOpenApi>[0])).valid).toBe(false);
});

test('operations carry the spec statuses, both media types and the security schemes', () => {
  const doc = buildOpenApi() as Doc;
  const patch = doc['paths']['/resource-servers/{id}']['patch'];
  const post = doc['paths']['/experimentation/experiments']['post'];
  // Every status of the §7.1 table, plus the 201 of §4.1.
  const statuses = [...specText('7.1').matchAll(/^\| (\d{3}) \|/gm)].map((m) => m[1]);
  expect(statuses.length).toBeGreaterThanOrEqual(5);
  expect(Object.keys(patch.responses).sort()).toEqual(['201', ...statuses].sort());
  expect(patch.responses['201'].content['application/json'].schema).toEqual({
    $ref: '#/components/schemas/ResourceServer',
  });
  expect(Object.keys(patch.responses['429'].headers).sort()).toEqual([
    'X-RateLimit-Limit',
    'X-RateLimit-Remaining',
    'X-RateLimit-Reset',
  ]);
  expect(patch.parameters).toEqual([expect.objectContaining({ name: 'id', in: 'path', required: true })]);
  for (const op of [patch, post])
    expect(Object.keys(op.requestBody.content).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
    ]);
  expect(post.responses['201'].description).toMatch(/not show/);
  const schemes = doc['components']['securitySchemes'];
  expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  expect(schemes.clientCredentials.flows.clientCredentials.tokenUrl).toBe('/oauth/token');
  expect(schemes.clientCredentials.flows.clientCredentials.scopes).toHaveProperty('update:resource_servers');
  expect(schemes.clientCredentials.flows.clientCredentials.scopes).toHaveProperty('create:experimentation');
  expect(doc['servers'][0]).toMatchObject({ url: '{base_url}', variables: { base_url: expect.any(Object) } });
});

test('a third-party JSON Schema validator reads the dereferenced document with our verdicts', async () => {
  const doc = (await dereference(JSON.parse(committedOpenApi()))) as Doc;
  const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, validateFormats: false });
  const update = ajv.compile(
    doc['paths']['/resource-servers/{id}']['patch']['requestBody']['content']['application/json']['schema'],
  );
  const response = ajv.compile(
    doc['paths']['/resource-servers/{id}']['patch']['responses']['201']['content']['application/json']['schema'],
  );
  const disagreements: string[] = [];
  for (const c of g.updateViolationCases())
    if (update(c.body) !== validate('ResourceServerUpdate', c.body).valid) disagreements.push(c.id);
  for (const b of g.samples(g.updateBody(), 300, 17))
    if (!update(b)) disagreements.push(`valid body ${JSON.stringify(b).slice(0, 80)}`);
  for (const r of g.samples(g.resourceServerResponse(), 300, 17))
    if (!response(r)) disagreements.push(`valid response ${JSON.stringify(r).slice(0, 80)}`);
  expect(disagreements).toEqual([]);
});
