// Authentication API token endpoint: client credentials (§5.1), client authentication
// (§5.2), errors as {error, error_description} (§7.3).
import type { ClientConfig, TenantRequest, TenantResponse } from '../types.ts';
import { json, oauthError } from '../errors.ts';
import { rateLimit, type AppContext } from '../context.ts';
import { bodyFormat, bodyTooLarge, decodeObject } from '../body.ts';
import { issueAccessToken } from '../auth/access-token.ts';
import { authenticateClient } from '../auth/client-auth.ts';

export async function tokenEndpoint(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const limits = ctx.parts.limits;
  const tooLarge = bodyTooLarge(req, limits);
  const format = tooLarge ? undefined : bodyFormat(req);
  let params: Record<string, string> | undefined;
  let paramsError: string | undefined;
  if (format?.ok) {
    const decoded = decodeObject(req, format.value, {}, limits);
    if (!decoded.ok) paramsError = decoded.message;
    else {
      const bad = Object.entries(decoded.value).find(([, v]) => typeof v !== 'string');
      if (bad) paramsError = `Parameter ${bad[0]} must be a string`;
      else params = decoded.value as Record<string, string>;
    }
  }
  const limited = rateLimit(ctx, `oauth.token|${callerOf(params, req)}`);
  if (limited.response) return limited.response;
  const h = limited.headers;

  if (tooLarge) return oauthError(413, 'invalid_request', `Request body is larger than ${limits.maxBodyBytes} bytes`, h);
  if (format && !format.ok) return oauthError(415, 'invalid_request', format.message, h);
  if (params === undefined) return oauthError(400, 'invalid_request', paramsError ?? 'Malformed request body', h);

  if (params.grant_type === undefined) return oauthError(400, 'invalid_request', 'Missing required parameter: grant_type', h);
  if (params.grant_type !== 'client_credentials') {
    return oauthError(400, 'unsupported_grant_type', `Unsupported grant type: ${params.grant_type}`, h);
  }
  const auth = await authenticateClient(params, req.headers.authorization, {
    clients: ctx.clients,
    assertionAudiences: [`${ctx.publicUrl}/`, `${ctx.publicUrl}/oauth/token`, `${ctx.publicUrl}/oauth/token/`],
    limits,
    jti: ctx.parts.jtiCache,
    nowMs: ctx.parts.now(),
  });
  if (!auth.ok) {
    const extra: Record<string, string> =
      auth.status === 401 && /^Basic/i.test(req.headers.authorization ?? '') ? { 'www-authenticate': 'Basic realm="token"' } : {};
    return oauthError(auth.status, auth.error, auth.description, { ...h, ...extra });
  }
  if (!(auth.client.grantTypes ?? ['client_credentials']).includes('client_credentials')) {
    return oauthError(403, 'unauthorized_client', `Client ${auth.client.clientId} may not use the client_credentials grant`, h);
  }
  if (params.audience === undefined || params.audience === '') {
    return oauthError(400, 'invalid_request', 'Missing required parameter: audience', h);
  }
  const granted = grantedScopes(params.audience, auth.client, ctx);
  if (granted === undefined) return oauthError(403, 'access_denied', `Service not found: ${params.audience}`, h);
  const requested = params.scope?.split(' ').filter((s) => s !== '');
  const scope = (requested ? granted.scopes.filter((s) => requested.includes(s)) : granted.scopes).join(' ');
  const accessToken = await issueAccessToken(ctx.signingKey, {
    issuer: `${ctx.publicUrl}/`,
    audience: granted.audience,
    clientId: auth.client.clientId,
    scope,
    lifetimeSeconds: limits.accessTokenLifetimeSeconds,
    nowMs: ctx.parts.now(),
  });
  return json(
    200,
    { access_token: accessToken, token_type: 'Bearer', expires_in: limits.accessTokenLifetimeSeconds, scope },
    { ...h, 'cache-control': 'no-store', pragma: 'no-cache' },
  );
}

/** The management API (audience `<public URL>/api/v2/`, or `/api/v2/` as §5.1 writes it) or a custom resource server. */
function grantedScopes(audience: string, client: ClientConfig, ctx: AppContext): { audience: string; scopes: string[] } | undefined {
  const management = `${ctx.publicUrl}/api/v2/`;
  if (audience === management || audience === '/api/v2/') return { audience: management, scopes: client.scopes };
  const rs = ctx.parts.store.getResourceServerByIdentifier(audience);
  if (rs === undefined || rs.is_system) return undefined;
  return { audience: rs.identifier, scopes: rs.scopes.map((s) => s.value) };
}

function callerOf(params: Record<string, string> | undefined, req: TenantRequest): string {
  const basic = /^Basic\s+(\S+)/i.exec(req.headers.authorization ?? '');
  if (basic?.[1]) {
    const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
    return `client:${decoded.split(':')[0] ?? ''}`;
  }
  if (params?.client_id) return `client:${params.client_id}`;
  if (params?.client_assertion) {
    try {
      const payload = JSON.parse(Buffer.from(params.client_assertion.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iss?: unknown };
      if (typeof payload.iss === 'string') return `client:${payload.iss}`;
    } catch {
      // fall through to the peer address
    }
  }
  return `ip:${req.remoteAddress ?? '-'}`;
}
