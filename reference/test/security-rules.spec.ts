// The security rules the named flows rest on (the securityRules part, one function each):
// exact redirect URIs (RFC 6749 §3.1.2.3), a code bound to its client and redirect URI
// (§4.1.3), no widening on refresh (§6), logout only to a registered URL (OIDC RP-Initiated
// Logout §3), token answers not cacheable (§5.1).
import { createHash } from 'node:crypto';
import { test, expect } from '@playwright/test';
import type { RunningTenant } from '../src/index.ts';
import { securityRules } from '../src/auth/security-rules.ts';
import { idTokenClaims } from '../src/auth/id-token-claims.ts';
import { LOGOUT_URL, POST, REDIRECT_URI, SPA, USER, form, passwordGrant, tenant, type Client } from './helpers.ts';

let t: RunningTenant;
let c: Client;
test.beforeAll(async () => ({ t, c } = await tenant()));
test.afterAll(async () => t.close());

const NEAR_MISSES = [
  'https://app.conformance.test/callback/extra',
  'https://app.conformance.test.attacker.test/callback',
  'https://app.conformance.test:444/callback',
  'http://app.conformance.test/callback',
  'https://app.conformance.test/callback?next=attacker',
  'https://app.conformance.test/CALLBACK',
  'https://app.conformance.test@attacker.test/callback',
];

async function raw(path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const res = await fetch(t.url + path, { redirect: 'manual', ...init });
  return { status: res.status, location: res.headers.get('location') ?? '', text: await res.text() };
}

test('redirect URIs compare as strings: the registered one only, no near miss', async () => {
  expect(securityRules.redirectUriRegistered([REDIRECT_URI], REDIRECT_URI)).toBe(true);
  for (const uri of NEAR_MISSES) {
    expect(securityRules.redirectUriRegistered([REDIRECT_URI], uri), uri).toBe(false);
    const q = new URLSearchParams({ response_type: 'code', client_id: POST.id, redirect_uri: uri, state: 's' });
    const res = await raw(`/authorize?${q}`);
    expect(res.status, uri).toBe(400);
    expect(res.location).toBe('');
  }
});

test('a code is bound to its client and redirect URI', async () => {
  const grant = { clientId: POST.id, redirectUri: REDIRECT_URI };
  expect(securityRules.codeBindingFault(grant, POST.id, REDIRECT_URI)).toBeNull();
  expect(securityRules.codeBindingFault(grant, SPA.id, REDIRECT_URI)).not.toBeNull();
  expect(securityRules.codeBindingFault(grant, POST.id, `${REDIRECT_URI}/other`)).not.toBeNull();
  expect(securityRules.codeBindingFault(grant, POST.id, undefined)).not.toBeNull();

  const q = new URLSearchParams({
    response_type: 'code',
    client_id: POST.id,
    redirect_uri: REDIRECT_URI,
    scope: 'openid',
  });
  const page = await raw(`/authorize?${q}`);
  const tx = /name="state" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
  const done = await raw('/u/login', { method: 'POST', ...form({ ...USER, state: tx }) });
  const code = new URL(done.location).searchParams.get('code') ?? '';
  const bySpa = await c.token({
    grant_type: 'authorization_code',
    client_id: SPA.id,
    code,
    redirect_uri: REDIRECT_URI,
  });
  expect(bySpa.status).toBe(400);
  expect(bySpa.body.error).toBe('invalid_grant');
  const right = await c.token({
    grant_type: 'authorization_code',
    client_id: POST.id,
    client_secret: POST.secret,
    code,
    redirect_uri: REDIRECT_URI,
  });
  expect(right.status, right.text).toBe(200);
});

test('a refresh narrows, never widens', () => {
  expect(securityRules.refreshScope('openid profile', undefined)).toEqual({ ok: true, scope: 'openid profile' });
  expect(securityRules.refreshScope('openid profile', 'openid')).toEqual({ ok: true, scope: 'openid' });
  expect(securityRules.refreshScope('openid profile', 'openid email').ok).toBe(false);
});

test('logout returns only to a registered URL, compared as a string', async () => {
  expect(securityRules.logoutReturnAllowed([LOGOUT_URL], LOGOUT_URL)).toBe(true);
  for (const uri of [
    `${LOGOUT_URL}/extra`,
    'https://app.conformance.test.attacker.test/logged-out',
    'https://attacker.test/logged-out',
  ]) {
    expect(securityRules.logoutReturnAllowed([LOGOUT_URL], uri), uri).toBe(false);
    const res = await raw(`/v2/logout?${new URLSearchParams({ client_id: SPA.id, returnTo: uri })}`);
    expect(res.status, uri).toBe(400);
    expect(res.location).toBe('');
  }
});

test('token answers carry Cache-Control: no-store and Pragma: no-cache', async () => {
  const res = await fetch(`${t.url}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(passwordGrant({ scope: 'openid' })),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('no-store');
  expect(res.headers.get('pragma')).toBe('no-cache');
});

test('ID-token claims: issuer, subject, the client as audience, iat/exp, the nonce, at_hash of the access token', () => {
  const claims = idTokenClaims({
    issuer: 'https://t.test/',
    subject: 'u1',
    clientId: SPA.id,
    nowS: 1000,
    lifetimeS: 60,
    nonce: 'n',
    accessToken: 'at',
    profile: { name: 'N' },
  });
  const half = createHash('sha256').update('at').digest().subarray(0, 16).toString('base64url');
  expect(claims).toEqual({
    iss: 'https://t.test/',
    sub: 'u1',
    aud: SPA.id,
    iat: 1000,
    exp: 1060,
    nonce: 'n',
    at_hash: half,
    name: 'N',
  });
  expect(idTokenClaims({ issuer: 'i', subject: 's', clientId: 'c', nowS: 0, lifetimeS: 1, profile: {} })).toEqual({
    iss: 'i',
    sub: 's',
    aud: 'c',
    iat: 0,
    exp: 1,
  });
});
