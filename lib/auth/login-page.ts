// Which pages are the tenant's login page: for the classification's rule that a redirect to it is
// not a refusal (lib/answer-class.ts, rule login-page), where a readable authorization request was
// sent; and for the probes that go on through it (lib/auth/probe.ts), an answer that is, or leads
// to, a page asking the person to log in. Read from the markup (a password, e-mail or username
// input), never from the page's words.
import type { ApiClient, Exchange, RawExchange } from '../http.ts';
import { carried, redirectTarget, type AnswerContext } from '../answer-class.ts';

/**
 * What a browser's navigation accepts: authorization requests are sent as a person's browser sends
 * them, since a server may answer an API client's JSON Accept differently (401, not its login page).
 */
export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/**
 * The context an authorization request is classified in, for its sender (SendOptions.context): the
 * answer to a request the tenant can read leads to its login page (when it redirects at all), so
 * that page is the login page.
 */
export function authorizeContext(clientRedirects: readonly string[]): (readable: RawExchange) => AnswerContext {
  return (readable) => {
    const landing = redirectTarget(readable);
    return { clientRedirects, loginPages: landing ? [landing.href] : [] };
  };
}

/**
 * Whether an answer is the tenant's login page, or a redirect to one (fetched, only then): an HTML
 * page asking for a password or a username, never an error told to the client.
 */
export async function isLoginPage(client: ApiClient, ex: Exchange): Promise<boolean> {
  if (ex.status === 200) return asksToLogIn(ex);
  const to = ex.answer.redirect;
  if (to === null || carried(to).has('error') || (to.protocol !== 'http:' && to.protocol !== 'https:')) return false;
  return asksToLogIn(await client.send('GET', to.href, { headers: { accept: BROWSER_ACCEPT } }));
}

// Helpers

/** An HTML page with a password, e-mail or username input (an identifier-first page asks the name first). */
function asksToLogIn(page: Exchange): boolean {
  if (page.status !== 200 || !/html/i.test(page.headers['content-type'] ?? '')) return false;
  return /<input\b[^>]*\b(type\s*=\s*["']?(password|email)\b|autocomplete\s*=\s*["']?username\b)/i.test(page.text);
}
