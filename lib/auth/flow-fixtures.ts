// The conformance `test` of the authentication API: the suite's fixtures plus `flows` (endpoints,
// requests that register every credential they obtain with the redactor, logins and logouts in a
// browser, the test user's tokens: flow-requests.ts, flow-logins.ts). loginBrowser is the base
// fixtures': a worker fixture declared here would give these specs workers of their own.
import { test as base } from '../fixtures.ts';
import { builds } from '../test-run.ts';
import type { FlowContext } from './flow-context.ts';
import { codeLoginOf, flowLogins, userTokensOf } from './flow-logins.ts';
import { endpoint } from './endpoints.ts';
import { flowRequests } from './flow-requests.ts';
import type { Flows } from './flow-types.ts';

export type { Flows, LogoutAnswer, TokenAnswer } from './flow-types.ts';

/**
 * The scope of the public client's shared login: what user info, the Bearer refusals and the
 * relying-party checks of a code-flow login need together (offline_access for a refresh).
 */
export const USER_SCOPE = 'openid profile email offline_access';

export const test = base.extend<{ flows: Flows }>({
  flows: builds(async ({ suite, anon, counter, check, loginBrowser }, use, testInfo) => {
    const x: FlowContext = {
      cfg: suite.cfg,
      pacer: suite.pacer,
      anon,
      check,
      counter,
      loginBrowser,
      testInfo,
      secret: (v) => {
        if (typeof v === 'string' && v.length >= 4) suite.redactor.add(v);
      },
    };
    // The code exchange's logins walk with the logins below, made after the requests they need.
    let walk: Flows['walk'] | undefined;
    const codeLogin = codeLoginOf(x, {
      walk: (...a) => walk!(...a),
      endpoint: (which) => endpoint(suite.cfg, anon, which),
    });
    const requests = flowRequests(x, codeLogin);
    const logins = flowLogins(x, requests);
    walk = logins.walk;
    const flows: Flows = {
      ...requests,
      ...logins,
      userTokens: userTokensOf(x, { ...requests, ...logins }),
      secret: x.secret,
    };
    await use(flows);
  }),
});
