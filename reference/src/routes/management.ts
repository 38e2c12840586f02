// Management API pipeline (§4, §5.1, §7.1): token → rate limit → 401 → 403 → body → operation.
import type { AccessTokenClaims, TenantRequest, TenantResponse } from '../types.ts';
import { HttpFailure, apiError } from '../errors.ts';
import { rateLimit, withHeaders, type AppContext } from '../context.ts';
import { bodyFormat, bodyTooLarge, decodeObject, type FormKinds } from '../body.ts';
import { UPDATE_FORM_KINDS } from '../validation/resource-server.ts';
import { EXPERIMENT_FORM_KINDS } from '../validation/experiment.ts';
import { updateResourceServer } from './resource-servers.ts';
import { createExperiment, deleteExperiment } from './experiments.ts';

export type ManagementRoute =
  | { id: 'rs.update'; scope: string; pathId: string }
  | { id: 'exp.create'; scope: string }
  | { id: 'exp.delete'; scope: string; pathId: string };

export async function management(req: TenantRequest, route: ManagementRoute, ctx: AppContext): Promise<TenantResponse> {
  const auth = await authorize(req, ctx);
  const caller = auth.ok ? `client:${String(auth.claims.azp ?? auth.claims.sub)}` : `ip:${req.remoteAddress ?? '-'}`;
  const limited = rateLimit(ctx, `${route.id}|${caller}`);
  if (limited.response) return limited.response;
  let res: TenantResponse;
  try {
    res = await authorizedOperation(req, route, ctx, auth);
  } catch (e) {
    if (!(e instanceof HttpFailure)) throw e;
    res = e.response;
  }
  return withHeaders(res, limited.headers);
}

async function authorizedOperation(
  req: TenantRequest,
  route: ManagementRoute,
  ctx: AppContext,
  auth: { ok: true; claims: AccessTokenClaims } | { ok: false; reason: string },
): Promise<TenantResponse> {
  const realm = `${ctx.publicUrl}/api/v2/`;
  // §7.1 401: token missing, malformed, badly signed, expired, wrong audience.
  if (!auth.ok) {
    return apiError(401, 'invalid_token', auth.reason, {
      'www-authenticate': `Bearer realm="${realm}", error="invalid_token"`,
    });
  }
  // §7.1 403: the token lacks the operation's scope; the message names it.
  if (!ctx.parts.rules.hasScope(auth.claims, route.scope)) {
    return apiError(403, 'insufficient_scope', `Insufficient scope, expected any of: ${route.scope}`, {
      'www-authenticate': `Bearer realm="${realm}", error="insufficient_scope", scope="${route.scope}"`,
    });
  }
  if (route.id === 'exp.delete') return deleteExperiment(route.pathId, ctx);
  const kinds: FormKinds = route.id === 'rs.update' ? UPDATE_FORM_KINDS : EXPERIMENT_FORM_KINDS;
  const body = readBody(req, kinds, ctx);
  return route.id === 'rs.update' ? updateResourceServer(route.pathId, body, ctx) : createExperiment(body, ctx);
}

async function authorize(
  req: TenantRequest,
  ctx: AppContext,
): Promise<{ ok: true; claims: AccessTokenClaims } | { ok: false; reason: string }> {
  const header = req.headers.authorization;
  if (header === undefined || header === '') return { ok: false, reason: 'Missing authentication' };
  const m = /^Bearer +([A-Za-z0-9\-._~+/]+=*)$/i.exec(header);
  if (!m?.[1]) return { ok: false, reason: 'Bad HTTP authentication header format' };
  return ctx.parts.verifyAccessToken(m[1]);
}

/** §4: bodies as JSON or form; 413 over the size limit, 415 other types, 400 malformed. */
function readBody(req: TenantRequest, kinds: FormKinds, ctx: AppContext): Record<string, unknown> {
  const limits = ctx.parts.limits;
  if (bodyTooLarge(req, limits)) {
    throw new HttpFailure(
      apiError(413, 'payload_too_large', `Request body is larger than ${limits.maxBodyBytes} bytes`),
    );
  }
  const format = bodyFormat(req);
  if (!format.ok) throw new HttpFailure(apiError(format.status, errorCodeFor(format.status), format.message));
  const decoded = decodeObject(req, format.value, kinds, limits);
  if (!decoded.ok) throw new HttpFailure(apiError(decoded.status, errorCodeFor(decoded.status), decoded.message));
  return decoded.value;
}

function errorCodeFor(status: number): string {
  return status === 415 ? 'unsupported_media_type' : status === 413 ? 'payload_too_large' : 'invalid_body';
}
