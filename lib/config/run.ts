// The run's folders, files and ports: read from the environment and .env like every setting,
// but on their own, so that a wrong target setting does not stop `npm run report`, the
// reporters or the restore journal from finding their folders.
import { resolve } from 'node:path';
import { SETTINGS } from './declarations.ts';
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
  /** The first loopback port of `npm run interop`'s servers. */
  interopPortBase: number;
  /** A counterexample to replay (IDM_REPLAY_PATH), or null. */
  replayPath: string | null;
  selftestSamples: number;
  /** IDM_FAIL_ON_INCOMPLETE: the gate fails an incomplete run (exit 4). */
  failOnIncomplete: boolean;
}

/** The settings marked `run` in the declarations: read apart from the target's, so a wrong target setting stops none of them. */
const RUN_SETTINGS = SETTINGS.filter((s) => s.run).map((s) => s.name);

/** Read at each call: a self-test may move a folder for the rest of its process. */
export function runSettings(env: Env = process.env, cwd = process.cwd()): RunSettings {
  const s = loadSettings(env, cwd, RUN_SETTINGS);
  return {
    reportsDir: s.text('IDM_REPORTS_DIR'),
    stateDir: resolve(cwd, s.text('IDM_STATE_DIR')),
    baseline: s.text('IDM_BASELINE'),
    embeddedPort: s.int('IDM_EMBEDDED_PORT'),
    mutationPortBase: s.int('IDM_MUTATION_PORT_BASE'),
    interopPortBase: s.int('IDM_INTEROP_PORT_BASE'),
    replayPath: s.text('IDM_REPLAY_PATH'),
    selftestSamples: s.int('IDM_SELFTEST_SAMPLES'),
    failOnIncomplete: s.bool('IDM_FAIL_ON_INCOMPLETE'),
  };
}
