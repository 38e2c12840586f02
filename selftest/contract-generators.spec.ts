// The generators reach what the contract issue asks for: every optional field,
// null where allowed, each limit at its edge, multi-byte and astral text, a
// realistic experiment payload, reproducibility from a seed, leak probes.
import { test, expect } from '@playwright/test';
import fc from 'fast-check';
import * as g from '../generators/index.ts';
import { readFileSync } from 'node:fs';
import { fieldsOf, validate } from '../schemas/index.ts';
import { UPDATE_CASES_FILE, updateCaseText } from '../generators/cases.ts';
import { edgeValue, limitsOf, placeAt } from '../generators/limits.ts';

const EXP: g.ExperimentOptions = {
  featureFlagId: 'flg_7Hq2kPzR',
  variationIds: ['var_control', 'var_treatment'],
  runTag: 'idm-run-7f3k',
};
// The §2.2 fields from the update schema (held to the spec's table in contract-schemas.spec.ts).
const UPDATE_FIELDS = fieldsOf('ResourceServerUpdate').map((f) => f.name);
const NULLABLE = fieldsOf('ResourceServerUpdate')
  .filter((f) => f.types.includes('null'))
  .map((f) => f.name);

test('the same seed gives the same samples; another seed gives others', () => {
  const a = g.samples(g.updateBody(), 50, 1234);
  expect(g.samples(g.updateBody(), 50, 1234)).toEqual(a);
  expect(g.samples(g.updateBody(), 50, 4321)).not.toEqual(a);
  expect(g.samples(g.updateViolation(), 50, 99)).toEqual(g.samples(g.updateViolation(), 50, 99));
});

test('the case lists are data: identical on every call, ids unique', () => {
  const cases = g.violationCases({ experimentBase: g.experimentPayload(EXP) });
  expect(JSON.stringify(g.violationCases({ experimentBase: g.experimentPayload(EXP) }))).toBe(JSON.stringify(cases));
  expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
  const bounds = g.boundaryCases({ experiment: EXP });
  expect(new Set(bounds.map((b) => b.id)).size).toBe(bounds.length);
});

test('valid update bodies cover every field, null where allowed, {} and the full body', () => {
  const bodies = g.samples(g.updateBody(), 2000, 7);
  const seen = new Set(bodies.flatMap((b) => Object.keys(b)));
  expect([...seen].sort()).toEqual([...UPDATE_FIELDS].sort());
  for (const f of NULLABLE)
    expect(
      bodies.some((b) => b[f] === null),
      `${f}: null`,
    ).toBe(true);
  for (const f of NULLABLE)
    expect(
      bodies.some((b) => b[f] !== null && b[f] !== undefined),
      `${f}: a value`,
    ).toBe(true);
  expect(
    bodies.some((b) => Object.keys(b).length === 0),
    'an empty body',
  ).toBe(true);
  expect(g.samples(g.fullUpdateBody(), 50, 7).filter((b) => Object.keys(b).length !== UPDATE_FIELDS.length)).toEqual(
    [],
  );
  expect(
    g
      .samples(g.updateBody({ addOns: false, earlyAccess: false }), 500, 7)
      .some((b) => b['signing_alg'] === 'PS256' || 'authorization_policy' in b),
  ).toBe(false);
});

