// The accepted half of the authentication API's checks, without a tenant (issue 16): one
// "token issued", a 404 told apart from a refusal, IDM_NOT_OFFERED parsed strictly, §7.3
// counting API answers only, and the report's root causes first.
import { test, expect } from '@playwright/test';
import { notExercised } from '../lib/twin-gate.ts';
import { notIssuedCause } from '../lib/answer-words.ts';
import { received } from '../lib/answer-class.ts';
import { runSkip } from '../lib/skip-record.ts';
import { recordAuthError } from '../lib/auth/error-records.ts';
import { IdmError } from '../lib/errors.ts';
import { notOfferedSkip, parseConfig } from '../lib/config.ts';
import type { Exchange } from '../lib/http.ts';
import { byRootCause, rootCauseNote } from '../reporters/root-causes.ts';
import type { ClauseResult } from '../reporters/model.ts';

const STAGING = {
  IDM_BASE_URL: 'https://staging.example.test',
  IDM_CLIENT_ID: 'client-full',
  IDM_CLIENT_SECRET: 'secret-full-abcdef',
  IDM_RESOURCE_SERVER_ID: 'rs_custom',
};

function ex(status: number, body: unknown, path = '/oauth/token', contentType = 'application/json'): Exchange {
  return received({
    request: { method: 'POST', url: `https://t.example.test${path}`, headers: {} },
    status,
    headers: { 'content-type': contentType },
    text: typeof body === 'string' ? body : JSON.stringify(body),
    body,
  });
}

test('a token is issued only with a 2xx, an access_token and a token_type (RFC 6749 §5.1)', () => {
  const issued = (e: Exchange) => e.answer.issued !== null;
  expect(ex(200, { access_token: 'a', token_type: 'Bearer' }).answer.issued).toEqual({
    accessToken: 'a',
    tokenType: 'Bearer',
  });
  expect(issued(ex(200, { access_token: 'a' }))).toBe(false);
  expect(issued(ex(200, { token_type: 'Bearer' }))).toBe(false);
  expect(issued(ex(400, { access_token: 'a', token_type: 'Bearer' }))).toBe(false);
  expect(notIssuedCause(ex(400, { error: 'invalid_request' }))).toBe('answered 400 invalid_request');
  expect(notIssuedCause(ex(200, { access_token: 'a' }))).toBe('answered 200 without an access_token and a token_type');
  expect(notIssuedCause(ex(404, 'Not Found', '/login/callback', 'text/html'))).toBe(
    'endpoint not found at /login/callback',
  );
});

test('IDM_NOT_OFFERED: a comma list of named flows; an unknown name is a configuration error', () => {
  expect(parseConfig(STAGING).auth.notOffered.size).toBe(0);
  const cfg = parseConfig({ ...STAGING, IDM_NOT_OFFERED: 'password, implicit' });
  expect([...cfg.auth.notOffered].sort()).toEqual(['implicit', 'password']);
  expect(notOfferedSkip(cfg, 'password')).toEqual({
    by: 'tenant',
    cause: { setting: 'IDM_NOT_OFFERED', answer: 'not-offered' },
    text: 'not offered (IDM_NOT_OFFERED=password,implicit)',
  });
  expect(notOfferedSkip(cfg, 'saml')).toBeNull();
  let err: unknown;
  try {
    parseConfig({ ...STAGING, IDM_NOT_OFFERED: 'password,ropc' });
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(IdmError);
  expect((err as IdmError).message).toContain('ropc');
});

test('§7.3 counts API answers: not the 404 of an absent endpoint, not an HTML page shown to a person', () => {
  const annotations: Array<{ type: string; description?: string }> = [];
  const info = { annotations } as unknown as Parameters<typeof recordAuthError>[0];
  expect(recordAuthError(info, ex(404, 'Not Found', '/passwordless/start', 'text/html'))).toBeNull();
  expect(recordAuthError(info, ex(400, '<h1>Invalid request</h1>', '/authorize', 'text/html'))).toBeNull();
  expect(recordAuthError(info, ex(401, { error: 'invalid_client' }))).not.toBeNull();
  expect(recordAuthError(info, ex(400, 'bad', '/oauth/token', 'text/plain'))).not.toBeNull();
  expect(annotations).toHaveLength(2);
});

test('root causes first: a failed clause other clauses name leads, with its dependants', () => {
  const clause = (id: string, status: ClauseResult['status'], o: Partial<ClauseResult> = {}): ClauseResult => ({
    id,
    section: '4.3',
    text: id,
    kind: 'must',
    status,
    checks: { passed: 0, failed: status === 'failed' ? 1 : 0, observed: 0 },
    tests: [],
    failures: status === 'failed' ? [{ test: 't', message: `${id} failed` }] : [],
    observations: [],
    ...o,
  });
  const all = [
    clause('auth.api.post-json', 'failed'),
    clause('auth.flow.implicit', 'failed'),
    clause('auth.flow.password', 'failed'),
    clause('auth.flow.password.wrong-password', 'skipped', {
      skips: [notExercised('auth.flow.password', 'answered 400 unsupported_grant_type')],
    }),
    clause('ratelimit.login-attempts', 'skipped', { skips: [notExercised('auth.flow.password', 'answered 400')] }),
    // Words that name a clause decide nothing: only the record's cause does.
    clause('auth.flow.implicit.redirect-uri', 'skipped', {
      skips: [runSkip({}, 'see auth.api.post-json (auth.flow.implicit: x) — auth.flow.implicit says why')],
    }),
  ];
  const ordered = byRootCause(
    all,
    all.filter((c) => c.status === 'failed'),
  );
  expect(ordered.map((o) => o.clause.id)).toEqual(['auth.flow.password', 'auth.api.post-json', 'auth.flow.implicit']);
  expect(rootCauseNote(ordered[0]!)).toBe(
    'root cause of 2 other clauses (auth.flow.password.wrong-password, ratelimit.login-attempts)',
  );
  expect(rootCauseNote(ordered[1]!)).toBe('');
});
