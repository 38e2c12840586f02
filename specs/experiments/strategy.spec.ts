// The traffic allocation strategy attribute (§2.4): its enum (percentage | segment) is
// stated, its field name is not. Each test first needs a valid experiment carrying the
// configured name (IDM_STRATEGY_FIELD) with `percentage` (created once per worker; its
// creation is judged under exp.create.accepted too); only when the answer carries that
// field with a value of the enum (the target has confirmed the name, lib/strategy.ts) is the
// enum asserted. Otherwise what the answer showed is recorded under exp.create.strategy.name
// and the test is skipped saying why: never failed.
import { test } from '../../lib/fixtures.ts';
import type { Checks } from '../../lib/checks.ts';
import type { ExperimentsHelper, RunInfo } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../../lib/declare.ts';
import { short } from '../../lib/values.ts';
import type { Exchange } from '../../lib/http.ts';
import { isOutsider, notAssertedSkip, strategyConfirmation } from '../../lib/strategy.ts';
import { segmentExperimentPayload, strategyViolationCases, type ExperimentBody } from '../../generators/index.ts';
import { runSkip } from '../../lib/skip-record.ts';

test.describe('allocation strategy', () => {
  test(
    'strategy values outside percentage | segment (another string, wrong case, empty, a number, null): refused with a 4xx once the target confirms the field name (code recorded)',
    clauses(
      OPERATIONS.experiment,
      'exp.create.strategy.enum',
      'exp.create.strategy.name',
      'exp.create.rejected.status',
      'exp.create.accepted',
    ),
    async ({ run, experiments, check }) => {
      const { base } = await confirmName(run, experiments, check);
      for (const c of strategyViolationCases(base, run.cfg.strategyField)) {
        const ex = await experiments.create(c.body);
        check.expectRejected(c.clause, ex, c.description);
        check.observe('exp.create.rejected.status', `${c.description}: answered ${ex.status}`);
      }
    },
  );

  test(
    'strategy percentage and segment: both accepted once the target confirms the field name',
    clauses(OPERATIONS.experiment, 'exp.create.strategy.enum', 'exp.create.strategy.name', 'exp.create.accepted'),
    async ({ run, experiments, check }) => {
      const field = run.cfg.strategyField;
      const { base, confirming } = await confirmName(run, experiments, check);
      // The confirming creation is the `percentage` one.
      check.expectAccepted('exp.create.strategy.enum', confirming, `${field} "percentage"`);
      skipTest(
        run.cfg.segmentIds.length === 0 &&
          runSkip(
            { setting: 'IDM_SEGMENT_IDS' },
            'the segment half of exp.create.strategy.enum needs segment ids the target knows: set IDM_SEGMENT_IDS (comma-separated, in allocation order)',
          ),
      );
      const ex = await experiments.create(segmentExperimentPayload(base, run.cfg.segmentIds, field));
      if (
        !check.expectAccepted(
          'exp.create.strategy.enum',
          ex,
          `${field} "segment" with segment ids ${run.cfg.segmentIds.join(', ')}`,
        )
      )
        return;
      // §2.4: the attribute exists on the response too, with the same enum.
      const answered =
        ex.body !== null && typeof ex.body === 'object' && !Array.isArray(ex.body)
          ? (ex.body as Record<string, unknown>)[field]
          : undefined;
      if (answered !== undefined)
        check.that(
          'exp.create.strategy.enum',
          !isOutsider(answered),
          `the answer to "segment" carries ${field} ${short(answered)}`,
          ex,
        );
      else check.observe('exp.create.strategy.name', `the answer to "segment" does not carry ${field}`, ex);
    },
  );
});

// Helpers

/** The confirming creation of this worker: both tests judge the one answer (no request twice). */
let confirmingOnce: { runTag: string; base: ExperimentBody; confirming: Exchange } | null = null;

/**
 * Creates a realistic experiment (control and treatment at 50/50, once per worker) and records
 * whether it was created and whether its answer confirms the name; skips the test when it does not.
 */
async function confirmName(
  run: RunInfo,
  experiments: ExperimentsHelper,
  check: Checks,
): Promise<{ base: ExperimentBody; confirming: Exchange }> {
  if (confirmingOnce?.runTag !== run.runTag) {
    const base = experiments.realistic() as ExperimentBody;
    confirmingOnce = { runTag: run.runTag, base, confirming: await experiments.create(base) };
  }
  const { base, confirming: ex } = confirmingOnce;
  check.expectAccepted('exp.create.accepted', ex, 'POST a realistic experiment (control and treatment at 50/50)');
  const confirmation = strategyConfirmation(ex, run.cfg.strategyField);
  check.observe('exp.create.strategy.name', confirmation.message, ex);
  skipTest(!confirmation.confirmed && notAssertedSkip(confirmation));
  return { base, confirming: ex };
}
