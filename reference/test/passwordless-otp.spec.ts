// The passwordless one-time-code grant at the token endpoint: a code POST /passwordless/start
// sent (read from the dev outbox) redeemed once, by the client it was sent for, for its
// recipient, while live; the wrong-code limit; the verifyOneTimeCode part as variants replace it.
import { test, expect } from '@playwright/test';
import { decodeJwt } from 'jose';
import { PASSWORDLESS_OTP_GRANT, defaultLimits, type RunningTenant } from '../src/index.ts';
import { BASIC, POST, SPA, USER, basicAuth, form, jsonBody, tenant, type Client } from './helpers.ts';

const PHONE = '+15555550100'; // the test user's phone number
const LIMITS = defaultLimits();

let t: RunningTenant;
let c: Client;
let clock = 0; // ms added to the real clock by tests that move time
test.beforeAll(async () => ({ t, c } = await tenant({ parts: (d) => ({ now: () => d.now() + clock }) })));
test.afterAll(async () => t.close());

type Realm = 'email' | 'sms';
const clientParams = (client: { id: string; secret?: string }): Record<string, string> =>
  client.secret === undefined ? { client_id: client.id } : { client_id: client.id, client_secret: client.secret };

/** POST /passwordless/start with send: code, then the code from the dev outbox. */
async function sendCode(realm: Realm, to: string, client: { id: string; secret?: string } = SPA): Promise<string> {
  const recipient = realm === 'email' ? { email: to } : { phone_number: to };
  const r = await c.send(
    'POST',
    '/passwordless/start',
    jsonBody({ ...clientParams(client), connection: realm, send: 'code', ...recipient }),
  );
  expect(r.status, r.text).toBe(200);
  const box = await c.send('GET', `/dev/outbox?to=${encodeURIComponent(to)}`);
  return box.body.messages.at(-1).code as string;
}

const redeem = (
  realm: Realm,
  username: string,
  otp: string,
  client: { id: string; secret?: string } = SPA,
  extra: Record<string, string> = {},
) => c.token({ grant_type: PASSWORDLESS_OTP_GRANT, ...clientParams(client), realm, username, otp, ...extra });

/** Another six-digit code than `code`. */
const other = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');

function expectRefused(r: { status: number; body: { error?: string }; text: string }) {
  expect(r.status, r.text).toBe(400);
  expect(r.body.error).toBe('invalid_grant');
}

test('the code sent by email → user tokens for the user with that address; public and confidential clients', async () => {
  const code = await sendCode('email', USER.username);
  const r = await redeem('email', USER.username, code, SPA, { scope: 'openid email offline_access' });
  expect(r.status, r.text).toBe(200);
  expect(r.body).toMatchObject({ token_type: 'Bearer', scope: 'openid email offline_access' });
  expect(decodeJwt(r.body.access_token)).toMatchObject({
    sub: 'db|conformance-user',
    azp: SPA.id,
    gty: 'passwordless',
  });
  expect(decodeJwt(r.body.id_token)).toMatchObject({ sub: 'db|conformance-user', email: USER.username });
  expect(typeof r.body.refresh_token).toBe('string');

  // Confidential client with its secret, as a form, by sms to the user's phone number.
  const sms = await sendCode('sms', PHONE, POST);
  const viaForm = await c.send(
    'POST',
    '/oauth/token',
    form({ grant_type: PASSWORDLESS_OTP_GRANT, ...clientParams(POST), realm: 'sms', username: PHONE, otp: sms }),
  );
  expect(viaForm.status, viaForm.text).toBe(200);
  expect(decodeJwt(viaForm.body.access_token).sub).toBe('db|conformance-user');
});

test('a made-up code, or no code ever sent → 400 invalid_grant', async () => {
  const code = await sendCode('email', USER.username);
  expectRefused(await redeem('email', USER.username, other(code)));
  expectRefused(await redeem('sms', '+15555550177', '123456'));
  expect((await redeem('email', USER.username, code)).status).toBe(200);
});

test('a code used once, sent to another recipient, on the other connection or for another client → invalid_grant', async () => {
  const code = await sendCode('email', USER.username);
  expect((await redeem('email', USER.username, code)).status).toBe(200);
  expectRefused(await redeem('email', USER.username, code)); // single use

  // The user has live codes of its own each time, so these fail on the binding, not for want of a code.
  const forSpa = await sendCode('email', USER.username);
  const forPost = await sendCode('email', USER.username, POST);
  expectRefused(await redeem('email', USER.username, forPost, SPA));
  expect((await redeem('email', USER.username, forPost, POST)).status).toBe(200);
  const elsewhere = await sendCode('email', 'someone-else@example.test');
  expectRefused(await redeem('email', USER.username, elsewhere));
  const bySms = await sendCode('sms', PHONE);
  expectRefused(await redeem('email', USER.username, bySms));
  // The first code sent stayed live through a second start and two wrong codes.
  expect((await redeem('email', USER.username, forSpa)).status).toBe(200);
});

