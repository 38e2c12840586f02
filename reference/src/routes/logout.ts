// GET /v2/logout (§4.3 "logout (optionally federated)"): `returnTo` must be registered —
// for the client when `client_id` is given, else in the tenant's list (every client's
// logout URLs). `federated` (any value) would also end the session at the upstream
// identity provider; the database connection has none, so it changes nothing here. No
// single sign-on session is kept, so logging out only validates and redirects.
//
// With `login.logoutConfirm` an allowed returnTo first gets a page "Do you want to sign out?"
// (200): its form posts an opaque id to POST /v2/logout/confirm, which redirects to the
// returnTo (Yes) or answers that the user is still signed in (Cancel). The id is single use
// and lives as long as a login transaction.
import { randomBytes } from 'node:crypto';
import type { TenantRequest, TenantResponse } from '../types.ts';
import type { AppContext } from '../context.ts';
import { begin, readBody, readQuery } from '../auth/request.ts';
import { htmlHeaders, logoutConfirmPage, noticePage } from '../auth/login-pages.ts';

export function logout(req: TenantRequest, ctx: AppContext): TenantResponse {
  const started = begin(ctx, 'auth.logout', `ip:${req.remoteAddress ?? '-'}`);
  if ('limited' in started) return started.limited;
  const { reply } = started;
  const q = readQuery(req.url);
  if (!q.ok) return reply.error(400, 'invalid_request', q.description);
  const { client_id: clientId, returnTo } = q.params;
  const client = clientId === undefined ? undefined : ctx.clients.find((c) => c.clientId === clientId);
  if (clientId !== undefined && client === undefined)
    return reply.error(400, 'invalid_request', `Unknown client: ${clientId}`);
  if (returnTo === undefined) {
    return reply.raw(
      200,
      { 'content-type': 'text/html; charset=utf-8' },
      '<!doctype html><title>Logged out</title><p>You are logged out.</p>\n',
    );
  }
  const allowed = client ? (client.logoutUrls ?? []) : ctx.clients.flatMap((c) => c.logoutUrls ?? []);
  if (!ctx.parts.securityRules.logoutReturnAllowed(allowed, returnTo)) {
    return reply.error(
      400,
      'invalid_request',
      `returnTo is not an allowed logout URL${client ? ' of this client' : ' of this tenant'}`,
    );
  }
  if (!ctx.login.logoutConfirm) return reply.raw(302, { location: returnTo });
  const id = randomBytes(18).toString('base64url');
  ctx.parts.authStore.saveLogoutRequest(id, {
    returnTo,
    expiresAtMs: ctx.parts.now() + ctx.parts.limits.loginTransactionLifetimeSeconds * 1000,
  });
  return reply.raw(200, htmlHeaders, logoutConfirmPage('/v2/logout/confirm', id));
}

/** POST /v2/logout/confirm: the confirmation page's form (`state` the pending logout, `action` logout or cancel). */
export function confirmLogout(req: TenantRequest, ctx: AppContext): TenantResponse {
  const started = begin(ctx, 'auth.logout.confirm', `ip:${req.remoteAddress ?? '-'}`);
  if ('limited' in started) return started.limited;
  const { reply } = started;
  const read = readBody(req, ctx.parts.limits);
  if (!read.ok) return reply.error(read.status, 'invalid_request', read.description);
  const { state: id, action } = read.params;
  const pending = id === undefined ? undefined : ctx.parts.authStore.getLogoutRequest(id);
  if (id === undefined || pending === undefined)
    return reply.error(400, 'invalid_request', 'Unknown or expired logout request: start again at /v2/logout');
  if (action !== 'logout' && action !== 'cancel')
    return reply.error(400, 'invalid_request', 'action must be logout or cancel');
  ctx.parts.authStore.deleteLogoutRequest(id);
  return action === 'logout'
    ? reply.raw(302, { location: pending.returnTo })
    : reply.raw(200, htmlHeaders, noticePage('Still signed in', 'You cancelled: you are still signed in.'));
}
