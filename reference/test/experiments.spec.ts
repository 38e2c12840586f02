// POST /api/v2/experimentation/experiments: §2.4, §4.2, §8, and the tenant's documented choices.
import { test, expect } from '@playwright/test';
import { tenantPerFile, type Client } from './helpers.ts';
import type { RunningTenant } from '../src/index.ts';

let t: RunningTenant;
let c: Client;
let token: string;
tenantPerFile((s) => ({ t, c, token } = s));

const s = (n: number, ch = 'a') => ch.repeat(n);
const realistic = () => ({
  name: 'New login page',
  description: 'Compare the new login page against the current one',
  feature_flag_id: 'flg_7Hq2kPzR',
  authentication_flow: 'login',
  assignment_config: { subject: 'device_type' },
  allocation_strategy: 'percentage',
  allocations: [
    { variation_id: 'var_control', weight: 50, is_control: true },
    { variation_id: 'var_treatment', weight: 50, is_control: false },
  ],
});

test('a realistic control/treatment 50/50 payload → 201 draft experiment', async () => {
  const body = realistic();
  const r = await c.createExperiment(body, token);
  expect(r.status, r.text).toBe(201);
  expect(r.body.id).toMatch(/^exp_[A-HJ-NP-Za-km-z1-9]+$/);
  expect(r.body).toMatchObject({ ...body, status: 'draft', is_valid: true });
  expect(new Date(r.body.created_at).toISOString()).toBe(r.body.created_at);
  expect(r.body.updated_at).toBe(r.body.created_at);
  expect(r.body.started_at).toBeUndefined();
  const again = await c.createExperiment(body, token);
  expect(again.body.id).not.toBe(r.body.id);
});

test('segment strategy with segment ids → 201', async () => {
  const r = await c.createExperiment(
    {
      name: 'By segment',
      feature_flag_id: 'flg_3mNbV9xQ',
      allocation_strategy: 'segment',
      allocations: [
        { variation_id: 'var_a', segment_id: 'seg_1', priority: 1, is_control: true },
        { variation_id: 'var_b', segment_id: 'seg_2', priority: 2, is_fallback: true },
      ],
    },
    token,
  );
  expect(r.status, r.text).toBe(201);
  expect(r.body.allocation_strategy).toBe('segment');
});

test('allocation_strategy defaults to percentage; a single allocation is accepted but not valid', async () => {
  const r = await c.createExperiment(
    { name: 'Solo', feature_flag_id: 'flg_7Hq2kPzR', allocations: [{ variation_id: 'var_control', weight: 100 }] },
    token,
  );
  expect(r.status, r.text).toBe(201);
  expect(r.body).toMatchObject({ allocation_strategy: 'percentage', is_valid: false });
});

const valid: Array<[string, (b: any) => void]> = [
  ['name of 3 characters', (b) => (b.name = 'abc')],
  ['name of 255 characters', (b) => (b.name = s(255))],
  ['name with inner spaces', (b) => (b.name = 'a  b')],
  ['description of 3 and 1024 characters', (b) => (b.description = s(1024))],
  [
    'no description, flow or assignment config',
    (b) => {
      delete b.description;
      delete b.authentication_flow;
      delete b.assignment_config;
    },
  ],
  [
    'weights 0 and 100',
    (b) => {
      b.allocations[0].weight = 0;
      b.allocations[1].weight = 100;
    },
  ],
];
for (const [title, change] of valid) {
  test(`${title} → 201`, async () => {
    const body = realistic();
    change(body);
    const r = await c.createExperiment(body, token);
    expect(r.status, r.text).toBe(201);
  });
}

