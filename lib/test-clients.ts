// The clients of a test, the second group of the conformance `test` (lib/fixtures.ts): every
// request is paced and counted, and every answer judged by the rules about every answer.
//   mgmt     – client carrying the run's management token (full client)
//   anon     – client without credentials; .withAuthorization() for forged/malformed ones
//   limited  – client of the limited client (skips the test, with the reason, if not configured)
//   credentials – context for building refused credentials (lib/credentials.ts)
import type { Fixtures } from '@playwright/test';
import { managementSkip } from './config.ts';
import { ApiClient, RESENT_ANNOTATION, type Exchange, type RequestCounter } from './http.ts';
import type { Checks } from './checks.ts';
import { judgeAnswer } from './answer-rules.ts';
import type { CredentialContext } from './credentials.ts';
import { issued } from './credential-origin.ts';
import { encodeSkip, NO_ANSWER_ANNOTATION, noAnswerSkip, runSkip } from './skip-record.ts';
import { skipTest } from './declare.ts';
import { builds, type Suite } from './test-run.ts';

export interface ClientFixtures {
  client: (name: string, token: string | null) => ApiClient;
  mgmt: ApiClient;
  anon: ApiClient;
  limited: ApiClient;
  credentials: CredentialContext;
}

export const clientFixtures: Fixtures<
  ClientFixtures,
  { suite: Suite },
  { counter: RequestCounter; transcript: Exchange[]; check: Checks }
> = {
  client: builds(async ({ suite, counter, transcript, check }, use, info) => {
    await use(
      (name, token) =>
        new ApiClient({
          name,
          token,
          apiBase: suite.cfg.apiBase,
          timeoutMs: suite.cfg.timeoutMs,
          pacer: suite.pacer,
          resend: suite.resend,
          counter,
          onExchange: (ex) => {
            transcript.push(ex);
            // Rules about every answer of a kind are judged on every answer (lib/answer-rules.ts).
            judgeAnswer(ex, suite.cfg, { check, info });
          },
          onNoAnswer: (n) =>
            info.annotations.push({ type: NO_ANSWER_ANNOTATION, description: encodeSkip(noAnswerSkip(n)) }),
          onResent: (r) => info.annotations.push({ type: RESENT_ANNOTATION, description: JSON.stringify(r) }),
        }),
    );
  }),

  mgmt: builds(async ({ suite, client }, use, testInfo) => {
    skipTest(managementSkip(suite.cfg), testInfo);
    await use(client('full', suite.state.tokens.full));
  }),

  anon: builds(({ client }, use) => use(client('anonymous', null))),

  limited: builds(async ({ suite, client }, use, testInfo) => {
    skipTest(
      !suite.state.tokens.limited &&
        runSkip(
          { setting: 'IDM_LIMITED_CLIENT_ID' },
          'needs a client without update:resource_servers: set IDM_LIMITED_CLIENT_ID and IDM_LIMITED_CLIENT_SECRET',
        ),
      testInfo,
    );
    // Its reproductions name their own variable: $IDM_ACCESS_TOKEN would send the full client's.
    if (suite.state.tokens.limited) issued(suite.state.tokens.limited, 'IDM_LIMITED_ACCESS_TOKEN');
    await use(client('limited', suite.state.tokens.limited));
  }),

  credentials: builds(async ({ suite, anon }, use, testInfo) => {
    const { cfg, state } = suite;
    // The credential cases are made from the management token: none when that API is not under test.
    skipTest(managementSkip(cfg), testInfo);
    await use({
      cfg,
      realToken: state.tokens.full ?? '',
      otherAudience: typeof state.snapshot.identifier === 'string' ? state.snapshot.identifier : null,
      async tokenFor(audience) {
        const res = await anon.send('POST', cfg.tokenUrl, {
          data: {
            grant_type: 'client_credentials',
            client_id: cfg.client.id,
            client_secret: cfg.client.secret,
            audience,
          },
          encoding: 'form',
        });
        const token = res.answer.accessToken;
        if (token !== null) suite.redactor.add(token);
        return token;
      },
    });
  }),
};
