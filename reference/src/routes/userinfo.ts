// GET (or POST) /userinfo (OIDC Core §5.3; §5.2 "OAuth2 access token": Bearer in Authorization).
// Every refusal is 401 with WWW-Authenticate: Bearer error="invalid_token" (RFC 6750 §3)
// and the error object.
import type { TenantRequest, TenantResponse } from '../types.ts';
import type { AppContext } from '../context.ts';
import { begin } from '../auth/request.ts';
import { profileClaims } from '../auth/user-tokens.ts';

export async function userinfo(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
  const token = m?.[1];
  const verdict = token === undefined ? undefined : await ctx.parts.verifyUserToken(token);
  const sub = verdict?.ok ? verdict.claims.sub : undefined;
  const started = begin(ctx, 'auth.userinfo', sub ? `user:${sub}` : `ip:${req.remoteAddress ?? '-'}`);
  if ('limited' in started) return started.limited;
  const { reply } = started;
  const refuse = (description: string) =>
    reply.error(401, 'invalid_token', description, {
      'www-authenticate': `Bearer realm="userinfo", error="invalid_token", error_description="${description.replace(/["\\]/g, '')}"`,
    });
  if (token === undefined)
    return refuse(
      req.headers.authorization === undefined
        ? 'Missing Bearer access token'
        : 'Authorization must be: Bearer <access token>',
    );
  if (!verdict?.ok) return refuse(verdict?.reason ?? 'Invalid token');
  const user = ctx.users.find((u) => u.userId === verdict.claims.sub);
  if (user === undefined) return refuse('The token does not belong to a user of this tenant');
  const scopes = String(verdict.claims.scope ?? '').split(' ');
  return reply.json(200, { sub: user.userId, ...profileClaims(user, scopes) });
}
