// POST /api/v2/experimentation/experiments (§4.2, §2.4); with the experiment profile
// (TenantOptions.experiments, not in the spec) a name taken answers 409 and
// DELETE /api/v2/experimentation/experiments/{id} removes one.
import type { TenantResponse } from '../types.ts';
import { apiError, json, validationError } from '../errors.ts';
import { makeCheck } from '../validation/engine.ts';
import { base58Id } from '../ids.ts';
import type { AppContext } from '../context.ts';

/** §4.2 POST /experimentation/experiments: 201 with the §2.4 experiment, status draft. */
export function createExperiment(body: Record<string, unknown>, ctx: AppContext): TenantResponse {
  const { rules, store, validators, now } = ctx.parts;
  const issues = makeCheck(validators)('exp.body', body, '');
  if (issues.length > 0) return validationError(issues);
  const flag = store.getFeatureFlag(body.feature_flag_id as string);
  if (flag === undefined) {
    return apiError(404, 'inexistent_feature_flag', `The feature flag ${String(body.feature_flag_id)} does not exist`);
  }
  const allocationIssues = rules.checkAllocations(body, flag);
  if (allocationIssues.length > 0) return validationError(allocationIssues);
  if (ctx.experiments.uniqueNames && store.experimentNamed(body.name as string) !== undefined)
    return apiError(409, 'conflict', 'An experiment with this name already exists');
  const at = new Date(now()).toISOString();
  const experiment = {
    id: base58Id('exp_', 20),
    name: body.name as string,
    ...(body.description !== undefined ? { description: body.description } : {}),
    feature_flag_id: flag.id,
    ...(body.authentication_flow !== undefined ? { authentication_flow: body.authentication_flow } : {}),
    ...(body.assignment_config !== undefined ? { assignment_config: body.assignment_config } : {}),
    allocation_strategy: (body.allocation_strategy as string | undefined) ?? 'percentage',
    allocations: body.allocations as Array<Record<string, unknown>>,
    status: 'draft',
    is_valid: rules.isExperimentValid(body),
    created_at: at,
    updated_at: at,
  };
  store.saveExperiment(experiment);
  return json(201, experiment);
}

/** DELETE /experimentation/experiments/{id} (the experiment profile only): 204, or 404 for an id it does not know. */
export function deleteExperiment(rawId: string, ctx: AppContext): TenantResponse {
  let id: string;
  try {
    id = decodeURIComponent(rawId);
  } catch {
    id = rawId;
  }
  if (!ctx.parts.store.deleteExperiment(id))
    return apiError(404, 'inexistent_experiment', `The experiment ${id} does not exist`);
  return { status: 204, headers: {}, body: Buffer.alloc(0) };
}