test('an address is compared without case; a right code for a recipient with no account → invalid_grant', async () => {
  const code = await sendCode('email', USER.username.toUpperCase());
  expect((await redeem('email', USER.username, code)).status).toBe(200);
  const nobody = await sendCode('email', 'no-account@example.test');
  const r = await redeem('email', 'no-account@example.test', nobody);
  expectRefused(r);
  // The code was spent all the same: an unknown account cannot be told from a wrong code by retrying.
  expectRefused(await redeem('email', 'no-account@example.test', nobody));
});

test(`a code expires after ${LIMITS.oneTimeCodeLifetimeSeconds} s`, async () => {
  const code = await sendCode('sms', PHONE);
  clock += (LIMITS.oneTimeCodeLifetimeSeconds + 1) * 1000;
  try {
    expectRefused(await redeem('sms', PHONE, code));
  } finally {
    clock = 0;
  }
  const fresh = await sendCode('sms', PHONE);
  clock += (LIMITS.oneTimeCodeLifetimeSeconds - 5) * 1000;
  try {
    expect((await redeem('sms', PHONE, fresh)).status).toBe(200);
  } finally {
    clock = 0;
  }
});

test(`${LIMITS.oneTimeCodeAttemptsMax} wrong codes for a recipient kill every code sent to it; fewer do not`, async () => {
  const code = await sendCode('sms', PHONE);
  for (let i = 0; i < LIMITS.oneTimeCodeAttemptsMax - 1; i++) expectRefused(await redeem('sms', PHONE, other(code)));
  expect((await redeem('sms', PHONE, code)).status).toBe(200);

  // A right code clears the count: as many wrong ones again, and the next code still works.
  const again = await sendCode('sms', PHONE);
  for (let i = 0; i < LIMITS.oneTimeCodeAttemptsMax - 1; i++) expectRefused(await redeem('sms', PHONE, other(again)));
  expect((await redeem('sms', PHONE, again)).status).toBe(200);

  const first = await sendCode('sms', PHONE);
  const second = await sendCode('sms', PHONE);
  for (let i = 0; i < LIMITS.oneTimeCodeAttemptsMax; i++) expectRefused(await redeem('sms', PHONE, '-wrong-'));
  expectRefused(await redeem('sms', PHONE, first));
  expectRefused(await redeem('sms', PHONE, second));
  // A new code starts afresh.
  expect((await redeem('sms', PHONE, await sendCode('sms', PHONE))).status).toBe(200);
});

test('faulty requests: missing otp, username or realm → 400 invalid_request; a client without the grant → 403', async () => {
  for (const drop of ['otp', 'username', 'realm']) {
    const params: Record<string, string> = {
      grant_type: PASSWORDLESS_OTP_GRANT,
      client_id: SPA.id,
      realm: 'email',
      username: USER.username,
      otp: '123456',
    };
    delete params[drop];
    const r = await c.token(params);
    expect(r.status, drop).toBe(400);
    expect(r.body.error, drop).toBe('invalid_request');
  }
  expect(
    (await redeem('email', USER.username, '123456', SPA, { realm: 'Username-Password-Authentication' })).status,
  ).toBe(400);
  const basic = await c.token(
    { grant_type: PASSWORDLESS_OTP_GRANT, realm: 'email', username: USER.username, otp: '123456' },
    { authorization: basicAuth(BASIC.id, BASIC.secret) },
  );
  expect(basic.status, basic.text).toBe(403);
  expect(basic.body.error).toBe('unauthorized_client');
});

test('discovery lists the grant', async () => {
  const r = await c.send('GET', '/.well-known/openid-configuration');
  expect(r.body.grant_types_supported).toContain(PASSWORDLESS_OTP_GRANT);
});

test('the verifyOneTimeCode part decides: a variant that accepts any code issues tokens for a made-up one', async () => {
  const faulty = await tenant({ parts: { verifyOneTimeCode: () => ({ ok: true }) } });
  try {
    const r = await faulty.c.token({
      grant_type: PASSWORDLESS_OTP_GRANT,
      client_id: SPA.id,
      realm: 'email',
      username: USER.username,
      otp: '000000',
    });
    expect(r.status, r.text).toBe(200);
  } finally {
    await faulty.t.close();
  }
});
