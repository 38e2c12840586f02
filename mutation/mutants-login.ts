// Variants of the hosted login (the login walk, lib/auth/login-walk.ts): the spec shows no login
// page, so its shapes are benign (identifier first, consent on every login, a logout
// confirmation page — the self-test selftest/runtime-login-profiles.spec.ts holds the whole verdict
// through them); the one rule a standard states about them, a declined consent (RFC 6749
// §4.1.2.1), has its faulty variants: on every login, and on the confidential client's only.
import { isObject } from '../lib/values.ts';
import type { Req, Wrap } from './exchange.ts';
import type { ProbeClient } from './probes.ts';
import { DEV_AUTH } from './suite.ts';
import { viaWrap, type Variant } from './variant.ts';

const A = DEV_AUTH;
const CONSENT_EVERY_LOGIN = { consent: 'always' as const };
const isConsent = (r: Req): boolean => r.method === 'POST' && /^\/u\/consent\/?$/.test(r.path);

/** A declined consent page taken as an acceptance: the code is issued all the same. */
const declineIgnored: Wrap = (next) => async (req) =>
  isConsent(req) && isObject(req.body) && req.body.decision === 'deny'
    ? next({ ...req, body: { ...req.body, decision: 'accept' } })
    : next(req);

export const LOGIN_MUTANTS: Variant[] = [
  {
    id: 'login-consent-decline-ignored',
    kind: 'mutant',
    clause: 'auth.sec.consent.denied',
    fault: 'auth-bypass',
    fast: true,
    description: 'a consent page declined still sends the browser to the redirect URI with a code',
    options: () => ({ ...viaWrap(declineIgnored)(), login: CONSENT_EVERY_LOGIN }),
    probe: (c) => declinedLogin(c, A.IDM_PUBLIC_CLIENT_ID),
  },
  {
    // A tenant that asks consent per application: judged only where the suite tries the confidential client too.
    id: 'login-consent-decline-ignored-confidential-only',
    kind: 'mutant',
    clause: 'auth.sec.consent.denied',
    fault: 'auth-bypass',
    fast: true,
    description:
      'a consent page shown to the confidential client only (never to the public one), declined, still sends the browser to the redirect URI with a code',
    options: () => ({ ...viaWrap(declineIgnored)(), login: { consent: 'always', consentTo: 'confidential' } }),
    probe: (c) => declinedLogin(c, A.IDM_POST_CLIENT_ID),
  },
];

export const LOGIN_BENIGN: Variant[] = [
  {
    id: 'benign-login-identifier-first-consent-logout-confirm',
    kind: 'benign',
    clause: 'auth.flow.login-pages',
    // Recorded by every login (no test declares it): the tests that log in, consent and log out.
    grep: ['auth.flow.code.pkce', 'auth.sec.consent.denied', 'auth.sec.logout.registered-only'],
    fault: 'spec-silent',
    description:
      'the login asks the e-mail address and the password on two pages, then consent on every login; logout asks for confirmation',
    options: () => ({ login: { flow: 'identifier-first', consent: 'always', logoutConfirm: true } }),
    probe: async (c) => (await authorize(c, A.IDM_PUBLIC_CLIENT_ID)).headers.location ?? null,
  },
];

// Probes

/** A code-flow client's authorization request with PKCE: its login page (or a redirect to it). */
function authorize(c: ProbeClient, clientId: string) {
  return c.request('GET', '/authorize', {
    query: {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: A.IDM_REDIRECT_URI,
      scope: 'openid',
      state: 'probe-state',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    },
  });
}

/** Logs in on the one-page form for `clientId` and declines consent where asked: where the browser is sent, and with what. */
async function declinedLogin(c: ProbeClient, clientId: string): Promise<unknown> {
  const page = await authorize(c, clientId);
  const tx = /name="state" value="([^"]+)"/.exec(String(page.body ?? ''))?.[1];
  if (!tx) return { page: page.status };
  const login = await c.request('POST', `/u/login?state=${encodeURIComponent(tx)}`, {
    form: true,
    body: { state: tx, username: A.IDM_TEST_USERNAME, password: A.IDM_TEST_PASSWORD },
  });
  const next = login.headers.location ?? '';
  if (!next.includes('/u/consent')) return { login: login.status, consent: false, code: next.includes('code=') };
  const declined = await c.request('POST', '/u/consent', { form: true, body: { state: tx, decision: 'deny' } });
  return { consent: true, code: (declined.headers.location ?? '').includes('code=') };
}