test('valid samples reach every limit at its edge', () => {
  const bodies = g.samples(g.fullUpdateBody(), 3000, 11);
  const lengths = (pick: (b: g.UpdateBody) => unknown[]) =>
    new Set(
      bodies
        .flatMap(pick)
        .filter((v): v is string => typeof v === 'string')
        .map(g.cpLength),
    );
  const obj = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as g.UpdateBody) : {});
  const key = (b: g.UpdateBody) => obj(obj(b['token_encryption'])['encryption_key']);
  const scopes = (b: g.UpdateBody) => (Array.isArray(b['scopes']) ? (b['scopes'] as g.UpdateBody[]) : []);
  const edges: Array<[string, Set<number>, number[]]> = [
    ['name', lengths((b) => [b['name']]), [1, 200]],
    ['scope value', lengths((b) => scopes(b).map((s) => s['value'])), [1, 280]],
    ['scope description', lengths((b) => scopes(b).map((s) => s['description'])), [500]],
    ['signing_secret', lengths((b) => [b['signing_secret']]), [16]],
    ['encryption key name', lengths((b) => [key(b)['name']]), [1, 128]],
    ['encryption key kid', lengths((b) => [key(b)['kid']]), [1, 128]],
    ['pem', lengths((b) => [key(b)['pem']]), [4096]],
    ['policy_id', lengths((b) => [obj(b['authorization_policy'])['policy_id']]), [1, 1024]],
  ];
  for (const [what, seen, want] of edges)
    for (const n of want) expect(seen.has(n), `${what} of length ${n}`).toBe(true);
  const lifetimes = new Set(bodies.map((b) => b['token_lifetime']));
  expect(lifetimes.has(0) && lifetimes.has(g.TOKEN_LIFETIME_MAX)).toBe(true);
  const all = JSON.stringify(bodies);
  expect(
    g.MULTIBYTE.some((c) => all.includes(c)),
    'multi-byte characters',
  ).toBe(true);
  expect(
    g.ASTRAL.some((c) => all.includes(c)),
    'astral characters',
  ).toBe(true);
});

test('valid text never lets another way of counting exceed a limit', () => {
  // Plain predicates inside the property: Playwright's expect is too costly per sample.
  fc.assert(
    fc.property(
      fc
        .integer({ min: 1, max: 300 })
        .chain((max) => g.text({ min: 1, max, trimmed: true }).map((s) => [s, max] as const)),
      ([s, max]) =>
        s.length <= max && // UTF-16 units
        // biome-ignore lint/suspicious/noMisleadingCharacterClass: the class lists combining marks and joiners on purpose
        !/[\u0300-\u036f\u200d\ufe0f<>\u0000-\u001f]/u.test(s) && // no combining marks, joiners, selectors, controls
        /^\S(.*\S)?$/u.test(s),
    ),
    { numRuns: 1000, seed: 5 },
  );
});

test('experiment payloads are what a real tenant accepts: control + treatment, weights sum to 100, every field, run tag', () => {
  const problems: string[] = [];
  const fields = [...fieldsOf('ExperimentCreate').map((f) => f.name), 'allocation_strategy'];
  for (const p of [g.experimentPayload(EXP), ...g.samples(g.experimentPayloadArb(EXP), 500, 3)]) {
    const allocations = p['allocations'] as g.UpdateBody[];
    const issues = [
      ...validate('ExperimentCreate', p).errors.map((e) => e.message),
      ...fields.filter((f) => !(f in p)).map((f) => `no ${f}`),
      String(p['name']).startsWith(EXP.runTag) ? '' : 'name lacks the run tag',
      JSON.stringify(allocations.map((a) => a['variation_id'])) === JSON.stringify(EXP.variationIds)
        ? ''
        : 'variations',
      allocations.filter((a) => a['is_control'] === true).length === 1 ? '' : 'not exactly one control',
      allocations.reduce((s, a) => s + Number(a['weight']), 0) === 100 ? '' : 'weights do not sum to 100',
    ].filter(Boolean);
    if (issues.length) problems.push(`${JSON.stringify(p).slice(0, 120)}: ${issues.join(', ')}`);
  }
  expect(problems).toEqual([]);
  expect(g.experimentPayload({ ...EXP, strategyField: 'traffic_strategy' })).toHaveProperty(
    'traffic_strategy',
    'percentage',
  );
  const segment = g.segmentExperimentPayload(
    g.experimentPayload({ ...EXP, strategyField: 'traffic_strategy' }),
    ['seg_a'],
    'traffic_strategy',
  );
  expect(segment).toHaveProperty('traffic_strategy', 'segment');
  expect((segment['allocations'] as Array<Record<string, unknown>>).map((a) => a['segment_id'])).toEqual([
    'seg_a',
    'seg_a',
  ]);
  expect(
    g
      .strategyViolationCases(g.experimentPayload(EXP), 'traffic_strategy')
      .every((c) => 'traffic_strategy' in (c.body as object)),
  ).toBe(true);
  expect(() => g.experimentPayload({ ...EXP, runTag: ' padded ' })).toThrow(/runTag/);
  expect(() => g.experimentPayload({ ...EXP, variationIds: ['only-one'] })).toThrow(/variationIds/);
});

