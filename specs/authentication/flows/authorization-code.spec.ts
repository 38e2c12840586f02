// Authorization code exchange with and without a PKCE code verifier (§4.3), through the login
// page in Chromium (lib/auth/login-page.ts): RFC 6749 §4.1 for the round trip (code and state
// at the redirect URI, code exchanged once), RFC 7636 §4.6 for the verifier check. Each refusal
// is judged only beside the same exchange made right, accepted in the same test.
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { describeEndpoint } from '../../../lib/auth/endpoints.ts';
import { newState, pkcePair, type PkcePair } from '../../../lib/auth/pkce.ts';
import { expectIssued, failureCause, issued, notExercised, skipClauses } from '../../../lib/auth/acceptance.ts';
import type { Flows } from '../../../lib/auth/flow-fixtures.ts';
import type { Checks } from '../../../lib/checks.ts';
import { publicClient } from './flow-checks.ts';

test.describe('authorization code through the login page', () => {
  test(
    'with PKCE (public client): code and state come back, the code and its verifier give a token',
    clauses(
      OPERATIONS.authFlow,
      'auth.flow.code.pkce',
      'auth.token.answer',
      'auth.method.client-id-only',
      'auth.api.named-flows',
    ),
    async ({ run, flows, check }) => {
      const { clientId, redirectUri } = publicClient(run.cfg);
      const pair = pkcePair();
      const got = await codeFor(flows, check, clientId, redirectUri, pair);
      if (got.code === null) {
        check.that('auth.flow.code.pkce', false, got.problem);
        skipClauses(test.info(), notExercised('auth.flow.code.pkce', got.problem), 'auth.method.client-id-only');
        return;
      }
      const { note } = await flows.encoding();
      const t = await flows.token({
        grant_type: 'authorization_code',
        client_id: clientId,
        code: got.code,
        redirect_uri: redirectUri,
        code_verifier: pair.verifier,
      });
      await expectIssued(
        check,
        'auth.flow.code.pkce',
        t.ex,
        'code exchange with its code_verifier (client ID only)',
        note,
      );
      // §5.2 "client ID only, for public applications": this exchange is that method.
      check.that(
        'auth.method.client-id-only',
        issued(t.ex),
        `the public client's code exchange with its client ID alone ${issued(t.ex) ? `answered ${t.ex.status} with a token` : failureCause(t.ex)}${note}`,
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
        const exchange = (code: string, v: string | undefined) =>
          flows.token({
            grant_type: 'authorization_code',
            client_id: clientId,
            code,
            redirect_uri: redirectUri,
            ...(v ? { code_verifier: v } : {}),
          });
        // The accepted twin: a code of its own exchanged with its verifier.
        const twin = pkcePair();
        const first = await codeFor(flows, check, clientId, redirectUri, twin);
        test.skip(first.code === null, notExercised('auth.flow.code.pkce', first.problem ?? ''));
        const right = await exchange(first.code!, twin.verifier);
        test.skip(!issued(right.ex), notExercised('auth.flow.code.pkce', failureCause(right.ex)));
        const got = await codeFor(flows, check, clientId, redirectUri, pkcePair());
        test.skip(got.code === null, notExercised('auth.flow.code.pkce', got.problem ?? ''));
        flows.refusal(clause, await exchange(got.code!, verifier()), `code exchange with ${what}`);
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
      const got = await codeFor(flows, check, post!.id, redirectUri!, null);
      if (got.code === null) {
        check.that('auth.flow.code.confidential', false, got.problem);
        skipClauses(test.info(), notExercised('auth.flow.code.confidential', got.problem), 'auth.flow.code.single-use');
        return;
      }
      const exchange = {
        grant_type: 'authorization_code',
        client_id: post!.id,
        client_secret: post!.secret,
        code: got.code,
        redirect_uri: redirectUri!,
      };
      const { note } = await flows.encoding();
      const t = await flows.token(exchange);
      if (
        !(await expectIssued(
          check,
          'auth.flow.code.confidential',
          t.ex,
          'code exchange with the client secret (no PKCE)',
          note,
        ))
      ) {
        skipClauses(
          test.info(),
          notExercised('auth.flow.code.confidential', failureCause(t.ex)),
          'auth.flow.code.single-use',
        );
        return;
      }
      const again = await flows.token(exchange);
      flows.refusal('auth.flow.code.single-use', again, 'the same code exchanged a second time');
    },
  );
});

// Helpers

/**
 * Logs in through the login page for a code (RFC 6749 §4.1.1); the code when the redirect
 * carries it and the state sent (§4.1.2), else what happened instead (the redirect chain).
 */
async function codeFor(
  flows: Flows,
  check: Checks,
  clientId: string,
  redirectUri: string,
  pair: PkcePair | null,
): Promise<{ code: string; problem: null } | { code: null; problem: string }> {
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
  if (out.callback !== null && code !== null && out.params.state === state) return { code, problem: null };
  const seen = out.callback
    ? `the redirect URI received ${['code', 'state', 'error'].filter((k) => k in out.params).join(', ') || 'no parameters'}${out.params.state !== undefined && out.params.state !== state ? ' (another state)' : ''}${out.params.error ? ` (error ${out.params.error})` : ''}`
    : (out.problem ?? 'no redirect');
  return { code: null, problem: `authorization request for client ${clientId}: ${seen}` };
}
