// The public interface the mutation harness builds on: `parts` overrides and the `wrap` hook.
import { test, expect } from '@playwright/test';
import { tenant } from './helpers.ts';
import type { Handler, TenantRequest } from '../src/index.ts';

test('overriding one limit moves that bound (rsNameMax 10)', async () => {
  const { t, c } = await tenant({ parts: (d) => ({ limits: { ...d.limits, rsNameMax: 10 } }) });
  try {
    const token = await c.accessToken();
    expect((await c.patchJson('rs_conformance', { name: 'a'.repeat(10) }, token)).status).toBe(201);
    expect((await c.patchJson('rs_conformance', { name: 'a'.repeat(11) }, token)).status).toBe(400);
  } finally {
    await t.close();
  }
});

test('replacing one validator entry changes only that rule (rs.scope:closed)', async () => {
  const { t, c } = await tenant({ parts: (d) => ({ validators: { ...d.validators, 'rs.scope:closed': () => [] } }) });
  try {
    const token = await c.accessToken();
    expect((await c.patchJson('rs_conformance', { scopes: [{ value: 'a', extra: 1 }] }, token)).status).toBe(201);
    expect((await c.patchJson('rs_conformance', { scopes: [{ value: '' }] }, token)).status).toBe(400);
    expect((await c.patchJson('rs_conformance', { extra: 1 }, token)).status).toBe(400);
  } finally {
    await t.close();
  }
});

test('a store that drops writes makes the update non-persistent', async () => {
  const { t, c } = await tenant({ parts: (d) => ({ store: { ...d.store, saveResourceServer: () => undefined } }) });
  try {
    const token = await c.accessToken();
    expect((await c.patchJson('rs_conformance', { name: 'Lost' }, token)).body.name).toBe('Lost');
    expect((await c.patchJson('rs_conformance', {}, token)).body.name).not.toBe('Lost');
  } finally {
    await t.close();
  }
});

test('a permissive token verifier lets a garbage token through', async () => {
  const { t, c } = await tenant({
    parts: {
      verifyAccessToken: async () => ({
        ok: true,
        claims: { iss: 'x', sub: 'x', aud: 'x', scope: 'update:resource_servers' },
      }),
    },
  });
  try {
    expect((await c.patchJson('rs_conformance', { name: 'Bypass' }, 'garbage')).status).toBe(201);
  } finally {
    await t.close();
  }
});

test('wrap sees plain data in and out, for every route', async () => {
  const seen: TenantRequest[] = [];
  const wrap =
    (next: Handler): Handler =>
    async (req) => {
      seen.push(req);
      const res = await next(req);
      return { ...res, headers: { ...res.headers, 'x-wrapped': 'yes' } };
    };
  const { t, c } = await tenant({ wrap });
  try {
    const token = await c.accessToken();
    const r = await c.patchJson('rs_conformance', { name: 'Wrapped' }, token);
    expect(r.headers.get('x-wrapped')).toBe('yes');
    expect((await c.send('GET', '/nope')).headers.get('x-wrapped')).toBe('yes');
    const patch = seen.find((s) => s.method === 'PATCH');
    expect(patch?.url).toBe('/api/v2/resource-servers/rs_conformance');
    expect(JSON.parse(patch?.body.toString() ?? '{}')).toEqual({ name: 'Wrapped' });
    expect(patch?.headers['content-type']).toBe('application/json');
  } finally {
    await t.close();
  }
});

test('a wrapper that throws yields a 500, and the tenant keeps serving', async () => {
  let fail = true;
  const { t, c } = await tenant({
    wrap: (next) => async (req) => {
      if (fail) throw new Error('boom');
      return next(req);
    },
  });
  try {
    expect((await c.send('GET', '/.well-known/jwks.json')).status).toBe(500);
    fail = false;
    expect((await c.send('GET', '/.well-known/jwks.json')).status).toBe(200);
  } finally {
    await t.close();
  }
});

test('publicUrl option sets issuer, audience and the system identifier', async () => {
  const { t, c } = await tenant({ publicUrl: 'https://tenant.example.test/' });
  try {
    expect(t.publicUrl).toBe('https://tenant.example.test');
    const oidc = await c.send('GET', '/.well-known/openid-configuration');
    expect(oidc.body.issuer).toBe('https://tenant.example.test/');
    const token = await c.accessToken(undefined, 'https://tenant.example.test/api/v2/');
    const r = await c.patchJson(encodeURIComponent('https://tenant.example.test/api/v2/'), {}, token);
    expect(r.status).toBe(400);
    expect(r.body.errorCode).toBe('operation_not_supported');
  } finally {
    await t.close();
  }
});
