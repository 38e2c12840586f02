// Passwordless (§4.3: connection `sms` or `email`): the spec shows no path, payload or answer
// and names no standard, so the start request is sent as tenants of this kind take it and the
// answer is recorded. On a real tenant it sends a real e-mail or SMS: opt-in only. The code it
// sent is then a carrier of the attack catalogue: the grant with a made-up code must be refused
// (RFC 6749 §5.2, invalid_grant), beside the same grant with the code sent where a test tenant's
// outbox shows it (IDM_PASSWORDLESS_OUTBOX_PATH), else beside the accepted start.
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../../../lib/declare.ts';
import { endpointOf, jsonBodyRead } from '../../../lib/auth/conditions.ts';
import { passes, PASSES } from '../../../lib/answer-class.ts';
import { recorded } from '../../../lib/management/recorded.ts';
import { notOfferedSkip, optInSkip, type Config } from '../../../lib/config.ts';
import type { TestInfo } from '@playwright/test';
import { runSkip, tenantSkip } from '../../../lib/skip-record.ts';
import { FLOW_GRANT, type Twin, type TwinGate } from '../../../lib/twin-gate.ts';
import { GRANT_ATTACKS } from '../../../lib/auth/attacks/catalogue.ts';
import { madeUpCode, PASSWORDLESS_OTP_GRANT } from '../../../lib/auth/attacks/grants.ts';
import { tokenGave } from '../../../lib/auth/flow-products.ts';
import { isObject } from '../../../lib/values.ts';
import type { Flows } from '../../../lib/auth/flow-fixtures.ts';

const OTP_CHECKED = GRANT_ATTACKS.otpMadeUp.clause;

for (const connection of ['email', 'sms'] as const) {
  const clause = `auth.flow.passwordless.${connection}`;
  test(
    `passwordless start with connection ${connection}: answer recorded`,
    clauses(OPERATIONS.authFlow, clause, OTP_CHECKED, 'auth.api.post-json', 'auth.api.named-flows'),
    async ({ run, flows, gate }, info) => {
      const { cfg } = run;
      skipTest(notOfferedSkip(cfg, 'passwordless'));
      skipTest(optInSkip(cfg, 'passwordless'));
      const to = connection === 'email' ? cfg.auth.passwordlessEmail : cfg.auth.passwordlessPhone;
      const recipient = connection === 'email' ? 'IDM_PASSWORDLESS_EMAIL' : 'IDM_PASSWORDLESS_PHONE';
      skipTest(!to && runSkip({ setting: recipient }, `needs a recipient the suite may message: set ${recipient}`));
      const clientId = cfg.auth.publicClientId ?? cfg.auth.post?.id;
      skipTest(
        !clientId &&
          runSkip(
            { setting: 'IDM_PUBLIC_CLIENT_ID' },
            'needs a client for passwordless: set IDM_PUBLIC_CLIENT_ID (or IDM_POST_CLIENT_ID)',
          ),
      );
      const e = await flows.endpoint('passwordless');
      const secret: Record<string, string> = cfg.auth.publicClientId ? {} : { client_secret: cfg.auth.post!.secret };
      const ex = await flows.post(e, {
        client_id: clientId,
        ...secret,
        connection,
        ...(connection === 'email' ? { email: to } : { phone_number: to }),
        send: 'code',
      });
      flows.stopIfAbsent(e, ex);
      await gate.call(recorded(clause), null, { what: `passwordless start (${connection}, send code)`, ex });
      await gate.call(endpointOf, null, { flow: `passwordless (${connection})`, at: e });
      // §4.3 JSON convention: a 2xx is its acceptance, a 415 its refusal; other answers say nothing
      // about it, nor does a form body sent because JSON was refused (auth.api.post-json said so once).
      if ((await flows.encoding()).encoding === 'json')
        await gate.call(jsonBodyRead, null, { ex, url: e.url, any2xx: false });

      // The code sent is a credential: a made-up one is refused (one wrong code only, so a
      // tenant that voids codes after a few wrong ones still takes the right one after it). One
      // connection carries it below IDM_DEPTH=deep: the grant is the same for both.
      if (connection === 'sms' && run.cfg.depth !== 'deep') {
        skipClauses(
          info,
          runSkip({ setting: 'IDM_DEPTH' }, 'the one-time code is tried on the email connection below IDM_DEPTH=deep'),
          OTP_CHECKED,
        );
        return;
      }
      const started = gate.given(clause, passes(ex.answer, PASSES.success), `passwordless start answered ${ex.status}`);
      await otpChecked({ cfg, flows, gate, info, connection, clause, clientId: clientId!, secret, to: to!, started });
    },
  );
}

