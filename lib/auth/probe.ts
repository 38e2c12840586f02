// A request probe of the authorization endpoint (issue 40, item 3): sent as a person's browser
// sends it, and where the tenant answers with its login page — a server that logs the user in
// before it reads the request — walked through that login as the test user, so that what the
// tenant does once it reads the request is what is judged and recorded, not the page in front of it.
import type { ApiClient, Exchange } from '../http.ts';
import { carried } from '../answer-class.ts';
import { describeAnswer } from '../answer-words.ts';
import type { Flows } from './flow-types.ts';
import type { AuthorizeOutcome } from './login-walk.ts';
import { BROWSER_ACCEPT, isLoginPage } from './login-page.ts';
import type { Endpoint } from './endpoints.ts';

export interface ProbeAnswer {
  /** The answer to the request sent anonymously. */
  anonymous: Exchange;
  /** The same request walked through the tenant's login, when the anonymous answer was that login; else null. */
  afterLogin: AuthorizeOutcome | null;
}

/**
 * GET `params` at the authorization endpoint; where the answer is the login page, the same request
 * walked through the login, ending at any of `redirectUris`. A default path nobody confirmed
 * stops the test first when it is not served (flows.stopIfAbsent).
 */
export async function probeAuthorize(
  flows: Flows,
  anon: ApiClient,
  e: Endpoint,
  params: Record<string, string>,
  redirectUris: string[],
): Promise<ProbeAnswer> {
  const u = new URL(e.url);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  const anonymous = await anon.send('GET', u.toString(), {
    headers: { accept: BROWSER_ACCEPT },
    context: { endpoint: e, clientRedirects: redirectUris },
  });
  flows.stopIfAbsent(e, anonymous);
  if (!(await isLoginPage(anon, anonymous))) return { anonymous, afterLogin: null };
  return { anonymous, afterLogin: await flows.walk(e, params, redirectUris) };
}

/** What a probe came to, in one line: the anonymous answer and, after a login, where the browser ended. */
export function describeProbe(p: ProbeAnswer): string {
  const to = p.anonymous.answer.redirect;
  const told = to === null ? '' : ` (${carried(to).has('error') ? `error ${carried(to).get('error')}` : 'no error'})`;
  const first = `answered ${describeAnswer(p.anonymous)}${told}`;
  const out = p.afterLogin;
  if (out === null) return first;
  if (out.callback === null) return `${first}, the login page; after the login: ${out.notDriven ?? out.problem}`;
  const error = out.params.error;
  const carries = error
    ? `error ${error}`
    : out.params.code
      ? 'a code'
      : Object.keys(out.params).join(', ') || 'nothing';
  return `${first}, the login page; after the login the browser was sent to ${out.callback.origin}${out.callback.pathname} with ${carries}`;
}
