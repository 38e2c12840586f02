// The confidential client's authorization code (§4.3 "client ID and secret", no PKCE) and its
// binding: a code is bound to the client and redirect URI of its authorization request (RFC
// 6749 §4.1.3), a code issued without a code_challenge cannot be redeemed with a code_verifier
// (RFC 9700 §2.1.1: a PKCE downgrade), and a code gives a token once (§4.1.2). One login gives
// the code; the refusals come first (among them the exchange without the redirect_uri the request
// carried, RFC 6749 §4.1.3), then the right exchange shows whether the code survived
// them (else a fresh login's right exchange is the accepted twin), then the same exchange again
// is refused. A public client asking without PKCE is recorded (RFC 9700 §2.1.1).
import { BROWSER_ACCEPT } from '../../../lib/auth/login-page.ts';
import { FLOW_GRANT } from '../../../lib/twin-gate.ts';
import { answerOf } from '../../../lib/auth/conditions.ts';
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../../../lib/declare.ts';
import { newState, pkcePair } from '../../../lib/auth/pkce.ts';
import { issued } from '../../../lib/auth/acceptance.ts';
import { codeFor } from '../flows/flow-checks.ts';
import { attackRow, GRANT_ATTACKS } from '../../../lib/auth/attacks/catalogue.ts';
import { runSkip } from '../../../lib/skip-record.ts';
import { NO_REDIRECT_URI, NO_PUBLIC_CLIENT } from '../../../lib/auth/needs.ts';

const CONFIDENTIAL = 'auth.flow.code.confidential';

