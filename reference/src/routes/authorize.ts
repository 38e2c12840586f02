// GET /authorize (RFC 6749 §4.1 code, §4.2 implicit; RFC 7636 PKCE; OIDC Core §3) shows a
// small login page; its form posts to POST /u/login, which answers 302 to the redirect URI
// with the code (query) or the tokens (fragment). No single sign-on session is kept: every
// /authorize shows the login page. The login profile (`TenantOptions.login`) may instead
// redirect to its first page; the pages are in routes/login.ts and routes/consent.ts. With
// `loginFirst` nothing is read before the login: a request without its session goes to the login
// page whatever it carries, and one with it is read, then ends the login (consent, code).
//
// Errors: an unknown client or a redirect URI that is not registered → 400 JSON (never a
// redirect to an unchecked URI, RFC 6749 §4.1.2.1); any other fault → 302 to the redirect
// URI with error, error_description and state.
import { randomBytes } from 'node:crypto';
import type { LoginTransaction, TenantRequest, TenantResponse } from '../types.ts';
import type { AppContext } from '../context.ts';
import { begin, readQuery } from '../auth/request.ts';
import { admitUser } from '../auth/user-tokens.ts';
import { PKCE_VALUE } from '../auth/pkce.ts';
import { afterPassword, firstPage, redirectTo, sessionUser } from '../auth/login-flow.ts';
import { DATABASE_CONNECTION } from '../config.ts';
import { scopesSupported } from './well-known.ts';

const IMPLICIT = ['token', 'id_token', 'id_token token'];

/** response_type values are space-separated sets (OAuth 2.0 Multiple Response Types). */
function normalType(t: string | undefined): string | undefined {
  if (t === undefined) return undefined;
  return t
    .split(' ')
    .filter((s) => s !== '')
    .sort()
    .join(' ');
}

export async function authorize(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const started = begin(ctx, 'auth.authorize', `ip:${req.remoteAddress ?? '-'}`);
  if ('limited' in started) return started.limited;
  const { reply } = started;
  const user = ctx.login.loginFirst ? sessionUser(req, ctx) : undefined;
  if (ctx.login.loginFirst && user === undefined) {
    const asked = req.url.replace(/^https?:\/\/[^/]+/i, '');
    return reply.raw(302, { location: `/u/login?next=${encodeURIComponent(asked)}` });
  }
  const q = readQuery(req.url);
  if (!q.ok) return reply.error(400, 'invalid_request', q.description);
  const p = q.params;
  if (!p.client_id) return reply.error(400, 'invalid_request', 'Missing required parameter: client_id');
  const client = ctx.clients.find((c) => c.clientId === p.client_id);
  if (client === undefined) return reply.error(400, 'invalid_request', `Unknown client: ${p.client_id}`);
  if (!p.redirect_uri) return reply.error(400, 'invalid_request', 'Missing required parameter: redirect_uri');
  if (!ctx.parts.securityRules.redirectUriRegistered(client.redirectUris ?? [], p.redirect_uri)) {
    return reply.error(400, 'invalid_request', 'redirect_uri is not registered for this client');
  }
  const responseType = normalType(p.response_type);
  const implicit = responseType !== undefined && IMPLICIT.includes(responseType);
  const fail = (error: string, description: string) =>
    redirectTo(reply, p.redirect_uri as string, implicit, { error, error_description: description, state: p.state });

  if (responseType !== 'code' && !implicit) {
    return fail('unsupported_response_type', `response_type must be code, token, id_token or "id_token token"`);
  }
  const grant = implicit ? 'implicit' : 'authorization_code';
  if (!(client.grantTypes ?? []).includes(grant))
    return fail('unauthorized_client', `Client may not use the ${grant} grant`);
  const connection = p.connection ?? DATABASE_CONNECTION;
  if (connection !== DATABASE_CONNECTION)
    return fail('invalid_request', `The login page supports the ${DATABASE_CONNECTION} connection only`);
  if (responseType?.includes('id_token') && !p.nonce)
    return fail('invalid_request', 'nonce is required when an ID token is asked for');
  // The API's settings decide now what they can (an implicit token's proof of possession and
  // keys too), so a refusal comes before the login; the issue checks them again.
  const admitted = await admitUser(ctx, {
    client,
    audience: p.audience,
    requested: p.scope,
    asking: true,
    at: implicit ? 'implicit' : 'authorize',
  });
  if (!admitted.ok) return fail(admitted.error, admitted.description);
  const scope = admitted.scope;
  // OIDC Core §3.1.2.6: without a session (none is kept but loginFirst's) a silent request needs a login.
  if (p.prompt === 'none' && user === undefined)
    return fail('login_required', 'prompt=none: no session, the user must log in');

  let pkce: LoginTransaction['pkce'];
  if (!implicit) {
    if (p.code_challenge !== undefined) {
      const method = p.code_challenge_method ?? 'plain';
      if (method !== 'S256' && method !== 'plain')
        return fail('invalid_request', 'code_challenge_method must be S256 or plain');
      if (!PKCE_VALUE.test(p.code_challenge))
        return fail('invalid_request', 'code_challenge must be 43 to 128 unreserved characters');
      pkce = { challenge: p.code_challenge, method };
    } else if (p.code_challenge_method !== undefined) {
      return fail('invalid_request', 'code_challenge_method without code_challenge');
    }
    // Tenant choice: a public client must use PKCE with S256 (OAuth 2.0 for browser apps).
    if (client.tokenEndpointAuthMethod === 'none' && pkce?.method !== 'S256') {
      return fail('invalid_request', 'A public client must send code_challenge with code_challenge_method=S256');
    }
  }
  const id = randomBytes(18).toString('base64url');
  ctx.parts.authStore.saveLoginTransaction(id, {
    clientId: client.clientId,
    redirectUri: p.redirect_uri,
    responseType: responseType as string,
    connection,
    scope,
    ...(p.state !== undefined ? { state: p.state } : {}),
    ...(p.audience ? { audience: p.audience } : {}),
    ...(p.nonce !== undefined ? { nonce: p.nonce } : {}),
    ...(pkce ? { pkce } : {}),
    ...(ctx.login.consent === 'remembered' ? { consentScope: consentScope(ctx, p.scope) } : {}),
    expiresAtMs: ctx.parts.now() + ctx.parts.limits.loginTransactionLifetimeSeconds * 1000,
  });
  const tx = ctx.parts.authStore.getLoginTransaction(id);
  if (user !== undefined && tx !== undefined) return afterPassword(ctx, reply, id, tx, user);
  return firstPage(ctx, reply, id, client.clientId);
}

/** The scopes a remembered consent is asked for: those asked that the tenant lists (scopes_supported). */
function consentScope(ctx: AppContext, asked: string | undefined): string {
  const supported = scopesSupported(ctx);
  return [...new Set((asked ?? 'openid').split(' '))].filter((s) => supported.includes(s)).join(' ');
}