const invalid: Array<[string, (b: any) => void]> = [
  ['name of 2 characters', (b) => (b.name = 'ab')],
  ['name of 256 characters', (b) => (b.name = s(256))],
  ['name with a leading space', (b) => (b.name = ' abc')],
  ['name with a trailing space', (b) => (b.name = 'abc ')],
  ['name with a NUL', (b) => (b.name = 'ab\u0000c')],
  ['name as a number', (b) => (b.name = 123)],
  ['description of 2 characters', (b) => (b.description = 'ab')],
  ['description of 1025 characters', (b) => (b.description = s(1025))],
  ['description with a trailing newline', (b) => (b.description = 'abcd\n')],
  ['feature_flag_id with a forbidden character', (b) => (b.feature_flag_id = 'flg_0OIl')],
  ['feature_flag_id without the prefix', (b) => (b.feature_flag_id = '7Hq2kPzR')],
  ['allocation_strategy outside the enum', (b) => (b.allocation_strategy = 'random')],
  ['allocation_strategy in the wrong case', (b) => (b.allocation_strategy = 'Percentage')],
  ['allocation_strategy empty', (b) => (b.allocation_strategy = '')],
  ['allocation_strategy as a number', (b) => (b.allocation_strategy = 1)],
  ['allocation_strategy null', (b) => (b.allocation_strategy = null)],
  ['authentication_flow as a number', (b) => (b.authentication_flow = 1)],
  ['assignment_config without subject', (b) => (b.assignment_config = {})],
  ['assignment_config with an unknown member', (b) => (b.assignment_config = { subject: 'x', other: 1 })],
  ['assignment_config a string', (b) => (b.assignment_config = 'device_type')],
  ['no allocations', (b) => (b.allocations = [])],
  ['allocations not an array', (b) => (b.allocations = {})],
  ['missing name', (b) => delete b.name],
  ['missing feature_flag_id', (b) => delete b.feature_flag_id],
  ['missing allocations', (b) => delete b.allocations],
  ['unknown top-level member', (b) => (b.owner = 'me')],
  ['response-only status', (b) => (b.status = 'draft')],
  ['response-only id', (b) => (b.id = 'exp_abc')],
  ['allocation with an unknown member', (b) => (b.allocations[0].colour = 'red')],
  ['allocation without variation_id', (b) => delete b.allocations[0].variation_id],
  ['allocation a string', (b) => (b.allocations[0] = 'var_control')],
  ['weight as a string', (b) => (b.allocations[0].weight = '50')],
  [
    'weight fractional',
    (b) => {
      b.allocations[0].weight = 50.5;
      b.allocations[1].weight = 49.5;
    },
  ],
  [
    'weight negative',
    (b) => {
      b.allocations[0].weight = -10;
      b.allocations[1].weight = 110;
    },
  ],
  ['weights not summing to 100', (b) => (b.allocations[1].weight = 40)],
  ['weight missing under percentage', (b) => delete b.allocations[1].weight],
  ['variation not in the flag', (b) => (b.allocations[1].variation_id = 'var_other')],
  ['same variation twice under percentage', (b) => (b.allocations[1].variation_id = 'var_control')],
  ['two controls', (b) => (b.allocations[1].is_control = true)],
  ['is_control as a string', (b) => (b.allocations[0].is_control = 'true')],
  ['segment strategy without segment ids', (b) => (b.allocation_strategy = 'segment')],
];
for (const [title, change] of invalid) {
  test(`${title} → 400`, async () => {
    const body = realistic();
    change(body);
    const r = await c.createExperiment(body, token);
    expect(r.status, r.text).toBe(400);
    expect(r.body).toMatchObject({ statusCode: 400, errorCode: 'invalid_body' });
  });
}

test('unknown feature flag → 404', async () => {
  const body = { ...realistic(), feature_flag_id: 'flg_Unknown1' };
  const r = await c.createExperiment(body, token);
  expect(r.status).toBe(404);
  expect(r.body.errorCode).toBe('inexistent_feature_flag');
});

test('form body: flat strings, allocations as JSON text', async () => {
  const b = realistic();
  const form = new URLSearchParams({
    name: b.name,
    feature_flag_id: b.feature_flag_id,
    allocation_strategy: 'percentage',
    allocations: JSON.stringify(b.allocations),
    assignment_config: JSON.stringify(b.assignment_config),
  }).toString();
  const r = await c.send('POST', '/api/v2/experimentation/experiments', {
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  expect(r.status, r.text).toBe(201);
  expect(r.body.allocations).toEqual(b.allocations);
});
