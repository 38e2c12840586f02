// The one classification of what the tenant did (lib/answer-class.ts, issue 30 item 1):
// each rule on the answers it speaks of, the order that makes a declared flow, a 415 or a
// login page win over the broader rule, and what passes the clauses judged on a class.
import { expect, test } from '@playwright/test';
import { classify, passes, PASSES, received, RULES, type AnswerContext } from '../lib/answer-class.ts';
import type { Endpoint } from '../lib/auth/endpoints.ts';
import type { Exchange } from '../lib/http.ts';

const TENANT = 'https://tenant.example.test';
const CLIENT = 'https://app.conformance.test/callback';
const CTX: AnswerContext = { clientRedirects: [CLIENT], loginPages: [`${TENANT}/u/login`] };

const answer = (status: number, location?: string, url = `${TENANT}/authorize`): Exchange =>
  received({
    request: { method: 'GET', url, headers: {} },
    status,
    headers: location === undefined ? {} : { location },
    text: '',
    body: undefined,
  });
const at = (source: Endpoint['source']): Endpoint => ({
  which: 'samlCallback',
  url: `${TENANT}/login/callback`,
  source,
  setting: 'IDM_SAML_CALLBACK_PATH',
});

/** A 4xx of `type` (issue 47: a page for the user, not an API answer, wherever it is not JSON at the authorization endpoint). */
const page = (status: number, type: string): Exchange =>
  received({
    request: { method: 'GET', url: `${TENANT}/authorize`, headers: {} },
    status,
    headers: { 'content-type': type },
    text: 'auth request is missing client_id',
    body: undefined,
  });
const authorize: Endpoint = {
  which: 'authorize',
  url: `${TENANT}/authorize`,
  source: 'default',
  setting: 'IDM_AUTHORIZE_PATH',
};

test('each answer falls to the rule that speaks of it, first match winning', () => {
  const cases: [Exchange | { noAnswer: Error }, AnswerContext, string, string][] = [
    [answer(200), { ...CTX, declared: true }, 'not-offered', 'declared-not-offered'],
    [{ noAnswer: new Error('reset') }, CTX, 'no-answer', 'no-answer'],
    [answer(404), { endpoint: at('default') }, 'not-offered', 'endpoint-absent'],
    [answer(404), { endpoint: at('setting') }, 'not-offered', 'endpoint-absent'],
    [answer(404), { endpoint: at('discovery') }, 'refused', 'client-error'],
    [answer(405), { endpoint: at('default') }, 'not-offered', 'endpoint-absent'],
    [answer(405), { endpoint: at('setting') }, 'refused', 'client-error'],
    [answer(500), CTX, 'fault', 'server-error'],
    [answer(503), CTX, 'fault', 'server-error'],
    [answer(415), CTX, 'refused', 'unsupported-media-type'],
    [answer(400), CTX, 'refused', 'client-error'],
    [page(400, 'text/plain'), { endpoint: authorize }, 'refused', 'page-for-user'],
    [page(400, 'text/html; charset=utf-8'), CTX, 'refused', 'page-for-user'],
    [page(400, 'application/json'), { endpoint: authorize }, 'refused', 'client-error'],
    [page(400, 'text/plain'), CTX, 'refused', 'client-error'],
    [answer(302, `${CLIENT}?error=invalid_request&state=s`), CTX, 'refused', 'error-to-client'],
    [answer(302, `${CLIENT}#error=access_denied`), CTX, 'refused', 'error-to-client'],
    [answer(302, '/error?error=invalid_request'), CTX, 'refused', 'error-redirect'],
    [answer(303, 'https://login.example.test/oops?error=x'), CTX, 'refused', 'error-redirect'],
    [answer(302, '/u/login?state=abc'), CTX, 'accepted', 'login-page'],
    [answer(302, `${TENANT}/u/login/`), CTX, 'accepted', 'login-page'],
    [answer(302, `${CLIENT}?code=abc&state=s`), CTX, 'accepted', 'to-client'],
    [answer(302, '/u/error'), CTX, 'refused', 'own-error-page'],
    [answer(302, '/error?code=abc'), CTX, 'accepted', 'redirect-onward'],
    [answer(302, '/error#access_token=abc'), CTX, 'accepted', 'redirect-onward'],
    [answer(302, `/continue?to=${encodeURIComponent(CLIENT)}`), CTX, 'accepted', 'redirect-onward'],
    [answer(302, 'https://login.example.test/start'), CTX, 'accepted', 'redirect-onward'],
    [answer(200), CTX, 'accepted', 'success'],
    [answer(204), CTX, 'accepted', 'success'],
  ];
  for (const [a, ctx, cls, rule] of cases) {
    const seen = 'status' in a ? `${a.status} ${a.headers.location ?? ''}` : 'no answer';
    expect(classify(a, ctx), seen).toMatchObject({ class: cls, rule });
  }
});

test('every rule carries a citation, and each is reachable', () => {
  for (const r of RULES) expect(r.citation.length, r.id).toBeGreaterThan(10);
  expect(new Set(RULES.map((r) => r.id)).size).toBe(RULES.length);
});

test('a login page is no refusal; an error told to a client is; a 5xx is never read, accepted or refused', () => {
  const refused = (a: Exchange) => classify(a, CTX).class === 'refused';
  expect(refused(answer(400))).toBe(true);
  expect(refused(answer(302, '/error?error=invalid_request'))).toBe(true);
  expect(refused(answer(302, '/u/error'))).toBe(true);
  expect(refused(answer(302, '/u/login'))).toBe(false);
  expect(classify(answer(302, `${CLIENT}?error=invalid_request`), CTX).rule).toBe('error-to-client');
  expect(refused(answer(200))).toBe(false);
  for (const p of Object.values(PASSES)) expect(passes(classify(answer(500), CTX), p)).toBe(false);
  const formRead = (status: number) => passes(classify(answer(status)), PASSES.formRead);
  expect([200, 302, 400, 415, 500].map(formRead)).toEqual([true, true, true, false, false]);
  expect(
    passes(classify(answer(302, '/error?error=x')), PASSES.refused4xx),
    'a token endpoint refuses with a 4xx',
  ).toBe(false);
});
