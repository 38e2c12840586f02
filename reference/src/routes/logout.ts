// GET /v2/logout (§4.3 "logout (optionally federated)"): `returnTo` must be registered —
// for the client when `client_id` is given, else in the tenant's list (every client's
// logout URLs). `federated` (any value) would also end the session at the upstream
// identity provider; the database connection has none, so it changes nothing here. No
// single sign-on session is kept, so logging out only validates and redirects.
import type { TenantRequest, TenantResponse } from '../types.ts';
import type { AppContext } from '../context.ts';
import { begin, readQuery } from '../auth/request.ts';

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
  return reply.raw(302, { location: returnTo });
}
