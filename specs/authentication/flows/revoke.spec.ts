// Revoke refresh token (§4.3: "client ID and secret"): a refresh token the suite obtained
// itself works (RFC 6749 §6), is revoked (RFC 7009 §2.2: 200), and then no longer works
// (RFC 7009 §2.1). Nothing is left behind: the token was the suite's own, obtained through the
// password grant or, where that gives none, the code flow.
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { describeEndpoint } from '../../../lib/auth/endpoints.ts';
import { newState } from '../../../lib/auth/pkce.ts';
import { tokenIssued } from './flow-checks.ts';

test(
  'a refresh token the suite obtained works, is revoked, and then no longer works',
  clauses(
    OPERATIONS.authFlow,
    'auth.flow.refresh',
    'auth.flow.revoke',
    'auth.flow.revoke.effective',
    'auth.flow.refusals',
    'auth.api.post-json',
    'auth.api.named-flows',
  ),
  async ({ run, flows, check }) => {
    const { post, redirectUri } = run.cfg.auth;
    // Through the password grant; where it gives no refresh token, through the code flow in the browser.
    let obtained = (await flows.passwordGrant('openid offline_access')).refreshToken;
    if (!obtained && redirectUri) {
      const out = await flows.authorize(
        await flows.endpoint('authorize'),
        {
          response_type: 'code',
          client_id: post!.id,
          redirect_uri: redirectUri,
          scope: 'openid offline_access',
          state: newState(),
        },
        [redirectUri],
      );
      if (out.params.code)
        obtained = (
          await flows.token({
            grant_type: 'authorization_code',
            client_id: post!.id,
            client_secret: post!.secret,
            code: out.params.code,
            redirect_uri: redirectUri,
          })
        ).refreshToken;
    }
    test.skip(
      !obtained,
      'neither the password grant nor the code flow with scope offline_access gave a refresh_token: allow offline access for the Post client (IDM_POST_CLIENT_ID) on the tenant',
    );
    const client = post!;
    const refresh = (token: string) =>
      flows.token({
        grant_type: 'refresh_token',
        client_id: client.id,
        client_secret: client.secret,
        refresh_token: token,
      });

    const before = await refresh(obtained!);
    check.that(
      'auth.flow.refresh',
      tokenIssued(before),
      `refresh_token grant answered ${before.ex.status}${before.accessToken ? '' : ' without an access_token'}`,
      before.ex,
    );
    // With rotation the answer carries the refresh token now current; that is the one revoked.
    const current = before.refreshToken ?? obtained!;

    const e = await flows.endpoint('revoke');
    const revoked = await flows.post(e.url, {
      client_id: client.id,
      client_secret: client.secret,
      token: current,
      token_type_hint: 'refresh_token',
    });
    flows.skipIfAbsent(e, revoked);
    check.that(
      'auth.flow.revoke',
      revoked.status === 200,
      `revocation with the client ID and secret answered ${revoked.status}, expected 200`,
      revoked,
    );
    // §4.3: the revocation was a JSON body; its acceptance is the JSON convention at this endpoint.
    check.that(
      'auth.api.post-json',
      revoked.status >= 200 && revoked.status < 300,
      `POST ${new URL(e.url).pathname} with a JSON body answered ${revoked.status}`,
      revoked,
    );
    check.observe('auth.api.named-flows', `revoke refresh token: ${describeEndpoint(e)}`);

    const after = await refresh(current);
    flows.refusal('auth.flow.revoke.effective', after, 'the revoked refresh token');
  },
);