test('experiment names and descriptions at exact lengths keep the run tag where it fits', () => {
  for (const n of [3, 2, 255, 256]) {
    const p = g.experimentWithNameLength(EXP, n);
    expect(g.cpLength(String(p['name']))).toBe(n);
    expect(`${p['name']} ${p['description']}`).toContain(EXP.runTag);
  }
  for (const n of [2, 3, 1024, 1025])
    expect(g.cpLength(String(g.experimentWithDescriptionLength(EXP, n)['description']))).toBe(n);
});

test('experiment length edges go two to a body: every edge once, its exact length, the run tag in each body', () => {
  const bundles = g.experimentEdgeBundles(EXP);
  const edges = g.experimentBoundaryCases(EXP).filter((c) => c.expect === 'accept');
  expect(bundles.flatMap((b) => b.cases.map((c) => c.id)).sort()).toEqual(edges.map((c) => c.id).sort());
  expect(bundles.length).toBeLessThan(edges.length);
  for (const b of bundles) {
    expect(`${b.body['name']} ${b.body['description']}`).toContain(EXP.runTag);
    for (const c of b.cases) {
      const field = c.at!.path[0]!;
      expect(g.cpLength(String(b.body[field]))).toBe(g.cpLength(String(c.at!.value)));
    }
    expect(validate('ExperimentCreate', b.body).errors, JSON.stringify(b.cases.map((c) => c.id))).toEqual([]);
  }
});

test('with a serial, every experiment payload is named by its own stamp, each length edge and generated case too', () => {
  let n = 0;
  const opts: g.ExperimentOptions = { ...EXP, serial: () => (n++).toString(36).padStart(g.SERIAL_WIDTH, '0') };
  const bodies = [
    g.experimentPayload(opts),
    g.experimentPayload(opts),
    ...g.samples(g.experimentPayloadArb(opts), 200, 11),
    ...g.experimentEdgeBundles(opts).map((b) => b.body),
    ...[3, 255].map((len) => g.experimentWithNameLength(opts, len)),
  ];
  const names = bodies.map((b) => String(b['name']));
  expect(new Set(names).size).toBe(names.length);
  for (const b of bodies) {
    expect(validate('ExperimentCreate', b).errors).toEqual([]);
    expect(`${b['name']} ${b['description']}`).toMatch(new RegExp(`${EXP.runTag}\\.[0-9a-z]{${g.SERIAL_WIDTH}}`));
  }
  expect(g.cpLength(String(g.experimentWithNameLength(opts, 3)['name']))).toBe(3);
  expect(() => g.experimentPayload({ ...EXP, serial: () => 'x' })).toThrow(/serial/);
});

test('pem values are a real public key at any length up to the limit', async () => {
  const { createPublicKey } = await import('node:crypto');
  for (const n of [g.PUBLIC_KEY_PEM.length, g.PUBLIC_KEY_PEM.length + 1, g.PUBLIC_KEY_PEM.length + 2, 4096]) {
    const pem = g.pemOfLength(n);
    expect(pem.length).toBe(n);
    expect(createPublicKey(pem).asymmetricKeyType).toBe('rsa');
  }
  expect(g.PUBLIC_KEY_PEM).toContain('\r\n');
});

test('violation cases cover every mutation kind the contract issue lists', () => {
  const cases = g.violationCases({ experimentBase: g.experimentPayload(EXP) });
  const ids = cases.map((c) => c.id);
  const has = (re: RegExp) =>
    expect(
      ids.some((id) => re.test(id)),
      String(re),
    ).toBe(true);
  [
    /too-long/,
    /less-than/,
    /greater-than/,
    /leading-space/,
    /trailing-space/,
    /\.nul$/,
    /feature_flag_id\.zero/,
    /feature_flag_id\.capital-o/,
    /feature_flag_id\.capital-i/,
    /feature_flag_id\.lower-l/,
    /outsider/,
    /\.number$/,
    /\.null$/,
    /unknown-key/,
    /identifier\.present/,
    /\.missing$/,
    /allocations\.too-few/,
    /token_lifetime\.fraction/,
  ].forEach(has);
  // An unknown key at every closed object level.
  for (const level of [
    'top',
    'scope',
    'token_encryption',
    'encryption_key',
    'proof_of_possession',
    'subject_type_authorization',
    'authorization_policy',
  ]) {
    expect(
      ids.some((id) => id.startsWith(`update/${level}.unknown-key`)),
      level,
    ).toBe(true);
  }
  // One past every §8 limit.
  for (const clause of [
    'rs.update.name.max-length',
    'rs.scope.value.length',
    'rs.scope.description.max-length',
    'rs.update.signing_secret.min-length',
    'rs.update.token_lifetime.range',
    'rs.encryption_key.name.length',
    'rs.encryption_key.kid.length',
    'rs.encryption_key.pem.length',
    'rs.authorization_policy.policy_id.length',
    'exp.create.name.length',
    'exp.create.description.length',
    'exp.create.allocations.min-items',
  ]) {
    expect(
      cases.some((c) => c.clause === clause),
      clause,
    ).toBe(true);
  }
});

