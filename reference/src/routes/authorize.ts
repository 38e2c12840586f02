// GET /authorize (RFC 6749 §4.1 code, §4.2 implicit; RFC 7636 PKCE; OIDC Core §3) shows a
// small login page; its form posts to POST /u/login, which answers 302 to the redirect URI
// with the code (query) or the tokens (fragment). No single sign-on session is kept: every
// /authorize shows the login page.
//
// Errors: an unknown client or a redirect URI that is not registered → 400 JSON (never a
// redirect to an unchecked URI, RFC 6749 §4.1.2.1); any other fault → 302 to the redirect
// URI with error, error_description and state.
import { randomBytes } from 'node:crypto';
import type { LoginTransaction, TenantRequest, TenantResponse } from '../types.ts';
import type { AppContext } from '../context.ts';
import { begin, readBody, readQuery, type Reply } from '../auth/request.ts';
import { issueUserTokens, userScope } from '../auth/user-tokens.ts';
import { PKCE_VALUE } from '../auth/pkce.ts';
import { DATABASE_CONNECTION } from '../config.ts';
import { LOGIN_BLOCKED, checkLogin } from './token.ts';

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

function redirectTo(
  reply: Reply,
  uri: string,
  fragment: boolean,
  values: Record<string, string | undefined>,
): TenantResponse {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined) p.set(k, v);
  const url = new URL(uri);
  if (fragment) url.hash = p.toString();
  else for (const [k, v] of p) url.searchParams.set(k, v);
  return reply.raw(302, { location: url.toString() });
}

export async function authorize(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const started = begin(ctx, 'auth.authorize', `ip:${req.remoteAddress ?? '-'}`);
  if ('limited' in started) return started.limited;
  const { reply } = started;
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
  const scope = userScope(ctx, p.scope, p.audience);
  if (scope === undefined) return fail('access_denied', `Service not found: ${p.audience}`);
  // OIDC Core §3.1.2.6: without a session (none is kept) a silent request needs a login.
  if (p.prompt === 'none') return fail('login_required', 'prompt=none: no session, the user must log in');

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
    expiresAtMs: ctx.parts.now() + ctx.parts.limits.loginTransactionLifetimeSeconds * 1000,
  });
  return reply.raw(200, htmlHeaders, loginPage(id, client.clientId, ''));
}

/** POST /u/login: a browser form post (form-encoded; JSON is accepted too, §4.3). */
export async function login(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const started = begin(ctx, 'auth.login', `ip:${req.remoteAddress ?? '-'}`);
  if ('limited' in started) return started.limited;
  const { reply } = started;
  const read = readBody(req, ctx.parts.limits);
  if (!read.ok) return reply.error(read.status, 'invalid_request', read.description);
  const q = readQuery(req.url);
  const id = read.params.state ?? (q.ok ? q.params.state : undefined);
  const tx = id === undefined ? undefined : ctx.parts.authStore.getLoginTransaction(id);
  if (id === undefined || tx === undefined) {
    return reply.error(400, 'invalid_request', 'Unknown or expired login transaction: start again at /authorize');
  }
  // A browser (form post) gets the page again with the message; an API caller the error object.
  const page = (req.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
  const refuse = (status: number, error: string, description: string, headers: Record<string, string> = {}) =>
    page
      ? reply.raw(status, { ...htmlHeaders, ...headers }, loginPage(id, tx.clientId, description))
      : reply.error(status, error, description, headers);

  const { username, password } = read.params;
  if (!username || !password) return refuse(400, 'invalid_request', 'Enter your email address and password.');
  const result = checkLogin(ctx, tx.connection, username, password, req.remoteAddress);
  if (!result.ok) {
    return result.blocked
      ? refuse(429, 'too_many_attempts', LOGIN_BLOCKED, result.headers)
      : refuse(401, 'invalid_grant', 'Wrong email or password.');
  }
  ctx.parts.authStore.deleteLoginTransaction(id);
  const client = ctx.clients.find((c) => c.clientId === tx.clientId);
  if (client === undefined) return reply.error(400, 'invalid_request', 'The client of this login no longer exists');

  if (tx.responseType === 'code') {
    const code = randomBytes(24).toString('base64url');
    ctx.parts.authStore.saveCode(code, {
      clientId: client.clientId,
      userId: result.user.userId,
      redirectUri: tx.redirectUri,
      scope: tx.scope,
      ...(tx.audience ? { audience: tx.audience } : {}),
      ...(tx.nonce !== undefined ? { nonce: tx.nonce } : {}),
      ...(tx.pkce ? { pkce: tx.pkce } : {}),
      expiresAtMs: ctx.parts.now() + ctx.parts.limits.authorizationCodeLifetimeSeconds * 1000,
    });
    return redirectTo(reply, tx.redirectUri, false, { code, state: tx.state });
  }
  const types = tx.responseType.split(' ');
  const tokens = await issueUserTokens(ctx, {
    client,
    user: result.user,
    scope: tx.scope,
    ...(tx.audience ? { audience: tx.audience } : {}),
    ...(tx.nonce !== undefined ? { nonce: tx.nonce } : {}),
    refreshable: false,
    want: { accessToken: types.includes('token'), idToken: types.includes('id_token') },
    gty: 'implicit',
  });
  const access = types.includes('token')
    ? {
        access_token: tokens.access_token,
        token_type: tokens.token_type,
        expires_in: String(tokens.expires_in),
        scope: tokens.scope,
      }
    : {};
  return redirectTo(reply, tx.redirectUri, true, { ...access, id_token: tokens.id_token, state: tx.state });
}

const htmlHeaders = { 'content-type': 'text/html; charset=utf-8', 'x-frame-options': 'DENY' };

function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function loginPage(txId: string, clientId: string, message: string): string {
  const alert = message ? `\n  <p role="alert" class="error">${escapeHtml(message)}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Log in</title>
<style>body{font-family:sans-serif;max-width:22rem;margin:4rem auto}label,input,button{display:block;width:100%;margin:.4rem 0}.error{color:#b00}</style>
</head>
<body>
<main>
  <h1>Log in</h1>
  <p>to continue to ${escapeHtml(clientId)}</p>${alert}
  <form method="post" action="/u/login?state=${encodeURIComponent(txId)}">
    <input type="hidden" name="state" value="${escapeHtml(txId)}">
    <label for="username">Email address</label>
    <input id="username" name="username" type="text" autocomplete="username" required>
    <label for="password">Password</label>
    <input id="password" name="password" type="password" autocomplete="current-password" required>
    <button type="submit">Continue</button>
  </form>
</main>
</body>
</html>
`;
}
