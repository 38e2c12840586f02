// Experiment payloads a real tenant would accept (spec §2.4, §4.2): a control
// and a treatment on configured variation ids, weights summing to 100, every
// request field present (which are required is not shown), the strategy
// attribute under a configurable name (its name is not shown), and the run tag
// in the name so a staging tenant's experiments can be traced to the run.
import fc from 'fast-check';
import { text, exactText } from './text.ts';
import type { UpdateBody } from './resource-server.ts';

export type ExperimentBody = UpdateBody;

export interface ExperimentOptions {
  featureFlagId: string;
  /** At least two: the first is the control, the second the treatment. */
  variationIds: readonly string[];
  /** Name of the allocation strategy attribute (not shown by the spec). Default `allocation_strategy`. */
  strategyField?: string;
  /** Marks every experiment this run creates; put into the name (and description). */
  runTag: string;
  /** Allowed values are not shown; default `login`. */
  authenticationFlow?: string;
  /** Allowed values beyond a device-type sample are not shown; default `device`. */
  assignmentSubject?: string;
}

export const DEFAULT_STRATEGY_FIELD = 'allocation_strategy';

/** A deterministic valid payload: control 50 / treatment 50. */
export function experimentPayload(opts: ExperimentOptions, control = 50): ExperimentBody {
  const [controlId, treatmentId] = variationPair(opts);
  const tag = checkedTag(opts.runTag);
  return {
    name: `${tag} experiment`,
    feature_flag_id: opts.featureFlagId,
    authentication_flow: opts.authenticationFlow ?? 'login',
    assignment_config: { subject: opts.assignmentSubject ?? 'device' },
    allocations: [
      { variation_id: controlId, weight: control, priority: 1, is_control: true, is_fallback: true },
      { variation_id: treatmentId, weight: 100 - control, priority: 2, is_control: false, is_fallback: false },
    ],
    description: `Created by idm-conformance run ${tag}`,
    [opts.strategyField ?? DEFAULT_STRATEGY_FIELD]: 'percentage',
  };
}

/**
 * Valid payloads varying name and description (run tag kept as the name's
 * prefix; lengths up to the limits, multi-byte and astral characters) and the
 * control/treatment split (weights still summing to 100).
 */
export function experimentPayloadArb(opts: ExperimentOptions): fc.Arbitrary<ExperimentBody> {
  const tag = checkedTag(opts.runTag);
  const tagLen = [...tag].length + 1;
  return fc
    .record({
      suffix: text({ min: 1, max: 255 - tagLen, trimmed: true }),
      description: text({ min: 3, max: 1024, trimmed: true }),
      control: fc.integer({ min: 1, max: 99 }),
    })
    .map(({ suffix, description, control }) => ({
      ...experimentPayload(opts, control),
      name: `${tag} ${suffix}`,
      description,
    }));
}

/**
 * A payload whose name or description has exactly `length` code points (valid edges and
 * beyond), carrying the run tag where it fits; a name too short for it moves the tag to the
 * description, so every experiment stays traceable.
 */
function experimentWithLength(
  opts: ExperimentOptions,
  field: 'name' | 'description',
  length: number,
  salt: number,
): ExperimentBody {
  const out = experimentPayload(opts);
  const tag = checkedTag(opts.runTag);
  const tagLen = [...tag].length + 1;
  const fits = length >= tagLen + 1;
  out[field] = fits ? `${tag} ${exactText(length - tagLen, salt)}` : exactText(length, salt);
  if (field === 'name' && !fits) out.description = `${exactText(3, salt)} ${tag}`;
  return out;
}

/** A payload whose name has exactly `length` code points (see experimentWithLength). */
export function experimentWithNameLength(opts: ExperimentOptions, length: number, salt = 0): ExperimentBody {
  return experimentWithLength(opts, 'name', length, salt);
}

/** A payload whose description has exactly `length` code points (see experimentWithLength). */
export function experimentWithDescriptionLength(opts: ExperimentOptions, length: number, salt = 0): ExperimentBody {
  return experimentWithLength(opts, 'description', length, salt);
}

/**
 * `base` (a valid payload) with the strategy attribute set to `segment` under the configured
 * name and a segment id on every allocation: the given ids in allocation order, the last one
 * repeated when there are fewer ids than allocations.
 */
export function segmentExperimentPayload(
  base: ExperimentBody,
  segmentIds: readonly string[],
  strategyField = DEFAULT_STRATEGY_FIELD,
): ExperimentBody {
  if (segmentIds.length === 0) throw new Error('segmentExperimentPayload: needs at least one segment id');
  const list = Array.isArray(base['allocations']) ? base['allocations'] : [];
  const allocations = list.map((a, i) => ({
    ...(a as UpdateBody),
    segment_id: segmentIds[Math.min(i, segmentIds.length - 1)]!,
  }));
  return { ...base, [strategyField]: 'segment', allocations };
}

// Helpers

function variationPair(opts: ExperimentOptions): [string, string] {
  const [a, b] = opts.variationIds;
  if (!a || !b) throw new Error('experimentPayload: variationIds needs a control and a treatment id');
  return [a, b];
}

/** The tag must itself fit the name pattern's edges; reject it early rather than send a bad name. */
function checkedTag(tag: string): string {
  if (!/^\S(.*\S)?$/u.test(tag) || tag.includes('\u0000') || [...tag].length > 64) {
    throw new Error(`experimentPayload: runTag "${tag}" must be 1-64 characters without surrounding whitespace`);
  }
  return tag;
}
