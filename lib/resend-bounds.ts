// How long the suite waits for a tenant that answers 502, 503 or 504 (a deploy, a failover)
// before such an answer counts: a bound per request (IDM_RESEND_WINDOW_S) and one per run
// (IDM_RESEND_RUN_S). The run's bound is shared by the worker processes through one file in the
// run's state directory: each appends the pause it asks for, and is granted what the pauses
// appended before its own leave of the bound (an append is atomic), so the processes together
// never wait longer than the bound, whatever their order.
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ResendBounds {
  /** The longest one request waits in all before its 5xx stands. */
  requestMs: number;
  /** What the run may wait in all, shared. */
  run: RunWaits;
}

let serial = 0;

export class RunWaits {
  /** Pauses asked by this process when there is no file to share (a self-test's client). */
  private local = 0;

  /** `dir` null: the bound is this process's alone. */
  constructor(
    readonly boundMs: number,
    private readonly dir: string | null,
  ) {}

  /** Asks for `ms` of the run's bound: what may be waited, 0 once it is spent. */
  take(ms: number): number {
    if (ms <= 0) return 0;
    if (this.dir === null) {
      const granted = Math.max(0, Math.min(ms, this.boundMs - this.local));
      this.local += ms;
      return granted;
    }
    const file = join(this.dir, 'resend-waits');
    const mine = `${process.pid}.${++serial}`;
    appendFileSync(file, `${mine} ${ms}\n`);
    let before = 0;
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const [who, asked] = line.split(' ');
      if (who === mine) break;
      before += Number(asked ?? 0) || 0;
    }
    return Math.max(0, Math.min(ms, this.boundMs - before));
  }
}
