// PATCH /resource-servers/{id} with bodies that break one clause each (§2.2, §2.3, §7.1, §8):
// every one is refused with 400 and nothing is written. The cases are data
// (contract/cases/resource-server-update.json, generators/cases.ts), a step per type. Each body
// carries distinctive valid values (its probe), so one read after the whole batch tells whether,
// and which, a refused write leaked; only an unattributable leak is bisected. The valid write made
// first is the refusals' twin, and the batch fills the pause rs.update.persisted needs (specs/README.md).
import { test } from '../../lib/fixtures.ts';
import type { ResourceServerUnderTest } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS, skipClauses } from '../../lib/declare.ts';
import { clausesOf } from '../../lib/condition.ts';
import type { TwinGate } from '../../lib/twin-gate.ts';
import { errorBodyRecorded } from '../../lib/management/recorded.ts';
import { stateOf } from '../../lib/management/update-answer.ts';
import { NO_WRITE, nothingWritten, settledWriteKept } from '../../lib/management/no-write.ts';
import { runSkip } from '../../lib/skip-record.ts';
import { allowed, type Config } from '../../lib/config.ts';
import { deepEqual, isObject, short } from '../../lib/values.ts';
import { restoreBody, UPDATABLE_FIELDS, type ResourceServer } from '../../lib/staging.ts';
import { distinctiveUpdateValues, findLeak, withProbe, type ViolationCase } from '../../generators/index.ts';
import { loadUpdateCases } from '../../generators/cases.ts';
import { TargetTransportError, type Exchange } from '../../lib/http.ts';
import { sleep } from '../../lib/lock.ts';
import { SETTLE_MS } from '../../lib/lost-writes.ts';

/** The type a clause belongs to: `rs.scope.value.length` → `scope`; the body's own rules → `update`. */
const typeOf = (clause: string): string => clause.split('.')[1] ?? clause;

/** A step's title: `update` → the body's own rules (§2.2); `token_encryption` → a TokenEncryption (§2.3). */
function titleOf(type: string): string {
  if (type === 'update') return 'update bodies breaking one rule of §2.2 each';
  const name = type.replace(/(?:^|_)(\w)/g, (_, c: string) => c.toUpperCase());
  return `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name} breaking one rule of §2.3 each`;
}

const byType = new Map<string, ViolationCase[]>();
for (const c of loadUpdateCases().violations)
  byType.set(typeOf(c.clause), [...(byType.get(typeOf(c.clause)) ?? []), c]);

const ALL = [...byType.values()].flat();

test.describe('update a resource server: invalid bodies', () => {
  test(
    `bodies breaking one rule of §2.2 or §2.3 each (${ALL.length} bodies) and one that is not JSON: each refused with 400, nothing written`,
    clauses(
      OPERATIONS.update,
      ...clausesOf(...ALL.map((c) => c.clause), 'rs.update.error.400.malformed-body', errorBodyRecorded),
      ...clausesOf(nothingWritten, settledWriteKept),
    ),
    async ({ run, rs, gate }, info) => {
      const settled = await settledWrite(rs, run.runTag);
      const twin = gate.twinOf('rs.update.success.status', settled.ex);
      let expected: ResourceServer = settled.kept?.state ?? rs.start;
      const refused: ViolationCase[] = [];
      // One step per type; one read after them all judges no-write for every refused body.
      for (const [type, group] of byType) {
        await test.step(`${titleOf(type)} (${group.length} bodies)`, async () => {
          for (const c of group.map((c) => safeProbe(withProbe(c, run.runTag), run.cfg, run.snapshot))) {
            const ex = await sentAlone(info, c.clause, c.description, () => rs.update(c.body));
            if (!ex) continue;
            if (gate.refusedWith(twin, c.clause, ex, 400, c.description)) refused.push(c);
            else expected = stateOf(ex) ?? expected; // accepted: a failure above, and the new state
          }
        });
      }
      // In the batch, so that its read covers this body too (one request fewer than a test of its own).
      await test.step('a body that is not valid JSON (1 body)', async () => {
        const what = 'PATCH with a truncated JSON body';
        const ex = await sentAlone(info, 'rs.update.error.400.malformed-body', what, () =>
          rs.update(null, { raw: '{"name": "unterminated', headers: { 'content-type': 'application/json' } }),
        );
        if (!ex) return;
        gate.refusedWith(twin, 'rs.update.error.400.malformed-body', ex, 400, what);
        await gate.call(errorBodyRecorded, ex, { what, ex });
      });
      if (settled.kept) await sleep(settled.kept.at + SETTLE_MS - Date.now());
      await checkNothingWritten(gate, rs, expected, refused, rs.start, settled.kept);
    },
  );
});

/**
 * One body of the batch: its answer, or null when the target left it unanswered (sent twice where
 * that is safe, lib/http.ts): then only its own clause is unjudged, and the batch goes on.
 */
async function sentAlone(
  info: Parameters<typeof skipClauses>[0],
  clause: string,
  what: string,
  send: () => Promise<Exchange>,
): Promise<Exchange | null> {
  try {
    return await send();
  } catch (e) {
    if (!(e instanceof TargetTransportError)) throw e;
    skipClauses(info, runSkip({ answer: 'no-answer' }, `${what}: the target did not answer (${e.message})`), clause);
    return null;
  }
}

/** A valid write answered as stored, before the batch: what the read after it must still show. */
interface SettledWrite {
  sent: Record<string, unknown>;
  state: ResourceServer;
  /** Epoch ms of its answer. */
  at: number;
}

/**
 * The valid write before the batch: the refusals' accepted twin, and — when it was answered as
 * stored — what the read after the batch holds to rs.update.persisted (`kept`).
 */
