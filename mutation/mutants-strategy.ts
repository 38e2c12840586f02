// Variants around the traffic allocation strategy attribute (§2.4): its enum is stated, its
// field name is not. The mutants accept a value outside the enum or refuse one inside; the
// benign variants name the field differently (and the suite is configured to match) or leave
// it out of the answer (the suite then reports the enum as not asserted, never failed).
import { VALID_EXPERIMENT, type Probe } from './probes.ts';
import { isExpCreate, type Req, type Wrap } from './exchange.ts';
import { isObject } from '../lib/values.ts';
import { mapResponse } from './faults.ts';
import { loosen, tighten, viaParts, viaWrap, type Variant } from './variant.ts';

/** The reference tenant's name for the attribute, and the one the renamed variant uses instead. */
const REFERENCE_FIELD = 'allocation_strategy';
const OTHER_FIELD = 'traffic_strategy';

const created: Probe = async (c) => (await c.create({ ...VALID_EXPERIMENT, allocation_strategy: 'random' })).status;

export const STRATEGY_MUTANTS: Variant[] = [
  {
    id: 'exp-strategy-outsider-accepted',
    kind: 'mutant',
    clause: 'exp.create.strategy.enum',
    fault: 'missing-validation',
    fast: true,
    description:
      'any string is accepted as the allocation strategy ("random", "Percentage", …) and echoed back: the enum is not checked',
    options: viaParts((d) => loosen(d, 'exp.allocation_strategy', (v) => typeof v === 'string')),
    probe: created,
  },
  {
    id: 'exp-strategy-segment-refused',
    kind: 'mutant',
    clause: 'exp.create.strategy.enum',
    fault: 'over-strict',
    description: 'the allocation strategy segment (in the enum) is refused with 400',
    options: viaParts((d) =>
      tighten(d, 'exp.allocation_strategy', (v) => v === 'segment', 'No enum match for: "segment"'),
    ),
    probe: async (c) =>
      (
        await c.create({
          ...VALID_EXPERIMENT,
          allocation_strategy: 'segment',
          allocations: VALID_EXPERIMENT.allocations.map((a, i) => ({ ...a, segment_id: `seg_${i}` })),
        })
      ).status,
  },
];

export const STRATEGY_BENIGN: Variant[] = [
  {
    id: 'benign-strategy-field-renamed',
    kind: 'benign',
    clause: 'exp.create.strategy.name',
    fault: 'spec-silent',
    fast: true,
    grep: ['exp.create.strategy.enum', 'exp.create.strategy.name'],
    description: `the strategy attribute is named ${OTHER_FIELD} on request and answer (${REFERENCE_FIELD} is an unknown field); the suite runs with IDM_STRATEGY_FIELD=${OTHER_FIELD}`,
    env: { IDM_STRATEGY_FIELD: OTHER_FIELD },
    options: viaWrap(renamedStrategyField(OTHER_FIELD)),
    probe: async (c) => {
      const { allocation_strategy: _ref, ...rest } = VALID_EXPERIMENT;
      return (await c.create({ ...rest, [OTHER_FIELD]: 'percentage' })).status;
    },
  },
  {
    id: 'benign-strategy-not-echoed',
    kind: 'benign',
    clause: 'exp.create.strategy.name',
    fault: 'spec-silent',
    fast: true,
    grep: ['exp.create.strategy.enum', 'exp.create.strategy.name'],
    description: `the created experiment does not carry ${REFERENCE_FIELD}: the configured name is never confirmed, so the enum is reported not asserted (skipped), never failed`,
    options: viaWrap(
      mapResponse(isExpCreate, (res) => {
        if (res.status >= 200 && res.status < 300 && isObject(res.body)) delete res.body[REFERENCE_FIELD];
      }),
    ),
    probe: async (c) => REFERENCE_FIELD in ((await c.create(VALID_EXPERIMENT)).body ?? {}),
  },
];

// Helpers

/**
 * The tenant calls the attribute `other`: the two names are swapped at the top level of a
 * creation request (so `allocation_strategy` reaches the tenant as an unknown field) and
 * everywhere in its answer (the created experiment, and field paths in error messages).
 */
function renamedStrategyField(other: string): Wrap {
  const swap = (k: string): string => (k === other ? REFERENCE_FIELD : k === REFERENCE_FIELD ? other : k);
  return (next) => async (req: Req) => {
    if (!isExpCreate(req) || !isObject(req.body)) return next(req);
    const body = Object.fromEntries(Object.entries(req.body).map(([k, v]) => [swap(k), v]));
    const res = await next({ ...req, body });
    if (res.body === undefined) return res;
    const text = JSON.stringify(res.body).replace(new RegExp(`${REFERENCE_FIELD}|${other}`, 'g'), swap);
    return { ...res, body: JSON.parse(text) as unknown };
  };
}
