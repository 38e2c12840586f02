// The `rs` fixture of the conformance `test` (lib/fixtures.ts): the configured resource server,
// locked for this test, each answer held against a write lost later (lib/lost-writes.ts) and the
// §2.1 invariants, and put back to its snapshot afterwards.
import { expect, type Fixtures } from '@playwright/test';
import { join } from 'node:path';
import { allowed } from './config.ts';
import { resourceServerPath, type ApiClient, type Encoding, type Exchange } from './http.ts';
import { passes, PASSES } from './answer-class.ts';
import { acquire, release } from './lock.ts';
import {
  makeSafe,
  readRestoreRefusal,
  refusedRestoreFields,
  restoreBody,
  unrestored,
  writeRestoreRefusal,
  type ResourceServer,
} from './staging.ts';
import { INVARIANTS, stateOf } from './management/update-answer.ts';
import { isObject, short } from './values.ts';
import { claimLostWrite, StateLedger, WriteWatch } from './lost-writes.ts';
import type { SkipRecord } from './skip-record.ts';
import type { Checks } from './checks.ts';
import type { TwinGate } from './twin-gate.ts';
import type { Suite } from './test-run.ts';

/** The resource server as a test sees it: what the fixture does after the test stays its own. */
export type ResourceServerUnderTest = Pick<
  UnderTest,
  'id' | 'identifier' | 'snapshot' | 'start' | 'update' | 'read' | 'current' | 'lostWrite' | 'safe'
>;

export const rsFixture: Fixtures<
  { rs: ResourceServerUnderTest },
  { suite: Suite },
  { mgmt: ApiClient; check: Checks; gate: TwinGate }
> = {
  rs: async ({ suite, mgmt, check, gate }, use, testInfo) => {
    const { state } = suite;
    // One test at a time writes the shared resource server, whatever worker it runs in.
    const lock = join(state.runDir, 'locks', 'resource-server');
    await acquire(lock, 5);
    const rs = await UnderTest.open(suite, mgmt, gate, testInfo.title);
    try {
      await use(rs);
      if (rs.dirty) await rs.putBack();
    } finally {
      // A lost write is one finding, said once in the run (the test that met it first).
      const lost = rs.watch.found[0];
      if (lost && claimLostWrite(state.runDir)) check.that('rs.update.persisted', false, lost.message, lost.ex);
      release(lock);
    }
  },
};

// Helpers

/** How many times the suite's own housekeeping (the restore after a test, its reads) sends one request at most. */
const HOUSEKEEPING_SENDS = 3;

/** The resource server a test writes: what it was answered, what it wrote, and how to put it back. */
class UnderTest {
  readonly id: string;
  /** The identifier (audience) from the snapshot, when it has one. */
  readonly identifier: string | null;
  readonly snapshot: ResourceServer;
  /** The state the tenant last answered with (null after a refused write, which may have written). */
  private known: ResourceServer | null;
  /** Whether the test wrote (then the fixture puts the snapshot back). */
  dirty = false;

  private constructor(
    private readonly suite: Suite,
    private readonly mgmt: ApiClient,
    private readonly gate: TwinGate,
    readonly watch: WriteWatch,
    /**
     * The state this test starts from: the snapshot, or — once a restore was refused (said once,
     * lib/staging.ts) — the state read at the start, so no-write and read-your-writes are judged
     * against a state the suite knows.
     */
    readonly start: ResourceServer,
    private readonly refusal: ReturnType<typeof readRestoreRefusal>,
  ) {
    const { cfg, state } = suite;
    this.id = cfg.resourceServerId;
    this.snapshot = state.snapshot;
    this.identifier = typeof state.snapshot.identifier === 'string' ? state.snapshot.identifier : null;
    this.known = start;
  }

  /** The state the test starts from (read again once a restore was refused), watched for lost writes. */
  static async open(suite: Suite, mgmt: ApiClient, gate: TwinGate, test: string): Promise<UnderTest> {
    const { state } = suite;
    const path = resourceServerPath(suite.cfg.resourceServerId);
    const read = () => mgmt.patch(path, { data: {} });
    const ledger = new StateLedger(state.runDir);
    if (ledger.empty) ledger.record(state.snapshot, { test: 'global setup', by: 'the snapshot', wrote: false });
    const refusal = readRestoreRefusal(state.runDir);
    const start = refusal ? (stateOf(await untilNoFault(read)) ?? state.snapshot) : state.snapshot;
    const describe = (body: unknown) => short(suite.redactor.value(body));
    const write = (body: unknown) => mgmt.patch(path, { data: body });
    const watch = new WriteWatch({ ledger, test, start, read, write, describe });
    if (refusal) watch.saw(start, 'PATCH {} (the state this test starts from)');
    return new UnderTest(suite, mgmt, gate, watch, start, refusal);
  }

