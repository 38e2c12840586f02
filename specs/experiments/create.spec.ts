// POST /experimentation/experiments (§2.4, §4.2, §7.2, §8). The success code, the error codes,
// which fields are required, the allocation rules and the strategy field's name are not shown by
// the spec: they are recorded, never judged (the strategy enum: strategy.spec.ts). Every experiment
// has a name of its own, and each violation is judged beside its twin, the same payload made right
// under the same name (lib/management/experiment-refusals.ts); the run deletes what it created
// afterwards where the tenant lets it (lib/experiment-cleanup.ts).
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../../lib/declare.ts';
import { clausesOf } from '../../lib/condition.ts';
import { forAll } from '../../lib/property.ts';
import { passes, PASSES } from '../../lib/answer-class.ts';
import {
  acceptedUnder,
  CREATED_EXPERIMENT,
  created,
  judgeCreated,
  servedUnderApiV2,
} from '../../lib/management/experiment-answer.ts';
import { caseBesideTwin } from '../../lib/management/experiment-refusals.ts';
import { recorded } from '../../lib/management/recorded.ts';
import {
  experimentPayload,
  experimentPayloadArb,
  experimentViolationCases,
  experimentBoundaryCases,
  experimentEdgeBundles,
  type ExperimentOptions,
  type ViolationCase,
  type BoundaryCase,
} from '../../generators/index.ts';

// Grouping and titles at collection time, from placeholder options; the cases are rebuilt per run.
const PLACEHOLDER: ExperimentOptions = { featureFlagId: 'flg_7Hq2kPzR', variationIds: ['a', 'b'], runTag: 'collect' };
const violationsByClause = group(experimentViolationCases(experimentPayload(PLACEHOLDER)));
const boundariesByClause = group(experimentBoundaryCases(PLACEHOLDER));
/** The accepted length edges: sent two to a body (experimentEdgeBundles). */
const EDGES = experimentEdgeBundles(PLACEHOLDER).flatMap((b) => b.cases);
const EDGE_IDS = new Set(EDGES.map((c) => c.id));

test.describe('create an experiment', () => {
  validExperimentsCreated();
  violationsRefused();
  lengthEdgesCreated();
  boundariesJudged();
  unshownRulesRecorded();
});

/** Generated valid payloads: created with a 2xx, the answer carrying what was sent. */
function validExperimentsCreated(): void {
  test(
    'generated valid experiments are created with a 2xx and carry what was sent',
    clauses(OPERATIONS.experiment, ...clausesOf(CREATED_EXPERIMENT, servedUnderApiV2)),
    async ({ run, experiments, check, gate }) => {
      const strategyField = run.cfg.strategyField;
      await forAll(
        check,
        experimentPayloadArb(experiments.options),
        async (sent) => {
          const ex = await experiments.create(sent);
          if (await judgeCreated(gate, { what: 'create a valid experiment', ex, sent, strategyField }))
            await gate.call(servedUnderApiV2, ex, ex);
        },
        // Each run creates an experiment: shrinking is kept short.
        { name: 'exp.create.valid-payloads', runSeed: run.seed, numRuns: run.runs.experiment, maxShrinkCalls: 10 },
      );
    },
  );
}

/** One test per clause a violation breaks: each violating payload refused with a 4xx beside its twin. */
function violationsRefused(): void {
  for (const [clause, cases] of violationsByClause) {
    test(
      `${cases.map((c) => c.description).join('; ')}: refused with a 4xx beside the same payload made right (code recorded)`,
      clauses(OPERATIONS.experiment, clause, 'exp.create.rejected.status', ...clausesOf(created)),
      async ({ experiments, gate }, info) => {
        for (const { id } of cases) {
          // A payload of its own per case: the twin is that payload, under the same name.
          const base = experiments.realistic();
          const c = experimentViolationCases(base).find((x) => x.id === id)!;
          await caseBesideTwin(gate, info, c, base, (body) => experiments.create(body));
        }
      },
    );
  }
}

