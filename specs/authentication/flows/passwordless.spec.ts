// Passwordless (§4.3: connection `sms` or `email`): the spec shows no path, payload or answer
// and names no standard, so the start request is sent as tenants of this kind take it and the
// answer is recorded. On a real tenant it sends a real e-mail or SMS: opt-in only.
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../../../lib/declare.ts';
import { answerOf, endpointOf, jsonBodyRead } from '../../../lib/auth/conditions.ts';
import { notOfferedSkip, optInSkip } from '../../../lib/config.ts';
import { runSkip } from '../../../lib/skip-record.ts';

for (const connection of ['email', 'sms'] as const) {
  const clause = `auth.flow.passwordless.${connection}`;
  test(
    `passwordless start with connection ${connection}: answer recorded`,
    clauses(OPERATIONS.authFlow, clause, 'auth.api.post-json', 'auth.api.named-flows'),
    async ({ run, flows, check }) => {
      const { cfg } = run;
      const off = notOfferedSkip(cfg, 'passwordless');
      skipTest(off);
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
      const secret = cfg.auth.publicClientId ? {} : { client_secret: cfg.auth.post!.secret };
      const ex = await flows.post(e.url, {
        client_id: clientId,
        ...secret,
        connection,
        ...(connection === 'email' ? { email: to } : { phone_number: to }),
        send: 'code',
      });
      flows.stopIfAbsent(e, ex);
      answerOf(check, clause, `passwordless start (${connection}, send code)`, ex);
      endpointOf(check, `passwordless (${connection})`, e);
      // §4.3 JSON convention: a 2xx is its acceptance, a 415 its refusal; other answers say nothing
      // about it, nor does a form body sent because JSON was refused (auth.api.post-json said so once).
      if ((await flows.encoding()).encoding === 'json') jsonBodyRead(check, ex, e.url, false);
    },
  );
}
