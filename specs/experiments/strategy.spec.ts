// The traffic allocation strategy attribute (§2.4): its enum (percentage | segment) is stated, its
// field name is not. Only when a valid experiment's answer carries the configured name
// (IDM_STRATEGY_FIELD) with a value of the enum (the target has confirmed the name, lib/strategy.ts)
// is the enum asserted; otherwise what the answer showed is recorded under exp.create.strategy.name
// and the test is skipped saying why, never failed. Each value outside the enum is judged beside its
// twin (lib/management/experiment-refusals.ts).
import { test } from '../../lib/fixtures.ts';
import type { ExperimentsHelper, RunInfo } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../../lib/declare.ts';
import { clausesOf } from '../../lib/condition.ts';
import type { Exchange } from '../../lib/http.ts';
import { notAssertedSkip, strategyConfirmation } from '../../lib/strategy.ts';
import { created } from '../../lib/management/experiment-answer.ts';
import {
  answeredInEnum,
  enumValueAccepted,
  nameConfirmed,
  STRATEGY_ENUM,
} from '../../lib/management/experiment-strategy.ts';
import { caseBesideTwin } from '../../lib/management/experiment-refusals.ts';
import { MGMT_FAULT, type TwinGate } from '../../lib/twin-gate.ts';
import {
  experimentPayload,
  segmentExperimentPayload,
  strategyViolationCases,
  type ExperimentBody,
} from '../../generators/index.ts';
import { clauseSkip, runSkip } from '../../lib/skip-record.ts';
import { describeAnswer } from '../../lib/answer-words.ts';

const ENUM = STRATEGY_ENUM;
/** The cases' ids, from a placeholder payload at collection time; each is rebuilt on a payload of its own. */
const OUTSIDE_THE_ENUM = strategyViolationCases(
  experimentPayload({ featureFlagId: 'flg_7Hq2kPzR', variationIds: ['a', 'b'], runTag: 'collect' }),
).map((c) => c.id);
test.describe('allocation strategy', () => {
  test(
    'strategy values outside percentage | segment (another string, wrong case, empty, a number, null): refused with a 4xx beside the same payload made right, once the target confirms the field name (code recorded)',
    clauses(OPERATIONS.experiment, ...clausesOf(ENUM, nameConfirmed, created), 'exp.create.rejected.status'),
    async ({ run, experiments, gate }, info) => {
      await confirmName(run, experiments, gate);
      for (const id of OUTSIDE_THE_ENUM) {
        const base = experiments.realistic();
        const c = strategyViolationCases(base, run.cfg.strategyField).find((x) => x.id === id)!;
        await caseBesideTwin(gate, info, c, base, (body) => experiments.create(body));
      }
    },
  );

  test(
    'strategy percentage and segment: both accepted once the target confirms the field name',
    clauses(OPERATIONS.experiment, ...clausesOf(enumValueAccepted, answeredInEnum, nameConfirmed, created)),
    async ({ run, experiments, gate }) => {
      const field = run.cfg.strategyField;
      const confirming = await confirmName(run, experiments, gate);
      // The confirming creation is the `percentage` one.
      await gate.call(enumValueAccepted, confirming, { what: `${field} "percentage"`, ex: confirming });
      skipTest(
        run.cfg.segmentIds.length === 0 &&
          runSkip(
            { setting: 'IDM_SEGMENT_IDS' },
            'the segment half of exp.create.strategy.enum needs segment ids the target knows: set IDM_SEGMENT_IDS (comma-separated, in allocation order)',
          ),
      );
      // A payload of its own: the confirming one's name is taken.
      const ex = await experiments.create(segmentExperimentPayload(experiments.realistic(), run.cfg.segmentIds, field));
      const what = `${field} "segment" with segment ids ${run.cfg.segmentIds.join(', ')}`;
      if ((await gate.call(enumValueAccepted, ex, { what, ex })) === true)
        await gate.call(answeredInEnum, ex, { ex, field });
    },
  );
});

// Helpers

/** The confirming creation of this worker: both tests judge the one answer (no request twice). */
let confirmingOnce: { runTag: string; confirming: Exchange } | null = null;

/**
 * Creates a realistic experiment (control and treatment at 50/50, once per worker) and records
 * whether it was created and whether its answer confirms the name; skips the test when it does not.
 */
async function confirmName(run: RunInfo, experiments: ExperimentsHelper, gate: TwinGate): Promise<Exchange> {
  if (confirmingOnce?.runTag !== run.runTag) {
    const base: ExperimentBody = experiments.realistic();
    confirmingOnce = { runTag: run.runTag, confirming: await experiments.create(base) };
  }
  const { confirming: ex } = confirmingOnce;
  const what = 'POST a realistic experiment (control and treatment at 50/50)';
  // No creation, no name to confirm: the clause that failed is the cause, never the setting.
  skipTest(
    (await gate.call(created, ex, { what, ex })) !== true &&
      clauseSkip(
        ex.answer.class === 'fault' ? MGMT_FAULT : created.clauses[0],
        `not judged: ${what} answered ${describeAnswer(ex)}`,
      ),
  );
  await gate.call(nameConfirmed, ex, { ex, field: run.cfg.strategyField });
  const confirmation = strategyConfirmation(ex, run.cfg.strategyField);
  skipTest(!confirmation.confirmed && notAssertedSkip(confirmation));
  return ex;
}