test('probe values name the rejected write that leaked', () => {
  const cases = g.updateViolationCases({ probeTag: 'run-1' });
  expect(cases.every((c) => c.probe !== undefined)).toBe(true);
  const names = new Set(cases.map((c) => c.probe?.['name']));
  expect(names.size, 'every case has its own probe').toBe(cases.length);
  const leaked = cases[10]!;
  const state = { id: 'rs_conformance', name: leaked.probe!['name'], token_lifetime: 86400 };
  expect(g.findLeak(state, cases).map((c) => c.id)).toEqual([leaked.id]);
  expect(g.findLeak({ id: 'rs_conformance', name: 'Conformance API', token_lifetime: 86400 }, cases)).toEqual([]);
  expect(cases.filter((c) => !validate('ResourceServerUpdate', c.probe).valid).map((c) => c.id)).toEqual([]);
});

test('the checked-in case file is what the generators give (npm run cases)', () => {
  expect(
    readFileSync(UPDATE_CASES_FILE, 'utf8'),
    'contract/cases/resource-server-update.json: run `npm run cases`',
  ).toBe(updateCaseText());
});

test('every limit is taken from the schema once: the valid edge is a boundary case, one past it a violation', () => {
  const bounds = g.updateBoundaryCases();
  const violations = g.updateViolationCases();
  for (const l of limitsOf('ResourceServerUpdate')) {
    const invalid = placeAt({}, l.path, edgeValue(l, 'invalid'), g.NESTED_FALLBACKS);
    const twins = violations.filter((v) => JSON.stringify(v.body) === JSON.stringify(invalid));
    expect(
      twins.map((v) => v.clause),
      `${l.path.join('.')} ${l.keyword}`,
    ).toEqual([l.clause]);
    if (l.path.at(-1) === 'pem' && l.keyword === 'minLength') continue; // the pem content case stands in
    const valid = placeAt({}, l.path, edgeValue(l, 'valid'), g.NESTED_FALLBACKS);
    expect(bounds.filter((b) => JSON.stringify(b.body) === JSON.stringify(valid)).map((b) => b.clause)).toEqual([
      l.clause,
    ]);
  }
  // No body is sent twice: boundary and violation bodies are all distinct.
  const bodies = [...bounds, ...violations].map((c) => JSON.stringify(c.body));
  expect(bodies.length - new Set(bodies).size).toBe(0);
});

test('valid bundles are valid bodies that carry each of their cases, and no two accepted values are left apart needlessly', () => {
  const accepted = g.updateBoundaryCases().filter((c) => c.expect === 'accept');
  const bundles = g.validBundles(accepted);
  expect(bundles.flatMap((b) => b.cases.map((c) => c.id)).sort()).toEqual(accepted.map((c) => c.id).sort());
  for (const b of bundles) {
    expect(validate('ResourceServerUpdate', b.body).errors, b.cases.map((c) => c.id).join(', ')).toEqual([]);
    for (const c of b.cases) {
      const at = c.at!;
      const json = JSON.stringify(at.value);
      if (at.path.includes('*')) expect(JSON.stringify(b.body), c.id).toContain(json);
      else {
        const got = at.path.reduce<unknown>(
          (node, step) => (node as Record<string, unknown> | undefined)?.[step],
          b.body,
        );
        expect(JSON.stringify(got), c.id).toBe(json);
      }
    }
  }
  expect(bundles.length).toBeLessThanOrEqual(6);
});
