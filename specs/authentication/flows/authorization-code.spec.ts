// Authorization code exchange with and without a PKCE code verifier (§4.3), through the login
// page in Chromium (lib/login-page.ts): RFC 6749 §4.1 for the round trip (code and state at
// the redirect URI, code exchanged once), RFC 7636 §4.6 for the verifier check.
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { describeEndpoint } from '../../../lib/auth/endpoints.ts';
import { newState, pkcePair, type PkcePair } from '../../../lib/auth/pkce.ts';
import type { Flows } from '../../../lib/auth/flow-fixtures.ts';
import type { Checks } from '../../../lib/checks.ts';
import { publicClient, tokenIssued } from './flow-checks.ts';

test.describe('authorization code through the login page', () => {
  test(
    'with PKCE (public client): code and state come back, the code and its verifier give a token',
    clauses(OPERATIONS.authFlow, 'auth.flow.code.pkce', 'auth.method.client-id-only', 'auth.api.named-flows'),
    async ({ run, flows, check }) => {
      const { clientId, redirectUri } = publicClient(run.cfg);
      const pair = pkcePair();
      const code = await codeFor(flows, check, 'auth.flow.code.pkce', clientId, redirectUri, pair);
      if (code === null) return;
      const t = await flows.token({
        grant_type: 'authorization_code',
        client_id: clientId,
        code,
        redirect_uri: redirectUri,
        code_verifier: pair.verifier,
      });
      check.that(
        'auth.flow.code.pkce',
        tokenIssued(t),
        `code exchange with its code_verifier (client ID only) answered ${t.ex.status}${t.accessToken ? '' : ' without an access_token'}`,
        t.ex,
      );
      // §5.2 "client ID only, for public applications": this exchange is that method (9B's clause).
      check.that(
        'auth.method.client-id-only',
        t.ex.status >= 200 && t.ex.status < 300 && t.accessToken !== null,
        `the public client's code exchange with its client ID alone answered ${t.ex.status}`,
        t.ex,
      );
    },
  );

  for (const [clause, what, verifier] of [
    ['auth.flow.code.pkce.wrong-verifier', 'another code_verifier', () => pkcePair().verifier],
    ['auth.flow.code.pkce.missing-verifier', 'no code_verifier', () => undefined],
  ] as const) {
    test(
      `with PKCE: the code is refused with ${what}`,
      clauses(OPERATIONS.authFlow, clause, 'auth.flow.refusals'),
      async ({ run, flows, check }) => {
        const { clientId, redirectUri } = publicClient(run.cfg);
        const code = await codeFor(flows, check, clause, clientId, redirectUri, pkcePair());
        if (code === null) return;
        const v = verifier();
        const t = await flows.token({
          grant_type: 'authorization_code',
          client_id: clientId,
          code,
          redirect_uri: redirectUri,
          ...(v ? { code_verifier: v } : {}),
        });
        flows.refusal(clause, t, `code exchange with ${what}`);
      },
    );
  }

  test(
    'without PKCE (confidential client): the code and the client secret give a token, once',
    clauses(OPERATIONS.authFlow, 'auth.flow.code.confidential', 'auth.flow.code.single-use', 'auth.flow.refusals'),
    async ({ run, flows, check }) => {
      const { post, redirectUri } = run.cfg.auth;
      test.skip(
        !post,
        'needs a confidential client allowed the code flow: set IDM_POST_CLIENT_ID and IDM_POST_CLIENT_SECRET',
      );
      test.skip(!redirectUri, 'needs a redirect URI registered for the clients: set IDM_REDIRECT_URI');
      const code = await codeFor(flows, check, 'auth.flow.code.confidential', post!.id, redirectUri!, null);
      if (code === null) return;
      const exchange = {
        grant_type: 'authorization_code',
        client_id: post!.id,
        client_secret: post!.secret,
        code,
        redirect_uri: redirectUri!,
      };
      const t = await flows.token(exchange);
      check.that(
        'auth.flow.code.confidential',
        tokenIssued(t),
        `code exchange with the client secret (no PKCE) answered ${t.ex.status}${t.accessToken ? '' : ' without an access_token'}`,
        t.ex,
      );
      const again = await flows.token(exchange);
      flows.refusal('auth.flow.code.single-use', again, 'the same code exchanged a second time');
    },
  );
});

// Helpers

/**
 * Logs in through the login page for a code (RFC 6749 §4.1.1) and checks the redirect carries
 * it and the state sent (§4.1.2) under `clause`; null when the round trip failed.
 */
async function codeFor(
  flows: Flows,
  check: Checks,
  clause: string,
  clientId: string,
  redirectUri: string,
  pair: PkcePair | null,
): Promise<string | null> {
  const e = await flows.endpoint('authorize');
  const state = newState();
  const params: Record<string, string> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    scope: 'openid profile',
    state,
  };
  if (pair) Object.assign(params, { code_challenge: pair.challenge, code_challenge_method: pair.method });
  const out = await flows.authorize(e, params, [redirectUri]);
  check.observe('auth.api.named-flows', `authorization code${pair ? ' with PKCE' : ''}: ${describeEndpoint(e)}`);
  const code = out.params.code ?? null;
  const ok = out.callback !== null && code !== null && out.params.state === state;
  const seen = out.callback
    ? `the redirect URI received ${['code', 'state', 'error'].filter((k) => k in out.params).join(', ') || 'no parameters'}${out.params.state !== undefined && out.params.state !== state ? ' (another state)' : ''}${out.params.error ? ` (error ${out.params.error})` : ''}`
    : (out.problem ?? 'no redirect');
  if (!ok) check.that(clause, false, `authorization request for client ${clientId}: ${seen}`);
  return ok ? code : null;
}
