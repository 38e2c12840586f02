// GET/POST /u/consent (`login.consent` always, offline when the scope has offline_access, or
// remembered for a scope not granted yet): after the password, the scopes the client asked for
// and two answers (`login.consentControls` shapes their markup). Accept ends the login as it
// would have ended without the page (a remembered consent is kept); Decline sends access_denied
// to the redirect URI (RFC 6749 §4.1.2.1; in the fragment for implicit response types, §4.2.2.1).
import type { TenantRequest, TenantResponse } from '../types.ts';
import type { AppContext } from '../context.ts';
import { completeLogin, consentScopes, openStep, pageUrl, redirectTo, refuse } from '../auth/login-flow.ts';
import { consentPage, htmlHeaders } from '../auth/login-pages.ts';

/** What each control posts: the buttons' values, and the inputs' labels (their value is their label). */
const DECISIONS = new Map<string, 'accept' | 'deny'>([
  ['accept', 'accept'],
  ['deny', 'deny'],
  ['Authorize', 'accept'],
  ['Cancel', 'deny'],
]);

export async function consent(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const s = openStep(req, ctx, 'auth.consent');
  if ('answer' in s) return s.answer;
  const { reply, id, tx } = s;
  const who = tx.authenticated;
  // Only a login past its password (and past nothing else it still needs) reaches consent.
  if (who?.next !== 'consent')
    return reply.error(400, 'invalid_request', 'This login asks for no consent: start again at /authorize');
  const scopes = consentScopes(tx);
  const form = (message: string) =>
    consentPage(
      pageUrl(ctx, '/u/consent', id),
      id,
      tx.clientId,
      who.user.username,
      scopes,
      message,
      ctx.login.consentControls,
    );
  if (req.method !== 'POST') return reply.raw(200, htmlHeaders, form(''));
  const decision = DECISIONS.get(s.params.decision ?? '');
  if (decision === undefined) return refuse(s, 400, 'invalid_request', 'Choose Accept or Decline.', form);
  ctx.parts.authStore.deleteLoginTransaction(id);
  if (decision === 'accept') {
    if (ctx.login.consent === 'remembered') ctx.parts.authStore.rememberConsent(who.user.userId, tx.clientId, scopes);
    return completeLogin(ctx, reply, tx, who.user);
  }
  return redirectTo(reply, tx.redirectUri, tx.responseType !== 'code', {
    error: 'access_denied',
    error_description: 'The user declined the authorization request',
    state: tx.state,
  });
}
