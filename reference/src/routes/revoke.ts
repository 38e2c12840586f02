// POST /oauth/revoke (RFC 7009): the client authenticates as at the token endpoint and
// names a refresh token it was issued. Tenant choices: only refresh tokens are revocable
// (access tokens are self-contained JWTs; revoking one answers 200 and changes nothing);
// an unknown token answers 200 (RFC 7009 §2.2); another client's token 400 invalid_grant.
import type { TenantRequest, TenantResponse } from '../types.ts';
import type { AppContext } from '../context.ts';
import { begin, callerOf, readBody } from '../auth/request.ts';

export async function revoke(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const read = readBody(req, ctx.parts.limits);
  const started = begin(ctx, 'auth.revoke', callerOf(read.ok ? read.params : undefined, req));
  if ('limited' in started) return started.limited;
  const { reply } = started;
  if (!read.ok) return reply.error(read.status, 'invalid_request', read.description);
  const auth = await ctx.parts.authenticateClient({ params: read.params, headers: req.headers });
  if (!auth.ok) return reply.error(auth.status, auth.error, auth.description);
  const token = read.params.token;
  if (token === undefined || token === '')
    return reply.error(400, 'invalid_request', 'Missing required parameter: token');
  const grant = ctx.parts.authStore.getRefreshToken(token);
  if (grant !== undefined) {
    if (grant.clientId !== auth.client.clientId)
      return reply.error(400, 'invalid_grant', 'The token was not issued to this client');
    ctx.parts.authStore.revokeRefreshToken(token);
  }
  return reply.raw(200, {});
}
