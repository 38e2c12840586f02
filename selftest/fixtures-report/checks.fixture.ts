// Synthetic conformance tests: each records check annotations as the runtime would, so the
// reporter and the gate can be driven end to end without a target. FX_NAME=pass|fail
// decides the one must clause that can fail; FX_CRASH=1 adds a test that errors;
// FX_LEAK=1 puts unredacted credentials into the failure's evidence (the reporter's own
// redaction must catch them).
import { skipTest } from '../../lib/declare.ts';
import { readSources } from '../../lib/config/sources.ts';
import { runSkip } from '../../lib/skip-record.ts';
import { expect, test } from '@playwright/test';

type Check = {
  clause: string;
  outcome: 'passed' | 'failed' | 'observed';
  message: string;
  observation?: string;
  evidence?: unknown;
};

function record(check: Check): void {
  test.info().annotations.push({ type: 'check', description: JSON.stringify(check) });
  expect.soft(check.outcome, `${check.clause}: ${check.message}`).not.toBe('failed');
}

test('name of 201 characters is rejected with 400', { tag: ['@fx.update.name.max-length'] }, () => {
  record({
    clause: 'fx.update.name.max-length',
    outcome: 'passed',
    message: 'name of 200 characters accepted with 201',
  });
  if (process.env.FX_NAME === 'pass') {
    record({
      clause: 'fx.update.name.max-length',
      outcome: 'passed',
      message: 'name of 201 characters rejected with 400',
    });
    return;
  }
  if (process.env.FX_LEAK === '1') {
    const secret = readSources().merged.IDM_CLIENT_SECRET ?? 'no-secret-set';
    const jwt = `eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjb25mb3JtYW5jZSJ9.${'s1gnatureXY'.repeat(4)}`;
    record({
      clause: 'fx.update.name.max-length',
      outcome: 'failed',
      message: `expected 400, got 201 (client secret ${secret})`,
      evidence: {
        curl: `curl -u conformance-full:${secret} -H 'Authorization: Bearer ${jwt}' http://127.0.0.1:4900/oauth/token`,
        request: {
          method: 'POST',
          url: 'http://127.0.0.1:4900/oauth/token',
          headers: { authorization: `Bearer ${jwt}` },
          body: { client_id: 'conformance-full', client_secret: secret },
        },
        response: { status: 200, headers: {}, body: { access_token: jwt } },
        counterexample: {
          key: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n-----END PRIVATE KEY-----',
        },
      },
    });
    return;
  }
  record({
    clause: 'fx.update.name.max-length',
    outcome: 'failed',
    message: 'expected 400 for a name of 201 characters, got 201',
    evidence: {
      seed: 4242,
      path: '3:1',
      counterexample: { name: 'a'.repeat(201) },
      curl: "curl -X PATCH 'http://127.0.0.1:4900/api/v2/resource-servers/rs_conformance' -H 'Authorization: Bearer <redacted>' -H 'Content-Type: application/json' --data-raw '{\"name\":\"aaaa…\"}'",
      request: {
        method: 'PATCH',
        url: 'http://127.0.0.1:4900/api/v2/resource-servers/rs_conformance',
        headers: { authorization: 'Bearer <redacted>' },
        body: { name: 'a'.repeat(201) },
      },
      response: {
        status: 201,
        headers: { 'content-type': 'application/json' },
        body: { id: 'rs_conformance', name: 'a'.repeat(201) },
      },
    },
  });
});

test('token_lifetime accepts 0 and 2592000', { tag: ['@fx.update.token-lifetime.range'] }, () => {
  record({ clause: 'fx.update.token-lifetime.range', outcome: 'passed', message: 'token_lifetime 0 accepted' });
  record({ clause: 'fx.update.token-lifetime.range', outcome: 'passed', message: 'token_lifetime 2592000 accepted' });
});

test('experiment creation status code is recorded', () => {
  test.info().annotations.push({ type: 'clause', description: 'fx.experiment.status-code' });
  record({
    clause: 'fx.experiment.status-code',
    outcome: 'observed',
    message: 'success status of experiment creation',
    observation: 'experiment create answered 201',
  });
});

test('token without update:resource_servers is refused with 403', { tag: ['@fx.auth.limited.forbidden'] }, () => {
  skipTest(runSkip({ setting: 'IDM_LIMITED_CLIENT_ID' }, 'limited client not configured (IDM_LIMITED_CLIENT_ID)'));
});

test('a test that errors outside any must clause', { tag: ['@fx.experiment.status-code'] }, () => {
  test.skip(process.env.FX_CRASH !== '1', 'FX_CRASH not set');
  throw new Error('boom: the target answered something the test did not expect');
});
