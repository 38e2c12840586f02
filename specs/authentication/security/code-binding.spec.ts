// The confidential client's authorization code (§4.3 "client ID and secret", no PKCE) and its
// binding: a code is bound to the client and redirect URI of its authorization request (RFC
// 6749 §4.1.3), a code issued without a code_challenge cannot be redeemed with a code_verifier
// (RFC 9700 §2.1.1: a PKCE downgrade), and a code gives a token once (§4.1.2). One login gives
// the code; the wrong exchanges come first (among them the one without the redirect_uri the
// request carried, RFC 6749 §4.1.3), then the right exchange shows the code survived them, so each
// met a live code; where one spent or killed it, the ones after it are sent again on a fresh
// login's code (lib/auth/live-credential.ts). Then the twin's code exchanged again is refused. A
// public client asking without PKCE is recorded as the tenant answers once it reads the request.
import { FLOW_GRANT } from '../../../lib/twin-gate.ts';
import { probeAuthorize } from '../../../lib/auth/probe.ts';
import { codesTaken, probeRecorded } from '../../../lib/auth/conditions.ts';
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../../../lib/declare.ts';
import { newState, pkcePair } from '../../../lib/auth/pkce.ts';
import { onLiveCredentials } from '../../../lib/auth/live-credential.ts';
import { codeFor } from '../flows/flow-checks.ts';
import { attackRow, GRANT_ATTACKS, type AttackRow } from '../../../lib/auth/attacks/catalogue.ts';
import { runSkip } from '../../../lib/skip-record.ts';
import { NO_REDIRECT_URI, NO_PUBLIC_CLIENT } from '../../../lib/auth/needs.ts';

const CONFIDENTIAL = 'auth.flow.code.confidential';
const DOWNGRADE = 'downgrade';
const ELSEWHERE = 'another redirect_uri';
const NO_URI = 'no redirect_uri';
const OTHER_CLIENT = 'another client';

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
    async ({ run, flows, gate }) => {
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
      const got = await codeFor(flows, gate, post!.id, redirectUri!, null);
      if (got.code === null) {
        gate.skip(gate.accepted(CONFIDENTIAL, false, got.problem, got.problem), ...refusals);
        return;
      }
      const exchange = (code: string) => ({
        grant_type: 'authorization_code',
        client_id: post!.id,
        client_secret: post!.secret,
        code,
        redirect_uri: redirectUri!,
      });
      // RFC 6749 §4.1.3: the request carried a redirect_uri, so the exchange must name it.
      const withoutUri = (code: string) => {
        const { redirect_uri: _sent, ...rest } = exchange(code);
        return rest;
      };
      // Each wrong exchange counts only on a live code (issue 40, item 4): the right exchange after
      // them shows the code survived them; where one spent or killed it (RFC 6749 §4.1.2 lets a
      // tenant), the later ones are sent again on a fresh login's code.
      const live = await onLiveCredentials({
        first: got.code,
        fresh: async () => (await codeFor(flows, gate, post!.id, redirectUri!, null)).code,
        genuine: (code) => flows.token(exchange(code)),
        attempts: [
          { id: DOWNGRADE, send: (code) => flows.token({ ...exchange(code), code_verifier: pkcePair().verifier }) },
          { id: ELSEWHERE, send: (code) => flows.token({ ...exchange(code), redirect_uri: otherUri(redirectUri!) }) },
          { id: NO_URI, send: (code) => flows.token(withoutUri(code)) },
          // Another client: the public one, which authenticates by its client id alone (§5.2).
          ...(publicClientId
            ? [
                {
                  id: OTHER_CLIENT,
                  send: (code: string) =>
                    flows.token({
                      grant_type: 'authorization_code',
                      client_id: publicClientId,
                      code,
                      redirect_uri: redirectUri!,
                    }),
                },
              ]
            : []),
        ],
      });
      await gate.call(codesTaken, null, { codes: live.credentials, wrong: 'the wrong exchanges' });
      const twin = live.twin ?? (await flows.token(exchange(got.code)));
      const { note } = await flows.encoding();
      const accepted = await gate.issued(CONFIDENTIAL, twin.ex, 'code exchange with the client secret (no PKCE)', note);
      // An attempt no fresh code was had for is not judged: the login that would have given one failed.
      const judge = (id: string, clause: string, what: string, row: AttackRow) => {
        const answer = live.answers.get(id);
        if (answer === undefined)
          return skipClauses(
            test.info(),
            runSkip({ answer: 'refused' }, `not judged: no live code to present ${what} on (a fresh login gave none)`),
            clause,
          );
        gate.refused(accepted, clause, answer.ex, what, { ...FLOW_GRANT, attack: row });
      };
      judge(
        DOWNGRADE,
        'auth.sec.pkce.no-downgrade',
        'a code issued without code_challenge, with a code_verifier',
        attackRow('authorization-code', 'verifier-without-challenge'),
      );
      judge(
        ELSEWHERE,
        'auth.sec.code.bound-redirect-uri',
        'the code with another redirect_uri',
        attackRow('authorization-code', 'other-redirect-uri'),
      );
      const missing = GRANT_ATTACKS.codeWithoutRedirectUri;
      judge(NO_URI, missing.clause, `the code ${missing.what}`, missing);
      if (!publicClientId)
        skipClauses(
          test.info(),
          runSkip(
            { setting: 'IDM_PUBLIC_CLIENT_ID' },
            'needs a second client to present the code: set IDM_PUBLIC_CLIENT_ID',
          ),
          'auth.sec.code.bound-client',
        );
      else
        judge(
          OTHER_CLIENT,
          'auth.sec.code.bound-client',
          'the code exchanged by the public client',
          attackRow('authorization-code', 'other-client'),
        );
      // Single use: the code that gave the twin's token, exchanged the same way again.
      if (!accepted.ok || live.twinCredential === null) gate.skip(accepted, 'auth.flow.code.single-use');
      else {
        const again = await flows.token(exchange(live.twinCredential));
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
    async ({ run, flows, gate, anon }) => {
      const { publicClientId, redirectUri } = run.cfg.auth;
      skipTest(!publicClientId && NO_PUBLIC_CLIENT);
      skipTest(!redirectUri && NO_REDIRECT_URI);
      // Recorded as the tenant answers once it reads the request: through its login where it shows
      // that first (issue 40, item 3), else at once.
      const p = await probeAuthorize(
        flows,
        anon,
        await flows.endpoint('authorize'),
        {
          response_type: 'code',
          client_id: publicClientId!,
          redirect_uri: redirectUri!,
          scope: 'openid',
          state: newState(),
        },
        [redirectUri!],
      );
      const what = 'an authorization request without code_challenge';
      await gate.call(probeRecorded('auth.sec.pkce.public-without'), null, { what, probe: p });
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