test.describe('authorization code binding', () => {
  test(
    'confidential client without PKCE: the code is refused with a code_verifier, another redirect_uri or another client, then gives a token once',
    clauses(
      OPERATIONS.authFlow,
      CONFIDENTIAL,
      'auth.flow.code.single-use',
      'auth.sec.pkce.no-downgrade',
      'auth.sec.code.bound-redirect-uri',
      'auth.sec.code.redirect-uri-required',
      'auth.sec.code.bound-client',
      'auth.flow.refusals',
    ),
    async ({ run, flows, check, gate }) => {
      const { post, publicClientId, redirectUri } = run.cfg.auth;
      skipTest(
        !post &&
          runSkip(
            { setting: 'IDM_POST_CLIENT_ID' },
            'needs a confidential client allowed the code flow: set IDM_POST_CLIENT_ID and IDM_POST_CLIENT_SECRET',
          ),
      );
      skipTest(!redirectUri && NO_REDIRECT_URI);
      const refusals = [
        'auth.flow.code.single-use',
        'auth.sec.pkce.no-downgrade',
        'auth.sec.code.bound-redirect-uri',
        'auth.sec.code.redirect-uri-required',
        'auth.sec.code.bound-client',
      ];
      const got = await codeFor(flows, check, post!.id, redirectUri!, null);
      if (got.code === null) {
        gate.skip(gate.accepted(CONFIDENTIAL, false, got.problem, got.problem), ...refusals);
        return;
      }
      const exchange = {
        grant_type: 'authorization_code',
        client_id: post!.id,
        client_secret: post!.secret,
        code: got.code,
        redirect_uri: redirectUri!,
      };
      // The refusals are sent first (the code is single-use) and judged only once the same code,
      // exchanged right, is accepted; a tenant may let a misused code die (RFC 6749 §4.1.2), so
      // then a fresh login's right exchange is the accepted twin.
      const downgrade = await flows.token({ ...exchange, code_verifier: pkcePair().verifier });
      const elsewhere = await flows.token({ ...exchange, redirect_uri: otherUri(redirectUri!) });
      // RFC 6749 §4.1.3: the request carried a redirect_uri, so the exchange must name it.
      const { redirect_uri: _sent, ...withoutUri } = exchange;
      const noUri = await flows.token(withoutUri);
      // Another client: the public one, which authenticates by its client id alone (§5.2).
      const other = publicClientId
        ? await flows.token({
            grant_type: 'authorization_code',
            client_id: publicClientId,
            code: got.code,
            redirect_uri: redirectUri!,
          })
        : null;
      const right = await flows.token(exchange);
      check.observe(
        'auth.flow.refusals',
        `the right exchange after those refusals answered ${right.ex.status}${right.accessToken ? ' with a token (the code survived them)' : ' (the tenant let the refusals consume the code)'}`,
        right.ex,
      );
      let twin = right;
      let twinCode = got.code;
      if (!issued(right.ex)) {
        const again = await codeFor(flows, check, post!.id, redirectUri!, null);
        if (again.code !== null) {
          twinCode = again.code;
          twin = await flows.token({ ...exchange, code: again.code });
        }
      }
      const { note } = await flows.encoding();
      const accepted = await gate.issued(CONFIDENTIAL, twin.ex, 'code exchange with the client secret (no PKCE)', note);
      gate.refused(
        accepted,
        'auth.sec.pkce.no-downgrade',
        downgrade.ex,
        'a code issued without code_challenge, with a code_verifier',
        { ...FLOW_GRANT, attack: attackRow('authorization-code', 'verifier-without-challenge') },
      );
      gate.refused(accepted, 'auth.sec.code.bound-redirect-uri', elsewhere.ex, 'the code with another redirect_uri', {
        ...FLOW_GRANT,
        attack: attackRow('authorization-code', 'other-redirect-uri'),
      });
      const missing = GRANT_ATTACKS.codeWithoutRedirectUri;
      gate.refused(accepted, missing.clause, noUri.ex, `the code ${missing.what}`, { ...FLOW_GRANT, attack: missing });
      if (other === null)
        skipClauses(
          test.info(),
          runSkip(
            { setting: 'IDM_PUBLIC_CLIENT_ID' },
            'needs a second client to present the code: set IDM_PUBLIC_CLIENT_ID',
          ),
          'auth.sec.code.bound-client',
        );
      else
        gate.refused(accepted, 'auth.sec.code.bound-client', other.ex, 'the code exchanged by the public client', {
          ...FLOW_GRANT,
          attack: attackRow('authorization-code', 'other-client'),
        });
      // Single use: the code that gave the twin's token, exchanged the same way again.
      if (!accepted.ok) gate.skip(accepted, 'auth.flow.code.single-use');
      else {
        const again = await flows.token({ ...exchange, code: twinCode });
        gate.refused(accepted, 'auth.flow.code.single-use', again.ex, 'the same code exchanged a second time', {
          ...FLOW_GRANT,
          attack: attackRow('authorization-code', 'reused'),
        });
      }
    },
  );
});

test.describe('authorization code binding', () => {
  test(
    "a public client's authorization request without code_challenge: the answer is recorded",
    clauses(OPERATIONS.authFlow, 'auth.sec.pkce.public-without'),
    async ({ run, flows, check, anon }) => {
      const { publicClientId, redirectUri } = run.cfg.auth;
      skipTest(!publicClientId && NO_PUBLIC_CLIENT);
      skipTest(!redirectUri && NO_REDIRECT_URI);
      const e = await flows.endpoint('authorize');
      const u = new URL(e.url);
      for (const [k, v] of Object.entries({
        response_type: 'code',
        client_id: publicClientId!,
        redirect_uri: redirectUri!,
        scope: 'openid',
        state: newState(),
      }))
        u.searchParams.set(k, v);
      const ex = await anon.send('GET', u.toString(), { headers: { accept: BROWSER_ACCEPT } });
      flows.stopIfAbsent(e, ex);
      const location = ex.headers.location;
      const error = location ? new URL(location, u).searchParams.get('error') : null;
      answerOf(
        check,
        'auth.sec.pkce.public-without',
        'an authorization request without code_challenge',
        ex,
        location ? (error ? ` (error ${error})` : ' (no error)') : '',
      );
    },
  );
});

// Helpers

/** The registered URI with an extra path segment: another redirect URI, for the exchange only. */
function otherUri(registered: string): string {
  const u = new URL(registered);
  u.pathname = `${u.pathname.replace(/\/$/, '')}/other`;
  return u.href;
}