  /** PATCH the resource server. `via` addresses it by another path parameter (identifier…). */
  update(
    body: unknown,
    o: { via?: string; encoding?: Encoding; raw?: string; headers?: Record<string, string> } = {},
  ): Promise<Exchange> {
    const raw = o.raw?.trim();
    const wrote = raw !== undefined ? raw !== '' && raw !== '{}' : !(isObject(body) && Object.keys(body).length === 0);
    this.dirty ||= wrote;
    const sent = o.raw !== undefined ? parsedOrNull(o.raw) : body;
    const by = `PATCH ${o.raw !== undefined ? 'a raw body' : this.describe(body)}${o.via ? ` via ${o.via}` : ''}${o.encoding === 'form' ? ' as a form' : ''}`;
    const request = () =>
      this.mgmt.patch(resourceServerPath(o.via ?? this.id), {
        ...(o.raw !== undefined ? { raw: o.raw } : { data: body }),
        ...(o.encoding ? { encoding: o.encoding } : {}),
        ...(o.headers ? { headers: o.headers } : {}),
      });
    return this.send(sent, by, request, wrote);
  }

  /** Current state through an empty partial update (the spec shows no read operation). */
  read(restoring = false): Promise<Exchange> {
    return this.send({}, 'PATCH {}', () => this.patch({}), false, restoring);
  }

  /** The state the tenant last answered with. */
  current(): ResourceServer | null {
    return this.known;
  }

  /**
   * Why a judgement on these answers is skipped: a write lost later changed the state one of
   * them shows (said under rs.update.persisted, lib/lost-writes.ts); null when none did.
   */
  lostWrite(...exs: Exchange[]): SkipRecord | null {
    for (const ex of exs) {
      const why = this.watch.disturbance(ex);
      if (why) return why;
    }
    return null;
  }

  /** A valid body made safe for the target (lib/staging.ts); identity on the embedded tenant. */
  safe<T extends Record<string, unknown>>(body: T): Record<string, unknown> {
    const { cfg } = this.suite;
    return cfg.embedded
      ? { ...body }
      : makeSafe(body, this.snapshot, {
          lowerLifetime: allowed(cfg, 'lifetime'),
          irreversible: allowed(cfg, 'irreversible'),
        });
  }

  /**
   * After a test that wrote: the resource server put back to its snapshot, each field the tenant
   * refuses found alone, and what could not be put back said once in the run (later tests are
   * judged from the state they start in).
   */
  async putBack(): Promise<void> {
    const { cfg, state } = this.suite;
    const current = this.known ?? stateOf(await untilNoFault(() => this.read()));
    if (!current) return;
    const body = restoreBody(this.snapshot, current);
    if (Object.keys(body).length === 0) return;
    const restore = (b: Record<string, unknown>) =>
      untilNoFault(() =>
        this.send(b, `the restore ${this.describe(b)} after the test`, () => this.patch(b), true, true),
      );
    let after = stateOf(await restore(body)) ? this.known : null;
    let refused: string[] = [];
    if (after === null) {
      // Which field the tenant refuses: each one alone; the others are put back.
      refused = (await refusedRestoreFields(body, restore)).refused;
      after = stateOf(await untilNoFault(() => this.read(true))) ? this.known : null;
    }
    // With lowering allowed (always on the embedded tenant), a clamped token_lifetime_for_web is accepted loss.
    const left = after
      ? unrestored(this.snapshot, after).filter((f) => !(f === 'token_lifetime_for_web' && allowed(cfg, 'lifetime')))
      : ['(restore refused)'];
    // A refusal already said (same fields) is not said again: later tests start from a state they read.
    if (left.length === 0 || (this.refusal && left.every((f) => this.refusal!.fields.includes(f)))) return;
    writeRestoreRefusal(state.runDir, { fields: left, refused });
    expect(
      left,
      `restoring ${cfg.resourceServerId} to its snapshot left fields changed${refused.length > 0 ? `: the tenant refused ${refused.join('; ')}` : ''} (said once; later tests are judged from the state they start in)`,
    ).toEqual([]);
  }

  private patch(body: unknown): Promise<Exchange> {
    return this.mgmt.patch(resourceServerPath(this.id), { data: body });
  }

  private describe(body: unknown): string {
    return short(this.suite.redactor.value(body));
  }

  /**
   * Every request of the fixture: an answer carrying the resource server is held against the
   * state before it (lib/lost-writes.ts), then against the §2.1 invariants.
   */
  private async send(
    sent: unknown,
    by: string,
    request: () => Promise<Exchange>,
    wrote: boolean,
    restoring = false,
  ): Promise<Exchange> {
    const ex = await request();
    if (passes(ex.answer, PASSES.success) && isObject(ex.body)) {
      if (ex.body.id === undefined || ex.body.id === this.id)
        await this.watch.answered(ex, isObject(sent) ? sent : {}, by, request);
      this.known = this.watch.current();
      if (!restoring) for (const c of INVARIANTS) await this.gate.call(c, ex, { ex, snapshot: this.snapshot });
    } else if (wrote) {
      this.known = null; // a refused write may still have written (that is a finding)
      this.watch.refusedWrite(sent);
    }
    return ex;
  }
}

/** A raw body's JSON value, null when it is not JSON (nothing it sends can be told apart). */
function parsedOrNull(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/**
 * The suite's own housekeeping, sent again while the tenant answers it with a fault (a 5xx): the
 * same restore or read sent again cannot change the outcome. Each fault is still judged on its
 * answer (mgmt.error.server-fault, lib/answer-rules.ts); none is taken for a refused restore.
 */
async function untilNoFault(send: () => Promise<Exchange>): Promise<Exchange> {
  let ex = await send();
  for (let i = 1; i < HOUSEKEEPING_SENDS && ex.answer.class === 'fault'; i++) ex = await send();
  return ex;
}
