// Which pages are the tenant's login page, for the classification's rule that a redirect to it
// is not a refusal (lib/answer-class.ts, rule login-page): where a readable authorization
// request was sent, and any page a redirect leads to that asks for a password. Read from the
// markup (an input of type password), never from the page's words.
import type { ApiClient, Exchange } from '../http.ts';
import { classify, redirectTarget, type AnswerContext } from '../answer-class.ts';

/**
 * What a browser's navigation accepts: authorization requests are sent as a person's browser sends
 * them, since a server may answer an API client's JSON Accept differently (401, not its login page).
 */
export const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/**
 * The context an authorization request is classified in: `readable`, a request the tenant can
 * read, leads to its login page (when it redirects at all), so that page is the login page.
 */
export function authorizeContext(readable: Exchange, clientRedirects: readonly string[]): AnswerContext {
  const landing = redirectTarget(readable);
  return { clientRedirects, loginPages: landing ? [landing.href] : [] };
}

/**
 * `ctx` with the page `other` redirects to added as a login page, when `other` would otherwise
 * pass for a redirect to the tenant's own page or onward and that page asks for a password (only
 * then is it fetched).
 */
export async function withLoginPageOf(client: ApiClient, other: Exchange, ctx: AnswerContext): Promise<AnswerContext> {
  const to = redirectTarget(other);
  const rule = classify(other, ctx).rule;
  if (to && (rule === 'own-error-page' || rule === 'redirect-onward') && (await asksForPassword(client, to)))
    return { ...ctx, loginPages: [...(ctx.loginPages ?? []), to.href] };
  return ctx;
}

// Helpers

async function asksForPassword(client: ApiClient, to: URL): Promise<boolean> {
  if (to.protocol !== 'http:' && to.protocol !== 'https:') return false;
  const page = await client.send('GET', to.href, { headers: { accept: 'text/html' } });
  return page.status === 200 && /<input\b[^>]*\btype\s*=\s*["']?password\b/i.test(page.text);
}
