// reports/run-meta.json: the facts of a run that the reporter and bench show (target and,
// when it differs, the authentication API's origin, depth, seed, run tag, requests sent outside tests). Never holds a secret.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { runSettings } from './config/run.ts';
import type { Cleanup } from './experiment-cleanup.ts';

export interface RunMeta {
  target: string;
  /** The authentication API's origin (IDM_AUTH_URL) when it is not `target`; absent when it is. */
  authTarget?: string;
  /** The one API under test when only one was (IDM_APIS); absent when both were. */
  apis?: 'authentication' | 'management';
  embedded: boolean;
  depth: string;
  seed: number;
  runTag: string;
  resourceServerId: string;
  allow: string[];
  startedAt: string;
  requestsOutsideTests: { setup: number; teardown: number };
  /** Set by the teardown when the resource server could not be put back exactly. */
  restore?: { ok: boolean; unrestored: string[] };
  /** Set by the setup when it restored the changes of an interrupted run first (lib/journal.ts). */
  recovered?: { runTag: string; startedAt: string };
  /** Set by the teardown: the experiments this run created, deleted or not, and why (lib/experiment-cleanup.ts). */
  experiments?: Cleanup;
  /** Set by the setup: the experiments an interrupted run had left, deleted first. */
  recoveredExperiments?: Cleanup;
  /** Epoch ms at which the global setup and teardown started and ended (the bench splits the wall time by them). */
  timings?: { setupStartedAt: number; setupEndedAt: number; teardownStartedAt?: number; teardownEndedAt?: number };
}

/** Next to the other reports (IDM_REPORTS_DIR moves them all, default reports/). */
const runMetaPath = (): string => resolve(runSettings().reportsDir, 'run-meta.json');

/**
 * Also kept in this process's environment: the global setup, teardown and the reporters all
 * run in Playwright's runner process, so a reporter reads this run's facts even when another
 * run in the same checkout rewrites the file meanwhile.
 */
const ENV_VAR = 'IDM_RUN_META';

export function writeRunMeta(meta: RunMeta): void {
  process.env[ENV_VAR] = JSON.stringify(meta);
  const path = runMetaPath();
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(meta, null, 2) + '\n');
}

export function readRunMeta(): RunMeta | null {
  const own = process.env[ENV_VAR];
  if (own) {
    try {
      return JSON.parse(own) as RunMeta;
    } catch {
      /* fall back to the file */
    }
  }
  const path = runMetaPath();
  if (!existsSync(path)) return null;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as RunMeta;
  } catch {
    return null;
  }
}
