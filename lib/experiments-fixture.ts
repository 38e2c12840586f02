// The `experiments` fixture of the conformance `test` (lib/fixtures.ts): creations with a name of
// their own per payload, each journaled for the cleanup after the run; skips unless experiments
// may be created on the target.
import type { Fixtures } from '@playwright/test';
import { optInSkip } from './config.ts';
import { EXPERIMENTS_PATH, type ApiClient, type Encoding, type Exchange } from './http.ts';
import { passes, PASSES } from './answer-class.ts';
import { experimentPayload, SERIAL_WIDTH, type ExperimentBody, type ExperimentOptions } from '../generators/index.ts';
import { recordAnswered, recordSending } from './experiment-journal.ts';
import { isObject } from './values.ts';
import { runSkip } from './skip-record.ts';
import { skipTest } from './declare.ts';
import { builds, type Suite } from './test-run.ts';

export interface ExperimentsHelper {
  /** The generator options of this run, with a serial per payload: each payload's name is its own. */
  options: ExperimentOptions;
  /** A realistic payload (generators/experiment.ts): control and treatment at 50/50, a name of its own. */
  realistic(): ExperimentBody;
  /** POST, journaled before it is sent and with the id it was answered with, for the cleanup after the run (lib/experiment-journal.ts). */
  create(body: unknown, o?: { encoding?: Encoding; client?: ApiClient }): Promise<Exchange>;
}

export const experimentsFixture: Fixtures<{ experiments: ExperimentsHelper }, { suite: Suite }, { mgmt: ApiClient }> = {
  experiments: builds(async ({ suite, mgmt }, use, testInfo) => {
    const { cfg, state } = suite;
    skipTest(optInSkip(cfg, 'experiments'), testInfo);
    skipTest(
      (!cfg.featureFlagId || cfg.variationIds.length === 0) &&
        runSkip({ setting: 'IDM_FEATURE_FLAG_ID' }, 'needs IDM_FEATURE_FLAG_ID and IDM_VARIATION_IDS'),
      testInfo,
    );
    const options: ExperimentOptions = {
      featureFlagId: cfg.featureFlagId!,
      variationIds: cfg.variationIds,
      strategyField: cfg.strategyField,
      runTag: state.runTag,
      authenticationFlow: cfg.authenticationFlow,
      assignmentSubject: cfg.assignmentSubject,
      serial: () => nextSerial(testInfo.workerIndex),
    };
    const helper: ExperimentsHelper = {
      options,
      realistic: () => experimentPayload(options),
      async create(body, o = {}) {
        // Journaled before it goes and with what came back: a kill in between leaves its name.
        const named = { name: isObject(body) ? String(body.name) : '', runTag: state.runTag };
        recordSending(cfg, named);
        const ex = await (o.client ?? mgmt).post(EXPERIMENTS_PATH, {
          data: body,
          ...(o.encoding ? { encoding: o.encoding } : {}),
        });
        const created = passes(ex.answer, PASSES.success) && isObject(ex.body) ? ex.body : null;
        recordAnswered(cfg, named, created && typeof created.id === 'string' ? created.id : null);
        return ex;
      },
    };
    await use(helper);
  }),
};

// Helpers

/** Payloads this worker process has named: with its worker index, a serial no other payload of the run carries. */
let serials = 0;
function nextSerial(workerIndex: number): string {
  return `${workerIndex.toString(36).padStart(2, '0')}${(serials++).toString(36).padStart(SERIAL_WIDTH - 2, '0')}`;
}
