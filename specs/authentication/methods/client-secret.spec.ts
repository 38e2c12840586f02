// §5.2 "Client ID and client secret" (Post in the JSON body, Basic in the header) and the
// confidential application that sends its client ID alone. Each configured client: the right
// credentials obtain a token, every wrong variant is refused with a 4xx and an error object
// (status and error code recorded: RFC 6749 §5.2 says 400/401, tenants of this kind use 403 too).
import { test } from '../../../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { basicAuthorization, issuedToken, needsFormEncoding } from '../../../lib/auth/target.ts';
import { CLIENT_AUTH_REFUSAL_CLAUSES, expectClientAuthRefusal } from '../../../lib/auth/checks.ts';

test.describe('client ID and client secret (§5.2)', () => {
  test(
    'Post: the secret in the JSON body obtains a token; a wrong secret is refused',
    clauses(
      OPERATIONS.authMethod,
      'auth.method.client-secret-post',
      'auth.api.post-json',
      'auth.token.answer',
      ...CLIENT_AUTH_REFUSAL_CLAUSES,
    ),
    async ({ run, anon, check }, info) => {
      const { cfg } = run;
      const post = cfg.auth.post;
      test.skip(!post, 'needs a client_secret_post client: set IDM_POST_CLIENT_ID and IDM_POST_CLIENT_SECRET');
      const body = (secret: string) => ({
        grant_type: 'client_credentials',
        client_id: post!.id,
        client_secret: secret,
        audience: cfg.audience,
      });
      const ok = await anon.send('POST', cfg.auth.tokenUrl, { data: body(post!.secret) });
      check.that(
        'auth.method.client-secret-post',
        issuedToken(ok) !== null,
        `client_id and client_secret in a JSON body answered ${ok.status}${issuedToken(ok) ? ' with an access_token' : ''}`,
        ok,
      );
      check.that(
        'auth.api.post-json',
        issuedToken(ok) !== null,
        `a JSON token request (Post client) answered ${ok.status}`,
        ok,
      );
      if (ok.status >= 200 && ok.status < 300)
        await check.expectSchema('auth.token.answer', 'TokenResponse', ok.body, ok);
      const wrong = await anon.send('POST', cfg.auth.tokenUrl, { data: body(`${post!.secret}-wrong`) });
      expectClientAuthRefusal(check, info, 'auth.method.client-secret-post', wrong, 'Post with a wrong client secret');
    },
  );

  test(
    'Basic: the header obtains a token; a wrong secret and a wrong client id are refused',
    clauses(
      OPERATIONS.authMethod,
      'auth.method.client-secret-basic',
      'auth.method.client-secret-basic.form-encoded',
      'auth.token.answer',
      ...CLIENT_AUTH_REFUSAL_CLAUSES,
    ),
    async ({ run, anon, check }, info) => {
      const { cfg } = run;
      const basic = cfg.auth.basic;
      test.skip(!basic, 'needs a client_secret_basic client: set IDM_BASIC_CLIENT_ID and IDM_BASIC_CLIENT_SECRET');
      const send = (authorization: string) =>
        anon
          .withAuthorization('basic-client', authorization)
          .send('POST', cfg.auth.tokenUrl, { data: { grant_type: 'client_credentials', audience: cfg.audience } });
      const ok = await send(basicAuthorization(basic!.id, basic!.secret));
      const token = issuedToken(ok);
      check.that(
        'auth.method.client-secret-basic',
        token !== null,
        `Authorization: Basic answered ${ok.status}${token ? ' with an access_token' : ''}`,
        ok,
      );
      if (token) await check.expectSchema('auth.token.answer', 'TokenResponse', ok.body, ok);
      if (needsFormEncoding(basic!.id) || needsFormEncoding(basic!.secret)) {
        check.that(
          'auth.method.client-secret-basic.form-encoded',
          token !== null,
          `a Basic header with the form-encoded id and secret (RFC 6749 §2.3.1) answered ${ok.status}`,
          ok,
        );
      }
      const wrongSecret = await send(basicAuthorization(basic!.id, `${basic!.secret}-wrong`));
      expectClientAuthRefusal(check, info, 'auth.method.client-secret-basic', wrongSecret, 'Basic with a wrong secret');
      const wrongId = await send(basicAuthorization(`${basic!.id}-unknown`, basic!.secret));
      expectClientAuthRefusal(check, info, 'auth.method.client-secret-basic', wrongId, 'Basic with a wrong client id');
    },
  );

  test(
    'a confidential client sending its client ID alone is refused',
    clauses(OPERATIONS.authMethod, 'auth.method.client-id-only.confidential-refused', ...CLIENT_AUTH_REFUSAL_CLAUSES),
    async ({ run, anon, check }, info) => {
      const { cfg } = run;
      const ids = [cfg.auth.post?.id, cfg.auth.basic?.id].filter((x): x is string => !!x);
      test.skip(
        ids.length === 0,
        'needs a confidential client: set IDM_POST_CLIENT_ID/SECRET or IDM_BASIC_CLIENT_ID/SECRET',
      );
      for (const id of ids) {
        const ex = await anon.send('POST', cfg.auth.tokenUrl, {
          data: { grant_type: 'client_credentials', client_id: id, audience: cfg.audience },
        });
        expectClientAuthRefusal(
          check,
          info,
          'auth.method.client-id-only.confidential-refused',
          ex,
          `confidential client ${id} with its client ID alone`,
        );
      }
    },
  );
});
