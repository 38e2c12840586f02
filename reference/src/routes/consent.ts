// GET/POST /u/consent (`login.consent` always, or offline when the scope has offline_access):
// after the password, the scopes the client asked for and two answers. Accept ends the login
// as it would have ended without the page; Decline sends access_denied to the redirect URI
// (RFC 6749 §4.1.2.1; in the fragment for implicit response types, §4.2.2.1).
import type { TenantRequest, TenantResponse } from '../types.ts';
import type { AppContext } from '../context.ts';
import { completeLogin, openStep, pageUrl, redirectTo, refuse } from '../auth/login-flow.ts';
import { consentPage, htmlHeaders } from '../auth/login-pages.ts';

export async function consent(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const s = openStep(req, ctx, 'auth.consent');
  if ('answer' in s) return s.answer;
  const { reply, id, tx } = s;
  const who = tx.authenticated;
  // Only a login past its password (and past nothing else it still needs) reaches consent.
  if (who?.next !== 'consent')
    return reply.error(400, 'invalid_request', 'This login asks for no consent: start again at /authorize');
  const scopes = tx.scope.split(' ').filter((v) => v !== '');
  const form = (message: string) =>
    consentPage(pageUrl(ctx, '/u/consent', id), id, tx.clientId, who.user.username, scopes, message);
  if (req.method !== 'POST') return reply.raw(200, htmlHeaders, form(''));
  const { decision } = s.params;
  if (decision !== 'accept' && decision !== 'deny')
    return refuse(s, 400, 'invalid_request', 'Choose Accept or Decline.', form);
  ctx.parts.authStore.deleteLoginTransaction(id);
  if (decision === 'accept') return completeLogin(ctx, reply, tx, who.user);
  return redirectTo(reply, tx.redirectUri, tx.responseType !== 'code', {
    error: 'access_denied',
    error_description: 'The user declined the authorization request',
    state: tx.state,
  });
}
