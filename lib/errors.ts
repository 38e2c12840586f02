// The suite's own errors: a stable code, one line of prose, and the exit code it maps to.
// Tests and scripts assert the code, never the prose (as jose does with ERR_JWT_EXPIRED).

const ExitCode = {
  conformant: 0,
  mustFailed: 1,
  config: 2,
  target: 3,
} as const;

export const ErrorCodes = {
  /** A required setting is absent. */
  IDM_E_CONFIG_MISSING: ExitCode.config,
  /** A setting has a value the suite cannot use (bad URL, unknown depth, non-integer seed…). */
  IDM_E_CONFIG_INVALID: ExitCode.config,
  /** Two settings contradict each other (e.g. a limited client id without its secret). */
  IDM_E_CONFIG_CONTRADICTORY: ExitCode.config,
  /** The .env file exists but cannot be read or has a malformed line. */
  IDM_E_CONFIG_ENV_FILE: ExitCode.config,
  /** The configured resource server cannot be read through the update operation (e.g. 404). */
  IDM_E_CONFIG_RESOURCE_SERVER: ExitCode.config,
  /** Nothing answers at the target (connection refused, DNS failure, timeout). */
  IDM_E_TARGET_UNREACHABLE: ExitCode.target,
  /** The token endpoint refused the configured client credentials. */
  IDM_E_CREDENTIALS_REJECTED: ExitCode.target,
  /** The target answered, but not like a tenant (5xx, non-JSON token response, no access_token). */
  IDM_E_TARGET_UNUSABLE: ExitCode.target,
  /** The suite's run state is missing in a worker (tests started without the global setup). */
  IDM_E_RUN_STATE: ExitCode.config,
  /** Another run is using the same target + resource server on this machine. */
  IDM_E_RUN_IN_PROGRESS: ExitCode.config,
  /** The restore journal (lib/journal.ts) is unreadable or names another resource server. */
  IDM_E_JOURNAL: ExitCode.config,
  /** An interrupted run's changes could not be put back and read back equal; the journal is kept. */
  IDM_E_RESTORE_UNVERIFIED: ExitCode.target,
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

/** An error as data: its stable code (null when it has none, e.g. a crash) and its one line for people. */
export interface ErrorRecord {
  code: string | null;
  line: string;
}

/**
 * The exit code of an error, from its stable code (the reporter's own IDM_E_BASELINE_* and
 * IDM_E_CONFIG_CATALOGUE are configuration errors); an error without one broke the run (1).
 */
export function exitCodeOf(code: string | null): 1 | 2 | 3 {
  if (code === null) return 1;
  const known = (ErrorCodes as Record<string, number>)[code];
  if (known === 2 || known === 3) return known;
  if (code.startsWith('IDM_E_CONFIG') || code.startsWith('IDM_E_BASELINE')) return 2;
  return 1;
}

export class IdmError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: number;
  constructor(code: ErrorCode, message: string) {
    // One line, always: a setting's value may carry a newline.
    super(message.replace(/\s*[\r\n]+\s*/g, ' '));
    this.name = 'IdmError';
    this.code = code;
    this.exitCode = ErrorCodes[code];
  }
  /** The one line the suite prints for this error. */
  line(): string {
    return `idm-conformance: ${this.code}: ${this.message}`;
  }
  record(): ErrorRecord {
    return { code: this.code, line: this.line() };
  }
}

export function isIdmError(e: unknown): e is IdmError {
  return e instanceof IdmError;
}

/** Print the error's one line to stderr and end the process with its exit code. */
export function exitWith(err: IdmError): never {
  process.stderr.write(err.line() + '\n');
  process.exit(err.exitCode);
}
