// The reference tenant with experiments as the service's own API document has them, where the
// spec shows nothing (issue 41): a name taken answers 409, and DELETE removes an experiment (the
// tenant's `experiments` option). Benign, the suite must leave every clause where the reference
// tenant's own run leaves it — no two of its creations collide, and none remains afterwards (the
// kill self-test, selftest/runtime-kill.spec.ts, reads the tenant's store for that); a fault
// hidden behind a taken name must still be caught on its own clause.
import type { TenantOptions } from '../reference/src/index.ts';
import { experimentWith, statusOf } from './probes.ts';
import { loosen, type Variant } from './variant.ts';

/** The experiment profile: unique names (409 on a repeat) and DELETE offered. */
export const UNIQUE_AND_DELETABLE: TenantOptions['experiments'] = { uniqueNames: true, deletable: true };

/** A second creation of the same payload: 201 on the reference tenant, 409 here. */
const repeatAnswered = async (c: Parameters<NonNullable<Variant['probe']>>[0]): Promise<number[]> => {
  const body = experimentWith({ name: `Probe repeat ${Date.now()}` });
  return [await statusOf(c.create(body)), await statusOf(c.create(body))];
};

export const EXPERIMENT_PROFILE_BENIGN: Variant[] = [
  {
    id: 'benign-experiments-unique-deletable',
    kind: 'benign',
    clause: null,
    fault: 'spec-silent',
    description:
      'experiment names are unique (409 "An experiment with this name already exists" on a repeat) and DELETE /experimentation/experiments/{id} is offered, as the service’s API document has them; the spec shows neither',
    // Held to the default's verdict: the whole suite, or with --subset fast the management half (IDM_APIS=management).
    asDefault: { apis: 'management' },
    probe: repeatAnswered,
    options: () => ({ experiments: UNIQUE_AND_DELETABLE }),
  },
];

export const EXPERIMENT_PROFILE_MUTANTS: Variant[] = [
  {
    id: 'exp-weight-fraction-accepted-unique-names',
    kind: 'mutant',
    clause: 'exp.create.allocation.types',
    fault: 'missing-validation',
    description:
      'on the unique-names profile, an allocation weight of 50.5 is accepted: refused as a taken name when every creation shared one, a weight the suite must still catch',
    probe: (c) =>
      statusOf(
        c.create(
          experimentWith({
            name: `Probe weight ${Date.now()}`,
            allocations: [
              { variation_id: 'var_control', weight: 50.5, is_control: true },
              { variation_id: 'var_treatment', weight: 49.5 },
            ],
          }),
        ),
      ),
    options: () => ({
      experiments: UNIQUE_AND_DELETABLE,
      parts: (d) => loosen(d, 'exp.allocation.weight', (v) => typeof v === 'number' && v >= 0 && v <= 100),
    }),
  },
];