// Helpers

/** The one-time code is a credential: a made-up one is refused, beside the right one where an outbox shows it. */
async function otpChecked(o: {
  cfg: Config;
  flows: Flows;
  gate: TwinGate;
  info: TestInfo;
  connection: string;
  clause: string;
  clientId: string;
  secret: Record<string, string>;
  to: string;
  started: Twin;
}): Promise<void> {
  const { cfg, flows, gate, info, connection, clause, clientId, secret, to, started } = o;
  const sent = cfg.auth.passwordlessOutboxUrl ? await codeSentTo(flows, cfg.auth.passwordlessOutboxUrl, to!) : null;
  const grant = (otp: string) =>
    flows.token({
      grant_type: PASSWORDLESS_OTP_GRANT,
      client_id: clientId,
      ...secret,
      username: to,
      otp,
      realm: connection,
      scope: 'openid',
    });
  const row = GRANT_ATTACKS.otpMadeUp;
  const wrong = await grant(madeUpCode(sent));
  if (sent !== null) {
    const right = await grant(sent);
    const twin = gate.all(started, gate.gave(tokenGave(clause, right.ex)));
    gate.refused(twin, OTP_CHECKED, wrong.ex, `the passwordless grant with ${row.what}`, {
      ...FLOW_GRANT,
      attack: row,
    });
    return;
  }
  // Without the code, only invalid_grant shows that the code was checked.
  const { error } = wrong.ex.answer;
  if (wrong.ex.answer.issued === null && wrong.ex.answer.class !== 'fault' && error !== 'invalid_grant') {
    const offered = error !== 'unsupported_grant_type' && error !== 'unauthorized_client';
    skipClauses(
      info,
      offered
        ? runSkip(
            { setting: 'IDM_PASSWORDLESS_OUTBOX_PATH' },
            `not judged: a made-up one-time code was answered ${wrong.ex.status} ${error ?? '(no error code)'}, which does not show the code was checked (only invalid_grant does); on a test tenant set IDM_PASSWORDLESS_OUTBOX_PATH`,
          )
        : tenantSkip(
            { answer: 'not-offered' },
            `not applicable: the tenant answered ${error} to the passwordless one-time-code grant (${connection}): it does not offer it to this client`,
          ),
      OTP_CHECKED,
    );
    gate.notMade(row, `answered ${wrong.ex.status} ${error ?? ''}: not judged`);
    return;
  }
  gate.refused(started, OTP_CHECKED, wrong.ex, `the passwordless grant with ${row.what} (invalid_grant only counts)`, {
    ...FLOW_GRANT,
    attack: row,
  });
}

/** The newest one-time code a test tenant's outbox shows for `to` (masked from then on), or null. */
async function codeSentTo(flows: Flows, outbox: string, to: string): Promise<string | null> {
  const ex = await flows.get(outbox, { to });
  const messages = isObject(ex.body) && Array.isArray(ex.body.messages) ? ex.body.messages : [];
  for (const m of messages) if (isObject(m) && typeof m.code === 'string') flows.secret(m.code);
  const mine = messages.filter((m) => isObject(m) && m.to === to && typeof m.code === 'string');
  const last = mine[mine.length - 1];
  return isObject(last) ? (last.code as string) : null;
}
