// The run's folders, files and ports: read from the environment and .env like every setting,
// but on their own, so that a wrong target setting does not stop `npm run report`, the
// reporters or the restore journal from finding their folders.
import { resolve } from 'node:path';
import { loadSettings } from './parse.ts';
import type { Env } from './sources.ts';

export interface RunSettings {
  /** Where every report goes (IDM_REPORTS_DIR). */
  reportsDir: string;
  /** The restore journal and run lock (IDM_STATE_DIR), absolute. */
  stateDir: string;
  /** The known-deviation baseline (IDM_BASELINE). */
  baseline: string;
  embeddedPort: number;
  mutationPortBase: number;
  /** A counterexample to replay (IDM_REPLAY_PATH), or null. */
  replayPath: string | null;
  selftestSamples: number;
  /** IDM_FAIL_ON_INCOMPLETE: the gate fails an incomplete run (exit 4). */
  failOnIncomplete: boolean;
}

/** The settings runSettings reads (apart from the target's, so a wrong target setting stops none of them). */
export const RUN_SETTING_NAMES = [
  'IDM_REPORTS_DIR',
  'IDM_STATE_DIR',
  'IDM_BASELINE',
  'IDM_EMBEDDED_PORT',
  'IDM_MUTATION_PORT_BASE',
  'IDM_REPLAY_PATH',
  'IDM_SELFTEST_SAMPLES',
  'IDM_FAIL_ON_INCOMPLETE',
] as const;

/** Read at each call: a self-test may move a folder for the rest of its process. */
export function runSettings(env: Env = process.env, cwd = process.cwd()): RunSettings {
  const s = loadSettings(env, cwd, RUN_SETTING_NAMES);
  return {
    reportsDir: s.text('IDM_REPORTS_DIR') as string,
    stateDir: resolve(cwd, s.text('IDM_STATE_DIR') as string),
    baseline: s.text('IDM_BASELINE') as string,
    embeddedPort: s.int('IDM_EMBEDDED_PORT') as number,
    mutationPortBase: s.int('IDM_MUTATION_PORT_BASE') as number,
    replayPath: s.text('IDM_REPLAY_PATH'),
    selftestSamples: s.int('IDM_SELFTEST_SAMPLES') as number,
    failOnIncomplete: s.bool('IDM_FAIL_ON_INCOMPLETE') as boolean,
  };
}
