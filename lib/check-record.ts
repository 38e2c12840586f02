// The one definition of what a check leaves behind: the `check` annotation's payload that
// the runtime writes and the reporter reads (docs/ARCHITECTURE.md).

export type Outcome = 'passed' | 'failed' | 'observed';

export interface Evidence {
  request?: { method: string; url: string; headers: Record<string, string>; body?: unknown };
  response?: { status: number; headers: Record<string, string>; body?: unknown };
  curl?: string;
  /** The credential the suite forged that `curl` prints as sent (lib/credential-origin.ts): the reporter's net leaves it there. */
  forged?: string;
  seed?: number;
  path?: string;
  counterexample?: unknown;
  /** What the tenant did, as lib/answer-class.ts classified it: the class, the rule, its citation. */
  answer?: { class: string; rule: string; citation: string };
}

export interface CheckRecord {
  clause: string;
  outcome: Outcome;
  message: string;
  /** For 'observed': what the target did, e.g. "answered 201". */
  observation?: string;
  /** Always redacted before it is recorded. */
  evidence?: Evidence;
}
