// Refresh-token rotation (TenantOptions.refreshRotation): with it, each refresh answer carries a
// new refresh token for the same grant and the used one is refused; without it, no new token and
// the used one keeps working until revoked (RFC 6749 §6 and RFC 9700 §4.14.2 leave the choice open).
import { test, expect } from '@playwright/test';
import { decodeJwt } from 'jose';
import { POST, RS_CONFORMANCE_IDENTIFIER, SPA, jsonBody, passwordGrant, tenant, type Client } from './helpers.ts';

const password = (c: Client, scope: string, extra: Record<string, string> = {}) =>
  c.token(passwordGrant({ scope, ...extra }));

const refresh = (c: Client, refreshToken: string, extra: Record<string, string> = {}) =>
  c.token({
    grant_type: 'refresh_token',
    client_id: POST.id,
    client_secret: POST.secret,
    refresh_token: refreshToken,
    ...extra,
  });

test('rotation on: a new refresh token each time, for the same grant; the used one → 400 invalid_grant', async () => {
  const { t, c } = await tenant({ refreshRotation: true });
  try {
    // The seeded API gives no refresh tokens (allow_offline_access false) until told to.
    expect((await c.patchJson('rs_conformance', { allow_offline_access: true }, await c.accessToken())).status).toBe(
      201,
    );
    const first = await password(c, 'openid offline_access read:things', { audience: RS_CONFORMANCE_IDENTIFIER });
    expect(first.status, first.text).toBe(200);
    const rt1 = first.body.refresh_token as string;

    // Narrowed: the access token gets the narrower scope; the new refresh token keeps the grant's (§6).
    const second = await refresh(c, rt1, { scope: 'openid' });
    expect(second.status, second.text).toBe(200);
    expect(second.body.scope).toBe('openid');
    const rt2 = second.body.refresh_token as string;
    expect(typeof rt2).toBe('string');
    expect(rt2).not.toBe(rt1);

    const reused = await refresh(c, rt1);
    expect(reused.status, reused.text).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');

    const third = await refresh(c, rt2);
    expect(third.status, third.text).toBe(200);
    expect(third.body.scope).toBe(first.body.scope);
    expect(decodeJwt(third.body.access_token)).toMatchObject({ sub: 'db|conformance-user', azp: POST.id });
    expect(decodeJwt(third.body.access_token).aud).toContain(RS_CONFORMANCE_IDENTIFIER);
    const rt3 = third.body.refresh_token as string;

    // Another client cannot use it (and does not spend it); revocation of the current one works.
    const stolen = await c.token({ grant_type: 'refresh_token', client_id: SPA.id, refresh_token: rt3 });
    expect(stolen.body.error).toBe('invalid_grant');
    const revoked = await c.send(
      'POST',
      '/oauth/revoke',
      jsonBody({ client_id: POST.id, client_secret: POST.secret, token: rt3 }),
    );
    expect(revoked.status).toBe(200);
    expect((await refresh(c, rt3)).body.error).toBe('invalid_grant');
  } finally {
    await t.close();
  }
});

test('rotation off (the default): no new refresh token; the used one keeps working', async () => {
  const { t, c } = await tenant();
  try {
    const rt = (await password(c, 'openid offline_access')).body.refresh_token as string;
    for (let i = 0; i < 2; i++) {
      const r = await refresh(c, rt);
      expect(r.status, r.text).toBe(200);
      expect(r.body.refresh_token).toBeUndefined();
    }
  } finally {
    await t.close();
  }
});
