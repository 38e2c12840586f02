// Experiment payloads a real tenant would accept (spec §2.4, §4.2): a control
// and a treatment on configured variation ids, weights summing to 100, every
// request field present (which are required is not shown), the strategy
// attribute under a configurable name (its name is not shown), and the run tag
// in the name so a staging tenant's experiments can be traced to the run. With a
// serial, each payload's name is its own (the run tag and a serial): a tenant may
// keep names unique (the spec does not say), and two creations must not collide.
import { createHash } from 'node:crypto';
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
  /**
   * A serial of SERIAL_WIDTH characters [0-9a-z] no other payload of the run carries, called once
   * per payload (lib/fixtures.ts: the worker and a counter): the name starts with `<run tag>.<serial>`.
   * Without it every payload is named by the run tag alone.
   */
  serial?: () => string;
  /** Allowed values are not shown; default `login`. */
  authenticationFlow?: string;
  /** Allowed values beyond a device-type sample are not shown; default `device`. */
  assignmentSubject?: string;
}

export const DEFAULT_STRATEGY_FIELD = 'allocation_strategy';
/** Characters of a serial: two for the worker, four for its counter, in base 36. */
export const SERIAL_WIDTH = 6;

/** A deterministic valid payload: control 50 / treatment 50, named `<stamp> experiment`. */
export function experimentPayload(opts: ExperimentOptions, control = 50): ExperimentBody {
  return named(opts, `${stampOf(opts)} experiment`, control);
}

/** The valid payload with `name`: the one place its fields are written. */
function named(opts: ExperimentOptions, name: string, control = 50): ExperimentBody {
  const [controlId, treatmentId] = variationPair(opts);
  const tag = checkedTag(opts.runTag);
  return {
    name,
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
  const stampLen = stampLength(opts) + 1;
  return fc
    .record({
      suffix: text({ min: 1, max: 255 - stampLen, trimmed: true }),
      description: text({ min: 3, max: 1024, trimmed: true }),
      control: fc.integer({ min: 1, max: 99 }),
    })
    .map(({ suffix, description, control }) => ({
      // The serial is drawn here, once per value: a shrunk or replayed case gets a name of its own too.
      ...named(opts, `${stampOf(opts)} ${suffix}`, control),
      description,
    }));
}

/**
 * A payload whose name or description has exactly `length` code points (valid edges and
 * beyond), carrying the stamp where it fits; a name too short for it moves the stamp to the
 * description, so every experiment stays traceable, and is made from the stamp's digest, so
 * it is still one of its own as far as its length allows.
 */
function experimentWithLength(
  opts: ExperimentOptions,
  field: 'name' | 'description',
  length: number,
  salt: number,
): ExperimentBody {
  const stamp = stampOf(opts);
  const out = named(opts, `${stamp} experiment`);
  const stampLen = [...stamp].length + 1;
  const fits = length >= stampLen + 1;
  if (fits) out[field] = `${stamp} ${exactText(length - stampLen, salt)}`;
  else if (field === 'name') {
    out.name = shortName(stamp, length);
    out.description = `${exactText(3, salt)} ${stamp}`;
  } else out.description = exactText(length, salt);
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
  if (!/^\S(.*\S)?$/u.test(tag) || tag.includes('\u0000') || [...tag].length > 64 - SERIAL_WIDTH - 1) {
    throw new Error(
      `experimentPayload: runTag "${tag}" must be 1-${64 - SERIAL_WIDTH - 1} characters without surrounding whitespace`,
    );
  }
  return tag;
}

/** `<run tag>.<serial>`, a fresh serial each call; the run tag alone without a serial. */
function stampOf(opts: ExperimentOptions): string {
  const tag = checkedTag(opts.runTag);
  if (!opts.serial) return tag;
  const serial = opts.serial();
  if (!new RegExp(`^[0-9a-z]{${SERIAL_WIDTH}}$`).test(serial))
    throw new Error(`experimentPayload: serial "${serial}" must be ${SERIAL_WIDTH} characters of [0-9a-z]`);
  return `${tag}.${serial}`;
}

/** Code points of every stamp of `opts` (a serial has a fixed width). */
function stampLength(opts: ExperimentOptions): number {
  return [...checkedTag(opts.runTag)].length + (opts.serial ? SERIAL_WIDTH + 1 : 0);
}

/**
 * A name of `length` code points too short for the stamp: characters of the stamp's digest, every
 * second one multi-byte (so lengths are counted in code points), never a space at either end.
 */
function shortName(stamp: string, length: number): string {
  const digest = BigInt(`0x${createHash('sha256').update(stamp).digest('hex')}`).toString(36);
  return Array.from({ length }, (_, i) => (i % 2 === 1 ? (MULTI_BYTE[i % MULTI_BYTE.length] ?? 'é') : digest[i])).join(
    '',
  );
}

const MULTI_BYTE = ['é', '漢', 'ж', '한'];