/** The accepted length edges, two to a body; a body refused together is split to name the edge. */
function lengthEdgesCreated(): void {
  test(
    `${EDGES.map((c) => c.description).join('; ')}: created, two to a body`,
    clauses(OPERATIONS.experiment, ...new Set(EDGES.map((c) => c.clause)), ...clausesOf(created)),
    async ({ experiments, gate }) => {
      for (const bundle of experimentEdgeBundles(experiments.options)) {
        const together = await experiments.create(bundle.body);
        const what = bundle.cases.map((c) => c.description).join(' with ');
        if (passes(together.answer, PASSES.success) || bundle.cases.length === 1) {
          for (const c of bundle.cases) await gate.call(acceptedUnder(c.clause), together, { what, ex: together });
          continue;
        }
        // Refused together: each edge alone (its own payload, its own name) names the clause it breaks.
        const alone: Array<boolean | null> = [];
        for (const c of bundle.cases) {
          const ex = await experiments.create(c.body);
          alone.push(await gate.call(acceptedUnder(c.clause), ex, { what: c.description, ex }));
        }
        if (alone.every((ok) => ok === true))
          await gate.call(created, together, { what: `${what} (each accepted alone)`, ex: together });
      }
    },
  );
}

/** The other boundary cases, per clause: created, or recorded, as each case expects. */
function boundariesJudged(): void {
  for (const [clause, cases] of boundariesByClause) {
    if (cases.every((c) => EDGE_IDS.has(c.id))) continue; // sent together above
    const ids = new Set(cases.map((c) => c.id));
    const outcome = { accept: 'created', reject: 'refused with a 4xx', observe: 'answer recorded' } as const;
    test(
      cases.map((c) => `${c.description} ${outcome[c.expect]}`).join('; '),
      clauses(OPERATIONS.experiment, clause),
      async ({ experiments, gate }) => {
        for (const c of experimentBoundaryCases(experiments.options).filter((x) => ids.has(x.id))) {
          // Only the valid side is a boundary case here; one past each limit is a violation case (above).
          const ex = await experiments.create(c.body);
          const judged = c.expect === 'accept' ? acceptedUnder(c.clause) : recorded(c.clause);
          await gate.call(judged, ex, { what: c.description, ex });
        }
      },
    );
  }
}

/** What the spec does not show (required fields, allocation rules, other values): answers recorded. */
function unshownRulesRecorded(): void {
  const requiredFields = recorded('exp.create.required-fields');
  test(
    'a payload missing one request field at a time: each answer recorded',
    clauses(OPERATIONS.experiment, ...clausesOf(requiredFields)),
    async ({ experiments, gate }) => {
      for (const field of Object.keys(experimentPayload(experiments.options))) {
        const { [field]: _omitted, ...rest } = experiments.realistic();
        const ex = await experiments.create(rest);
        await gate.call(requiredFields, ex, { what: `without ${field}`, ex });
      }
    },
  );

  const allocationRules = recorded('exp.create.allocation.rules');
  test(
    'weights that do not sum to 100: answer recorded',
    clauses(OPERATIONS.experiment, ...clausesOf(allocationRules)),
    async ({ experiments, gate }) => {
      const base = experiments.realistic();
      const allocations = base.allocations as Array<Record<string, unknown>>;
      const ex = await experiments.create({ ...base, allocations: allocations.map((a) => ({ ...a, weight: 30 })) });
      await gate.call(allocationRules, ex, { what: 'weights 30/30', ex });
    },
  );

  const flows = recorded('exp.create.authentication_flow.values');
  const subjects = recorded('exp.create.assignment_config.subject.values');
  test(
    'other authentication_flow and assignment subject values: answers recorded',
    clauses(OPERATIONS.experiment, ...clausesOf(flows, subjects)),
    async ({ experiments, gate }) => {
      const flow = await experiments.create({ ...experiments.realistic(), authentication_flow: 'signup' });
      await gate.call(flows, flow, { what: 'authentication_flow "signup"', ex: flow });
      const subject = await experiments.create({ ...experiments.realistic(), assignment_config: { subject: 'user' } });
      await gate.call(subjects, subject, { what: 'assignment_config.subject "user"', ex: subject });
    },
  );
}

// Helpers

function group<T extends ViolationCase | BoundaryCase>(cases: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const c of cases) out.set(c.clause, [...(out.get(c.clause) ?? []), c]);
  return out;
}
