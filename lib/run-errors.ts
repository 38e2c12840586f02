// The runtime's own errors in Playwright's runner process (the global teardown), kept as data
// for the reporter in the same process: Playwright hands a reporter only an error's words, and
// the gate decides an exit code from the code, never from the words (reporters/gate.ts).
import type { ErrorRecord, IdmError } from './errors.ts';

const ENV_VAR = 'IDM_RUN_ERRORS';

/** Keeps an error of ours for the reporter instead of throwing it into Playwright. */
export function recordRunError(e: IdmError): void {
  process.env[ENV_VAR] = JSON.stringify([...runErrors(), e.record()]);
}

/** The errors recorded in this process so far. */
export function runErrors(): ErrorRecord[] {
  try {
    const v = JSON.parse(process.env[ENV_VAR] ?? '[]') as unknown;
    return Array.isArray(v) ? (v as ErrorRecord[]) : [];
  } catch {
    return [];
  }
}