async function settledWrite(
  rs: ResourceServerUnderTest,
  runTag: string,
): Promise<{ ex: Exchange; kept: SettledWrite | null }> {
  const sent = rs.safe({ name: distinctiveUpdateValues(`${runTag}:settled`).name });
  const ex = await rs.update(sent);
  const state = stateOf(ex);
  if (state === null || rs.lostWrite(ex)) return { ex, kept: null };
  return { ex, kept: { sent, state, at: Date.now() } };
}

/** Reads the state once; on a difference names the leaking case by its probe, else bisects. */
async function checkNothingWritten(
  gate: TwinGate,
  rs: ResourceServerUnderTest,
  expected: ResourceServer,
  refused: ViolationCase[],
  snapshot: ResourceServer,
  settled: SettledWrite | null,
): Promise<void> {
  if (refused.length === 0) return;
  const read = await rs.read();
  // A write lost later changes the state between the reads, whatever the refused bodies did.
  const lost = rs.lostWrite(read);
  if (lost) return skipClauses(test.info(), lost, NO_WRITE);
  if (gate.faultedFor(read, [nothingWritten, settledWriteKept], 'PATCH {} after the refused bodies')) return;
  if (!isObject(read.body))
    return void (await gate.call(nothingWritten, read, {
      read,
      refused: refused.length,
      changed: [`the state could not be read back: PATCH {} answered ${read.status}`],
      culprits: 'the batch',
    }));
  const changed = diff(
    settled ? await judgeSettled(gate, settled, read, read.body, refused, expected) : expected,
    read.body,
  );
  let culprits: ViolationCase[] = [];
  if (changed.length > 0) {
    culprits = findLeak(read.body, refused);
    if (culprits.length === 0 && refused.length === 1) culprits = refused;
    if (culprits.length === 0) culprits = await bisect(rs, refused, snapshot);
  }
  const names =
    culprits.length > 0
      ? culprits.map((c) => `${c.id} (${c.description})`).join(', ')
      : 'a refused update (not attributable)';
  await gate.call(nothingWritten, read, { read, refused: refused.length, changed, culprits: names });
}

/**
 * rs.update.persisted on the settled write's fields, read back after the batch. Not judged when
 * a body of the batch was accepted and wrote them (its own clause fails; the write was
 * superseded) or a refused body's value shows there (no-write's to judge); a field back to an
 * older value is this clause's failure, and no-write then compares the other fields only: one
 * cause, one failure.
 */
async function judgeSettled(
  gate: TwinGate,
  settled: SettledWrite,
  read: Exchange,
  now: ResourceServer,
  refused: ViolationCase[],
  expected: ResourceServer,
): Promise<ResourceServer> {
  const fields = Object.keys(settled.sent);
  const leaked = (f: string) => refused.some((c) => isObject(c.body) && f in c.body && deepEqual(c.body[f], now[f]));
  const superseded = (f: string) => !deepEqual(expected[f], settled.state[f]);
  if (fields.some(superseded) || fields.some(leaked)) return expected;
  const kept = fields.every((f) => deepEqual(now[f], settled.state[f]));
  await gate.call(settledWriteKept, read, {
    read,
    fields,
    kept,
    after: `${Date.now() - settled.at} ms`,
    seen: fields.map((f) => `${f} ${short(now[f])} instead of ${short(settled.state[f])}`).join('; '),
  });
  if (kept) return expected;
  const rest = { ...expected };
  for (const f of fields) rest[f] = now[f];
  return rest;
}

/**
 * Replays each refused case alone, from the snapshot, until the state moves. Only accepted reads
 * tell a state: a case a fault left untold (judged on that answer) is named no culprit.
 */
async function bisect(
  rs: ResourceServerUnderTest,
  refused: ViolationCase[],
  snapshot: ResourceServer,
): Promise<ViolationCase[]> {
  const out: ViolationCase[] = [];
  for (const c of refused) {
    if (!(await fromSnapshot(rs, snapshot))) continue;
    await rs.update(c.body);
    const after = stateOf(await rs.read());
    if (after && diff(snapshot, after).length > 0) out.push(c);
  }
  return out;
}

/** Puts the snapshot back before a case is replayed; false when a fault left the state untold. */
async function fromSnapshot(rs: ResourceServerUnderTest, snapshot: ResourceServer): Promise<boolean> {
  const now = stateOf(await rs.read());
  if (!now) return false;
  const back = restoreBody(snapshot, now);
  return Object.keys(back).length === 0 || (await rs.update(back)).answer.class !== 'fault';
}

/** Writable fields (and the identifier) whose values differ. */
function diff(a: ResourceServer, b: ResourceServer): string[] {
  return [...UPDATABLE_FIELDS, 'identifier']
    .filter((f) => f in a && !deepEqual(a[f], b[f]))
    .map((f) => `${f}: ${short(a[f])} → ${short(b[f])}`);
}

/**
 * On a shared tenant, a leaking probe must not lower token_lifetime below the original
 * token_lifetime_for_web (the clamp could not be undone): the probe value is raised.
 */
function safeProbe(c: ViolationCase, cfg: Config, snapshot: ResourceServer): ViolationCase {
  const web = snapshot.token_lifetime_for_web;
  if (allowed(cfg, 'lifetime') || typeof web !== 'number' || !c.probe || !isObject(c.body)) return c;
  const probeLifetime = c.probe.token_lifetime;
  if (typeof probeLifetime !== 'number' || probeLifetime >= web || c.body.token_lifetime !== probeLifetime) return c;
  const raised = Math.min(2592000, web + 1 + (probeLifetime % 1000));
  return { ...c, probe: { ...c.probe, token_lifetime: raised }, body: { ...c.body, token_lifetime: raised } };
}
