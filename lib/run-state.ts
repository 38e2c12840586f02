// What the global setup hands to the test workers: the run's seed and tag, the shared
// directory for cross-worker state, one management token per client, the run's own key, and
// the snapshot of the configured resource server. Passed through the environment (workers inherit it),
// never written under reports/ and never printed.
import { IdmError } from './errors.ts';
import type { JsonWebKey } from 'node:crypto';
import type { Discovered } from './config.ts';

export interface RunState {
  seed: number;
  runTag: string;
  /** Temporary directory for cross-worker state (pacer, locks); not under reports/. */
  runDir: string;
  /** null: the Management API is not under test (IDM_APIS=authentication), so no token was asked for. */
  tokens: { full: string | null; limited: string | null };
  /** The configured resource server as the target returned it before any test ran ({} when the Management API is not under test). */
  snapshot: Record<string, unknown>;
  startedAt: string;
  /** The authentication API's token endpoint and issuer from its discovery document (config.ts withDiscovered). */
  discovered: Discovered;
  /** The run's own RS256 key (private JWK) that no tenant registered (lib/auth/run-key.ts). */
  foreignKey: JsonWebKey;
}

const VAR = 'IDM_RUN_STATE';

export function publishRunState(state: RunState): void {
  process.env[VAR] = JSON.stringify(state);
}

export function readRunState(): RunState {
  const raw = process.env[VAR];
  if (!raw) {
    throw new IdmError(
      'IDM_E_RUN_STATE',
      'no run state: conformance specs run through `npm run conformance` (or playwright --project=conformance), whose global setup prepares the target',
    );
  }
  return JSON.parse(raw) as RunState;
}

export function hasRunState(): boolean {
  return Boolean(process.env[VAR]);
}
