// §5.2 "Client ID and client secret" (Post in the body, Basic in the header) and the
// confidential application that sends its client ID alone. Each configured client: the right
// credentials obtain a token (the accepted case, first), then every wrong variant is refused
// with a 4xx and an error object (status and error code recorded: RFC 6749 §5.2 says 400/401,
// tenants of this kind use 403 too) — judged only when the accepted case succeeded.
import { test } from '../../../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { basicAuthorization, needsFormEncoding } from '../../../lib/auth/target.ts';
import { CLIENT_AUTH_REFUSAL_CLAUSES, expectClientAuthRefusal } from '../../../lib/auth/checks.ts';
import { expectIssued, failureCause, issued, notExercised, requireAccepted } from '../../../lib/auth/acceptance.ts';
import { authEncoding, authPost, probeAnswer } from '../../../lib/auth/encoding.ts';

test.describe('client ID and client secret (§5.2)', () => {
  test(
    'Post: the secret in the body obtains a token; a wrong secret is refused',
    clauses(
      OPERATIONS.authMethod,
      'auth.method.client-secret-post',
      'auth.token.answer',
      ...CLIENT_AUTH_REFUSAL_CLAUSES,
    ),
    async ({ run, anon, check }, info) => {
      const { cfg } = run;
      const post = cfg.auth.post;
      test.skip(!post, 'needs a client_secret_post client: set IDM_POST_CLIENT_ID and IDM_POST_CLIENT_SECRET');
      const enc = await authEncoding(cfg, anon);
      const body = (secret: string) => ({
        grant_type: 'client_credentials',
        client_id: post!.id,
        client_secret: secret,
        audience: cfg.audience,
      });
      // The encoding probe sent this very request: its answer is the accepted case.
      const ok = probeAnswer(enc) ?? (await authPost(anon, enc, cfg.auth.tokenUrl, body(post!.secret)));
      await expectIssued(
        check,
        'auth.method.client-secret-post',
        ok,
        'client_id and client_secret in the body',
        enc.note,
      );
      requireAccepted(info, 'auth.method.client-secret-post', ok);
      const wrong = await authPost(anon, enc, cfg.auth.tokenUrl, body(`${post!.secret}-wrong`));
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
      const enc = await authEncoding(cfg, anon);
      const send = (authorization: string) =>
        authPost(anon.withAuthorization('basic-client', authorization), enc, cfg.auth.tokenUrl, {
          grant_type: 'client_credentials',
          audience: cfg.audience,
        });
      const ok = await send(basicAuthorization(basic!.id, basic!.secret));
      await expectIssued(check, 'auth.method.client-secret-basic', ok, 'Authorization: Basic', enc.note);
      if (needsFormEncoding(basic!.id) || needsFormEncoding(basic!.secret)) {
        check.that(
          'auth.method.client-secret-basic.form-encoded',
          issued(ok),
          `a Basic header with the form-encoded id and secret (RFC 6749 §2.3.1) ${issued(ok) ? `answered ${ok.status} with a token` : failureCause(ok)}${enc.note}`,
          ok,
        );
      }
      requireAccepted(info, 'auth.method.client-secret-basic', ok);
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
      const { post, basic } = cfg.auth;
      test.skip(
        !post && !basic,
        'needs a confidential client: set IDM_POST_CLIENT_ID/SECRET or IDM_BASIC_CLIENT_ID/SECRET',
      );
      const enc = await authEncoding(cfg, anon);
      const cc = { grant_type: 'client_credentials', audience: cfg.audience };
      // Each client's accepted twin: the same request with its secret, as its method sends it.
      const cases = [
        ...(post
          ? [
              {
                id: post.id,
                method: 'auth.method.client-secret-post',
                right: async () =>
                  probeAnswer(enc) ??
                  (await authPost(anon, enc, cfg.auth.tokenUrl, {
                    ...cc,
                    client_id: post.id,
                    client_secret: post.secret,
                  })),
              },
            ]
          : []),
        ...(basic
          ? [
              {
                id: basic.id,
                method: 'auth.method.client-secret-basic',
                right: () =>
                  authPost(
                    anon.withAuthorization('basic-client', basicAuthorization(basic.id, basic.secret)),
                    enc,
                    cfg.auth.tokenUrl,
                    cc,
                  ),
              },
            ]
          : []),
      ];
      const causes: string[] = [];
      for (const c of cases) {
        const right = await c.right();
        if (!issued(right)) {
          causes.push(notExercised(c.method, failureCause(right)));
          continue;
        }
        const ex = await authPost(anon, enc, cfg.auth.tokenUrl, { ...cc, client_id: c.id });
        expectClientAuthRefusal(
          check,
          info,
          'auth.method.client-id-only.confidential-refused',
          ex,
          `confidential client ${c.id} with its client ID alone`,
        );
      }
      test.skip(causes.length === cases.length, causes.join('; '));
    },
  );
});
