// The confidential client's authorization code (§4.3 "client ID and secret", no PKCE) and its
// binding: a code is bound to the client and redirect URI of its authorization request (RFC 6749
// §4.1.3), a code issued without a code_challenge cannot be redeemed with a code_verifier (RFC 9700
// §2.1.1: a PKCE downgrade), and a code gives a token once (§4.1.2). One login gives the code; the
// wrong exchanges come first, then the right one shows each met a live code
// (lib/auth/live-credential.ts); then the twin's code exchanged again is refused. A public client
// asking without PKCE is recorded as the tenant answers once it reads the request.
import { FLOW_GRANT } from '../../../lib/twin-gate.ts';
import { probeAuthorize } from '../../../lib/auth/probe.ts';
import { codesTaken, probeRecorded } from '../../../lib/auth/conditions.ts';
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../../../lib/declare.ts';
import { newState, pkcePair } from '../../../lib/auth/pkce.ts';
import { onLiveCredentials } from '../../../lib/auth/live-credential.ts';
import { codeFor, refusedOnLiveCodes, type WrongCode } from '../flows/flow-checks.ts';
import type { Flows } from '../../../lib/auth/flow-fixtures.ts';
import { attackRow, GRANT_ATTACKS } from '../../../lib/auth/attacks/catalogue.ts';
import { runSkip } from '../../../lib/skip-record.ts';
import { NO_REDIRECT_URI, NO_PUBLIC_CLIENT } from '../../../lib/auth/needs.ts';

const CONFIDENTIAL = 'auth.flow.code.confidential';
const REFUSALS = [
  'auth.flow.code.single-use',
  'auth.sec.pkce.no-downgrade',
  'auth.sec.code.bound-redirect-uri',
  'auth.sec.code.redirect-uri-required',
  'auth.sec.code.bound-client',
];

test.describe('authorization code binding', () => {
  test(
    'confidential client without PKCE: the code is refused with a code_verifier, another redirect_uri or another client, then gives a token once',
    clauses(OPERATIONS.authFlow, CONFIDENTIAL, ...REFUSALS, 'auth.flow.refusals'),
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
      const got = await codeFor(flows, gate, post!.id, redirectUri!, null);
      if (got.code === null)
        return void gate.skip(gate.accepted(CONFIDENTIAL, false, got.problem, got.problem), ...REFUSALS);
      const exchange = (code: string) => ({
        grant_type: 'authorization_code',
        client_id: post!.id,
        client_secret: post!.secret,
        code,
        redirect_uri: redirectUri!,
      });
      const wrong = wrongExchanges(flows, exchange, publicClientId, redirectUri!);
      // Each wrong exchange counts only on a live code (issue 40, item 4): the right exchange after
      // them shows the code survived them; where one spent or killed it (RFC 6749 §4.1.2 lets a
      // tenant), the later ones are sent again on a fresh login's code.
      const live = await onLiveCredentials({
        first: got.code,
        fresh: async () => (await codeFor(flows, gate, post!.id, redirectUri!, null)).code,
        genuine: (code) => flows.token(exchange(code)),
        attempts: wrong,
      });
      await gate.call(codesTaken, null, { codes: live.credentials, wrong: 'the wrong exchanges' });
      const twin = live.twin ?? (await flows.token(exchange(got.code)));
      const { note } = await flows.encoding();
      const accepted = await gate.issued(CONFIDENTIAL, twin.ex, 'code exchange with the client secret (no PKCE)', note);
      refusedOnLiveCodes(gate, accepted, live, wrong);
      if (!publicClientId)
        skipClauses(
          test.info(),
          runSkip(
            { setting: 'IDM_PUBLIC_CLIENT_ID' },
            'needs a second client to present the code: set IDM_PUBLIC_CLIENT_ID',
          ),
          'auth.sec.code.bound-client',
        );
      // Single use: the code that gave the twin's token, exchanged the same way again.
      if (!accepted.ok || live.twinCredential === null) return void gate.skip(accepted, 'auth.flow.code.single-use');
      const again = await flows.token(exchange(live.twinCredential));
      gate.refused(accepted, 'auth.flow.code.single-use', again.ex, 'the same code exchanged a second time', {
        ...FLOW_GRANT,
        attack: attackRow('authorization-code', 'reused'),
      });
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

/** The wrong exchanges of a confidential client's code, each a row of the attack catalogue, in the order sent. */
function wrongExchanges(
  flows: Flows,
  exchange: (code: string) => Record<string, string>,
  publicClientId: string | null,
  redirectUri: string,
): WrongCode[] {
  const missing = GRANT_ATTACKS.codeWithoutRedirectUri;
  const code = (attack: string) => attackRow('authorization-code', attack);
  return [
    {
      id: 'downgrade',
      what: 'a code issued without code_challenge, with a code_verifier',
      row: code('verifier-without-challenge'),
      send: (c) => flows.token({ ...exchange(c), code_verifier: pkcePair().verifier }),
    },
    {
      id: 'another redirect_uri',
      what: 'the code with another redirect_uri',
      row: code('other-redirect-uri'),
      send: (c) => flows.token({ ...exchange(c), redirect_uri: otherUri(redirectUri) }),
    },
    {
      // RFC 6749 §4.1.3: the request carried a redirect_uri, so the exchange must name it.
      id: 'no redirect_uri',
      what: `the code ${missing.what}`,
      row: missing,
      send: (c) => {
        const { redirect_uri: _sent, ...rest } = exchange(c);
        return flows.token(rest);
      },
    },
    // Another client: the public one, which authenticates by its client id alone (§5.2).
    ...(publicClientId
      ? [
          {
            id: 'another client',
            what: 'the code exchanged by the public client',
            row: code('other-client'),
            send: (c: string) =>
              flows.token({
                grant_type: 'authorization_code',
                client_id: publicClientId,
                code: c,
                redirect_uri: redirectUri,
              }),
          },
        ]
      : []),
  ];
}

/** The registered URI with an extra path segment: another redirect URI, for the exchange only. */
function otherUri(registered: string): string {
  const u = new URL(registered);
  u.pathname = `${u.pathname.replace(/\/$/, '')}/other`;
  return u.href;
}
