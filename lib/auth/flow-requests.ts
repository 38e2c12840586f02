// The flows fixture's plain requests (§4.3 conventions: POST parameters as JSON — as a form where
// the target refuses JSON and takes the form, lib/auth/encoding.ts —, GET parameters in the
// query): the token endpoint, whose tokens are masked from then on and whose answers validate
// as token answers, the password grant (one login of a user at a time), any POST or GET.
import { skipTest } from '../declare.ts';
import { passes, PASSES } from '../answer-class.ts';
import { isSkipRecord, runSkip } from '../skip-record.ts';
import { judgeAbsent } from './absent.ts';
import { contextOf, endpoint, type Endpoint } from './endpoints.ts';
import { authEncoding, overGrant, tokenPost, type CodeLogin } from './encoding.ts';
import { str, type FlowContext } from './flow-context.ts';
import type { Flows } from './flow-types.ts';

type Requests = Pick<
  Flows,
  'endpoint' | 'stopIfAbsent' | 'encoding' | 'grantRequest' | 'token' | 'passwordGrant' | 'post' | 'get'
>;

/** `login`: the codes of the code exchange, where the tenant offers no other grant (lib/auth/encoding.ts). */
export function flowRequests(x: FlowContext, login: CodeLogin): Requests {
  const { cfg, anon, check, testInfo, secret } = x;
  const r: Requests = {
    endpoint: (which) => endpoint(cfg, anon, which),
    stopIfAbsent(e, ex) {
      judgeAbsent({ check, info: testInfo }, e, ex);
    },
    encoding: () => authEncoding(cfg, anon, login),
    async grantRequest(data, clientId) {
      const made = await overGrant(data, cfg, (await r.encoding()).grant, { login, clientId });
      skipTest(isSkipRecord(made) && made, testInfo);
      return made as Record<string, unknown>;
    },
    async token(data) {
      const ex = await tokenPost(anon, await r.encoding(), cfg, data);
      const body = typeof ex.body === 'object' && ex.body !== null ? (ex.body as Record<string, unknown>) : {};
      const answer = {
        ex,
        accessToken: str(body.access_token),
        refreshToken: str(body.refresh_token),
        tokenType: str(body.token_type),
      };
      for (const t of [answer.accessToken, answer.refreshToken, str(body.id_token)]) secret(t);
      if (passes(ex.answer, PASSES.success))
        await check.expectSchema('auth.token.answer', 'TokenResponse', ex.body, ex);
      return answer;
    },
    async passwordGrant(scope) {
      const { post, user } = cfg.auth;
      skipTest(
        !post &&
          runSkip(
            { setting: 'IDM_POST_CLIENT_ID' },
            'needs a confidential client allowed the password grant: set IDM_POST_CLIENT_ID and IDM_POST_CLIENT_SECRET',
          ),
        testInfo,
      );
      skipTest(
        !user &&
          runSkip({ setting: 'IDM_TEST_USERNAME' }, 'needs a test user: set IDM_TEST_USERNAME and IDM_TEST_PASSWORD'),
        testInfo,
      );
      return r.token({
        grant_type: 'password',
        client_id: post!.id,
        client_secret: post!.secret,
        username: user!.username,
        password: user!.password,
        scope,
      });
    },
    post: async (to, data, headers) =>
      anon.send('POST', urlOf(to), {
        data,
        encoding: (await r.encoding()).encoding,
        ...(headers ? { headers } : {}),
        ...contextOf(to),
      }),
    async get(to, query, headers) {
      const u = new URL(urlOf(to));
      for (const [k, v] of Object.entries(query ?? {})) u.searchParams.set(k, v);
      return anon.send('GET', u.toString(), { ...(headers ? { headers } : {}), ...contextOf(to) });
    },
  };
  return r;
}

// Helpers

const urlOf = (to: string | Endpoint): string => (typeof to === 'string' ? to : to.url);
