// POST /experimentation/experiments (§2.4, §4.2, §7.2, §8). The success code, the error
// codes, which fields are required, the allocation rules and the strategy field's name are
// not shown by the spec: they are recorded, never judged (the strategy enum, once the
// target confirms the name: strategy.spec.ts). Every experiment carries the run
// tag (generators/experiment.ts), as the spec shows no way to delete one.
import { test } from '../../lib/fixtures.ts';
import type { RunInfo } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../../lib/declare.ts';
import { forAll } from '../../lib/property.ts';
import { checkCreatedExperiment, EXPERIMENT_ANSWER_CLAUSES } from '../../lib/expectations.ts';
import { short } from '../../lib/values.ts';
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

/** Generator options from the configuration (flag, variations, strategy field name, run tag). */
function options(run: RunInfo): ExperimentOptions {
  return {
    featureFlagId: run.cfg.featureFlagId!,
    variationIds: run.cfg.variationIds,
    strategyField: run.cfg.strategyField,
    runTag: run.runTag,
    authenticationFlow: run.cfg.authenticationFlow,
    assignmentSubject: run.cfg.assignmentSubject,
  };
}

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
    clauses(OPERATIONS.experiment, ...EXPERIMENT_ANSWER_CLAUSES, 'version.mgmt.path-prefix'),
    async ({ run, experiments, check }) => {
      await forAll(
        check,
        experimentPayloadArb(options(run)),
        async (body) => {
          const ex = await experiments.create(body);
          await checkCreatedExperiment(check, ex, body, run.cfg.strategyField);
          check.that(
            'version.mgmt.path-prefix',
            ex.status >= 200 &&
              ex.status < 300 &&
              new URL(ex.request.url).pathname.endsWith('/api/v2/experimentation/experiments'),
            `the creation is served under /api/v2 (answered ${ex.status})`,
            ex,
          );
        },
        // Each run creates an experiment: shrinking is kept short.
        { name: 'exp.create.valid-payloads', runSeed: run.seed, numRuns: run.runs.experiment, maxShrinkCalls: 10 },
      );
    },
  );
}

/** One test per clause a violation breaks: each violating payload refused with a 4xx. */
function violationsRefused(): void {
  for (const [clause, cases] of violationsByClause) {
    const ids = new Set(cases.map((c) => c.id));
    test(
      `${cases.map((c) => c.description).join('; ')}: refused with a 4xx (code recorded)`,
      clauses(OPERATIONS.experiment, clause, 'exp.create.rejected.status'),
      async ({ run, experiments, check }) => {
        for (const c of experimentViolationCases(experimentPayload(options(run))).filter((x) => ids.has(x.id))) {
          const ex = await experiments.create(c.body);
          check.expectRejected(c.clause, ex, c.description);
          check.observe('exp.create.rejected.status', `${c.description}: answered ${ex.status}`);
        }
      },
    );
  }
}

/** The accepted length edges, two to a body; a body refused together is split to name the edge. */
function lengthEdgesCreated(): void {
  test(
    `${EDGES.map((c) => c.description).join('; ')}: created, two to a body`,
    clauses(OPERATIONS.experiment, ...new Set(EDGES.map((c) => c.clause)), 'exp.create.accepted'),
    async ({ run, experiments, check }) => {
      for (const bundle of experimentEdgeBundles(options(run))) {
        const together = await experiments.create(bundle.body);
        const what = bundle.cases.map((c) => c.description).join(' with ');
        if ((together.status >= 200 && together.status < 300) || bundle.cases.length === 1) {
          for (const c of bundle.cases) check.expectAccepted(c.clause, together, what);
          continue;
        }
        // Refused together: each edge alone names the clause it breaks.
        const alone: boolean[] = [];
        for (const c of bundle.cases)
          alone.push(check.expectAccepted(c.clause, await experiments.create(c.body), c.description));
        if (alone.every(Boolean))
          check.expectAccepted('exp.create.accepted', together, `${what} (each accepted alone)`);
      }
    },
  );
}

/** The other boundary cases, per clause: created, refused or recorded as each case expects. */
function boundariesJudged(): void {
  for (const [clause, cases] of boundariesByClause) {
    if (cases.every((c) => EDGE_IDS.has(c.id))) continue; // sent together above
    const ids = new Set(cases.map((c) => c.id));
    const outcome = { accept: 'created', reject: 'refused with a 4xx', observe: 'answer recorded' } as const;
    test(
      cases.map((c) => `${c.description} ${outcome[c.expect]}`).join('; '),
      clauses(OPERATIONS.experiment, clause),
      async ({ run, experiments, check }) => {
        for (const c of experimentBoundaryCases(options(run)).filter((x) => ids.has(x.id))) {
          const ex = await experiments.create(c.body);
          if (c.expect === 'accept') check.expectAccepted(c.clause, ex, c.description);
          else if (c.expect === 'reject') check.expectRejected(c.clause, ex, c.description);
          else check.observe(c.clause, `${c.description}: answered ${ex.status}`, ex);
        }
      },
    );
  }
}

/** What the spec does not show (required fields, allocation rules, other values): answers recorded. */
function unshownRulesRecorded(): void {
  test(
    'a payload missing one request field at a time: each answer recorded',
    clauses(OPERATIONS.experiment, 'exp.create.required-fields'),
    async ({ run, experiments, check }) => {
      const base = experimentPayload(options(run));
      for (const field of Object.keys(base)) {
        const { [field]: _omitted, ...rest } = base;
        const ex = await experiments.create(rest);
        check.observe('exp.create.required-fields', `without ${field}: answered ${ex.status}`, ex);
      }
    },
  );

  test(
    'weights that do not sum to 100: answer recorded',
    clauses(OPERATIONS.experiment, 'exp.create.allocation.rules'),
    async ({ run, experiments, check }) => {
      const base = experimentPayload(options(run));
      const allocations = base.allocations as Array<Record<string, unknown>>;
      const uneven = await experiments.create({ ...base, allocations: allocations.map((a) => ({ ...a, weight: 30 })) });
      check.observe('exp.create.allocation.rules', `weights 30/30 answered ${uneven.status}`, uneven);
    },
  );

  test(
    'other authentication_flow and assignment subject values: answers recorded',
    clauses(
      OPERATIONS.experiment,
      'exp.create.authentication_flow.values',
      'exp.create.assignment_config.subject.values',
    ),
    async ({ run, experiments, check }) => {
      const base = experimentPayload(options(run));
      const flow = await experiments.create({ ...base, authentication_flow: 'signup' });
      check.observe(
        'exp.create.authentication_flow.values',
        `authentication_flow "signup" answered ${flow.status}`,
        flow,
      );
      const subject = await experiments.create({ ...base, assignment_config: { subject: 'user' } });
      check.observe(
        'exp.create.assignment_config.subject.values',
        `assignment_config.subject "user" answered ${subject.status}${subject.status >= 400 ? `: ${short(subject.body)}` : ''}`,
        subject,
      );
    },
  );
}

// Helpers

function group<T extends ViolationCase | BoundaryCase>(cases: T[]): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const c of cases) out.set(c.clause, [...(out.get(c.clause) ?? []), c]);
  return out;
}
