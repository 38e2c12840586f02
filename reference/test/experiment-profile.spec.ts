// The experiment profile (TenantOptions.experiments), where the spec shows nothing: unique names
// answer a repeat with 409, and DELETE /experimentation/experiments/{id} removes one. Without it
// the tenant is the spec's alone: a name may repeat, and no such route exists.
import { test, expect } from '@playwright/test';
import { LIMITED, tenant, type Client } from './helpers.ts';

const body = (name: string) => ({
  name,
  feature_flag_id: 'flg_7Hq2kPzR',
  allocations: [
    { variation_id: 'var_control', weight: 50, is_control: true },
    { variation_id: 'var_treatment', weight: 50 },
  ],
});

const remove = (c: Client, id: string, token: string) =>
  c.send('DELETE', `/api/v2/experimentation/experiments/${encodeURIComponent(id)}`, {
    headers: { authorization: `Bearer ${token}` },
  });

test('default: a name may repeat, and there is no DELETE route (404)', async () => {
  const { t, c } = await tenant();
  try {
    const token = await c.accessToken();
    const first = await c.createExperiment(body('Twice'), token);
    expect(first.status, first.text).toBe(201);
    expect((await c.createExperiment(body('Twice'), token)).status).toBe(201);
    expect((await remove(c, first.body.id as string, token)).status).toBe(404);
  } finally {
    await t.close();
  }
});

test('unique names and DELETE: a repeat → 409; DELETE → 204, then 404; the name is free again', async () => {
  const { t, c } = await tenant({ experiments: { uniqueNames: true, deletable: true } });
  try {
    const token = await c.accessToken();
    const first = await c.createExperiment(body('Once'), token);
    expect(first.status, first.text).toBe(201);
    const again = await c.createExperiment(body('Once'), token);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('An experiment with this name already exists');
    // Validation comes first: an invalid body with a taken name is refused for what is invalid.
    expect((await c.createExperiment({ ...body('Once'), allocations: [] }, token)).status).toBe(400);
    const id = first.body.id as string;
    expect((await remove(c, id, await c.accessToken(LIMITED))).status).toBe(403);
    const gone = await remove(c, id, token);
    expect(gone.status, gone.text).toBe(204);
    expect(gone.text).toBe('');
    expect((await remove(c, id, token)).status).toBe(404);
    expect((await c.createExperiment(body('Once'), token)).status).toBe(201);
    const other = await c.send('GET', `/api/v2/experimentation/experiments/${id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(other.status).toBe(405);
  } finally {
    await t.close();
  }
});
