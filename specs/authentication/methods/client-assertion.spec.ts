// §5.2 "Client ID and client assertion": a valid signed assertion of the private_key_jwt
// client obtains a token; one broken at a time (RFC 7523 §3: aud, exp, iss = sub, sub, the
// registered key, a real signature) is refused with a 4xx and an error object. Whether a
// used jti may be reused is left open: recorded.
import { randomUUID } from 'node:crypto';
import { test } from '../../../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { ASSERTION_FAULTS, assertionBody, clientAssertion, type AssertionFault } from '../../../lib/auth/target.ts';
import { expectIssued, issued, requireAccepted } from '../../../lib/auth/acceptance.ts';
import { authEncoding, authPost } from '../../../lib/auth/encoding.ts';
import { CLIENT_AUTH_REFUSAL_CLAUSES, expectClientAuthRefusal } from '../../../lib/auth/checks.ts';
import { recordAuthError } from '../../../lib/auth/error-records.ts';

const SKIP = 'needs a private_key_jwt client: set IDM_PKJWT_CLIENT_ID and IDM_PKJWT_KEY_FILE';

test.describe('client ID and client assertion (§5.2, RFC 7523)', () => {
  test(
    'a valid assertion obtains a token; a replayed jti is recorded',
    clauses(
      OPERATIONS.authMethod,
      'auth.method.client-assertion',
      'auth.token.answer',
      'auth.method.client-assertion.replay',
      'auth.method.param-names',
    ),
    async ({ run, anon, check }, info) => {
      const { cfg } = run;
      test.skip(!cfg.auth.pkjwt, SKIP);
      const enc = await authEncoding(cfg, anon);
      const jti = randomUUID();
      const ok = await authPost(
        anon,
        enc,
        cfg.auth.tokenUrl,
        assertionBody(cfg, await clientAssertion(cfg, undefined, jti)),
      );
      await expectIssued(
        check,
        'auth.method.client-assertion',
        ok,
        `a signed client assertion (aud ${cfg.auth.assertionAudience}, ${cfg.auth.targetsFrom.assertionAudience})`,
        enc.note,
      );
      check.observe(
        'auth.method.param-names',
        `client_id, client_assertion_type and client_assertion in a ${enc.encoding === 'json' ? 'JSON' : 'form'} body answered ${ok.status}`,
      );
      requireAccepted(info, 'auth.method.client-assertion', ok);
      const again = await authPost(
        anon,
        enc,
        cfg.auth.tokenUrl,
        assertionBody(cfg, await clientAssertion(cfg, undefined, jti)),
      );
      recordAuthError(info, again);
      check.observe(
        'auth.method.client-assertion.replay',
        `a second assertion with the same jti answered ${again.status}${issued(again) ? ' with a token (replay accepted)' : ''}`,
        again,
      );
    },
  );

  test(
    'an invalid assertion is refused: wrong aud, expired, iss ≠ sub, no sub, unregistered key, alg none',
    clauses(OPERATIONS.authMethod, 'auth.method.client-assertion.refused', ...CLIENT_AUTH_REFUSAL_CLAUSES),
    async ({ run, anon, check }, info) => {
      const { cfg } = run;
      test.skip(!cfg.auth.pkjwt, SKIP);
      const enc = await authEncoding(cfg, anon);
      const right = await authPost(anon, enc, cfg.auth.tokenUrl, assertionBody(cfg, await clientAssertion(cfg)));
      requireAccepted(info, 'auth.method.client-assertion', right);
      for (const fault of Object.keys(ASSERTION_FAULTS) as AssertionFault[]) {
        const ex = await authPost(anon, enc, cfg.auth.tokenUrl, assertionBody(cfg, await clientAssertion(cfg, fault)));
        expectClientAuthRefusal(
          check,
          info,
          'auth.method.client-assertion.refused',
          ex,
          `a client assertion ${ASSERTION_FAULTS[fault]}`,
        );
      }
    },
  );
});
