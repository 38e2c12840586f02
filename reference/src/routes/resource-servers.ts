// PATCH /api/v2/resource-servers/{id} (§4.1, §7.1).
import type { TenantResponse } from '../types.ts';
import { apiError, json, validationError } from '../errors.ts';
import { makeCheck } from '../validation/engine.ts';
import type { AppContext } from '../context.ts';

/** §4.1 PATCH /resource-servers/{id}: partial update, 201 with the §2.1 object. */
export function updateResourceServer(pathId: string, body: Record<string, unknown>, ctx: AppContext): TenantResponse {
  const { rules, store, validators } = ctx.parts;
  const rs = rules.resolveResourceServer(store, pathId);
  if (rs === undefined) return apiError(404, 'inexistent_resource_server', 'The resource server does not exist');
  const system = rules.rejectSystemResourceServer(rs);
  if (system !== null) return apiError(400, 'operation_not_supported', system);
  const issues = makeCheck(validators)('rs.body', body, '');
  if (issues.length > 0) return validationError(issues);
  // Applied only after the whole body validated: a rejected request changes nothing.
  const next = rules.enforceWebLifetime(rules.applyResourceServerPatch(rs, body));
  store.saveResourceServer(next);
  return json(201, rules.presentResourceServer(next));
}
