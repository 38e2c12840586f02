// WS-Federation (GET /wsfed, /wsfed/{client_id}) and legacy delegation (POST /delegation):
// named by §4.3, disabled on this tenant, answered consistently with 403 endpoint_disabled.
import type { TenantRequest, TenantResponse } from '../types.ts';
import type { AppContext } from '../context.ts';
import { begin } from '../auth/request.ts';

export function disabledEndpoint(
  req: TenantRequest,
  ctx: AppContext,
  name: 'WS-Federation' | 'Legacy delegation',
): TenantResponse {
  const started = begin(
    ctx,
    name === 'WS-Federation' ? 'auth.wsfed' : 'auth.delegation',
    `ip:${req.remoteAddress ?? '-'}`,
  );
  if ('limited' in started) return started.limited;
  return started.reply.error(403, 'endpoint_disabled', `${name} is disabled on this tenant`);
}
