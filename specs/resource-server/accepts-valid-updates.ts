// PATCH /resource-servers/{id} with generated valid bodies (§2.2, §2.3, §4.1): accepted
// with 201, the answer is a closed §2.1 object carrying every sent value, fields not sent
// keep their values, and an empty update reads the same state back.
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS, skipClauses } from '../../lib/declare.ts';
import { clausesOf } from '../../lib/condition.ts';
import { forAll } from '../../lib/property.ts';
import type { ResourceServerUnderTest } from '../../lib/fixtures.ts';
import { resourceServerPath, type Exchange } from '../../lib/http.ts';
import type { TwinGate } from '../../lib/twin-gate.ts';
import {
  judgeUpdateAnswer,
  servedUnderPrefix,
  unsentChanges,
  UPDATE_ANSWER,
} from '../../lib/management/update-answer.ts';
import { emptyUpdateAccepted, readsBack, sameStateTwice } from '../../lib/management/read-back.ts';
import { recorded } from '../../lib/management/recorded.ts';
import { deepEqual, isObject } from '../../lib/values.ts';
import type { ResourceServer } from '../../lib/staging.ts';
import { updateBody } from '../../generators/index.ts';
import type { SkipRecord } from '../../lib/skip-record.ts';

const PS256 = recorded('rs.update.signing_alg.ps256-add-on');
const EARLY_ACCESS = recorded('version.authorization_policy.early-access');

test.describe('update a resource server: valid bodies', () => {
  test(
    'generated valid bodies are answered 201 with the sent values; PATCH {} reads the state back where fields not sent changed',
    // rs.update.persisted is judged here only on those read-backs, so it is declared by the tests
    // that always judge it (the invalid bodies' settled write, the empty body): an error after a
    // run without read-backs (a refused restore) is not this clause's.
    clauses(OPERATIONS.update, ...clausesOf(UPDATE_ANSWER, servedUnderPrefix)),
    async ({ run, rs, gate, check }) => {
      // PS256 (an add-on) and, when disabled, authorization_policy (Early Access) are observed elsewhere.
      const arb = updateBody({ addOns: false, earlyAccess: run.cfg.earlyAccess }).map((b) => rs.safe(b));
      // The state the next update starts from. Each answer carries every field, so the next
      // update's answer already shows whether the fields it did not send kept their values:
      // the state is read back (PATCH {}) only when they did not — to tell a write that was
      // not stored (persisted) from one that reset other fields (partial). A write still there
      // "a moment" later is the invalid bodies' test's to judge: its one read comes SETTLE_MS
      // after a valid write, with the batch in the pause (rejects-invalid-updates.ts).
      let before: ResourceServer | null = rs.start;
      let answered: Exchange | null = null; // the answer `before` comes from, while it is not read back
      await forAll(
        check,
        arb,
        async (body) => {
          const ex = await rs.update(body);
          // A write lost later shows in the fields not sent: partial is not judged on that answer.
          let lost = rs.lostWrite(ex);
          let stored: ResourceServer | null = null;
          if (!lost && answered && before && isObject(ex.body) && unsentChanges(body, before, ex.body).length > 0) {
            ({ stored, lost } = await readBack(gate, rs, ex));
            if (!deepEqual(stored, ex.body)) before = null; // not stored: the changed fields say nothing of partial
          }
          if (lost) {
            skipClauses(test.info(), lost, 'rs.update.partial');
            before = null;
          }
          const after = await judgeUpdateAnswer(gate, { ex, sent: body, before });
          before = lost ? rs.current() : (stored ?? after);
          answered = after && !stored && !lost ? ex : null;
          if (after) await gate.call(servedUnderPrefix, ex, { ex, path: resourceServerPath(rs.id) });
        },
        { name: 'rs.update.valid-bodies', runSeed: run.seed, numRuns: run.runs.update, maxShrinkCalls: 150 },
      );
    },
  );

  test(
    'an empty body {} is a valid update and changes nothing',
    clauses(OPERATIONS.update, ...clausesOf(emptyUpdateAccepted, sameStateTwice)),
    async ({ rs, gate }) => {
      const first = await rs.read();
      await gate.call(emptyUpdateAccepted, first, first);
      const second = await rs.read();
      if (rs.lostWrite(first, second)) return; // said once under rs.update.persisted by the fixture
      if (gate.faultedFor(first, [sameStateTwice], 'the first PATCH {}')) return;
      await gate.call(sameStateTwice, second, { first, second });
    },
  );

  test(
    'PS256 (an add-on) and authorization_policy (Early Access) are each accepted or refused: recorded',
    clauses(OPERATIONS.update, ...clausesOf(PS256, EARLY_ACCESS)),
    async ({ rs, gate }) => {
      // One after the other in one test: the resource server is restored once for both.
      const ps256 = await rs.update({ signing_alg: 'PS256' });
      await gate.call(PS256, ps256, { what: 'signing_alg PS256', ex: ps256 });
      const policy = await rs.update({ authorization_policy: { policy_id: 'pol_idm_conformance' } });
      await gate.call(EARLY_ACCESS, policy, { what: 'authorization_policy {policy_id}', ex: policy });
    },
  );
});

// Helpers

/**
 * Reads the state back (PATCH {}) and judges it against the state `ex` answered
 * (rs.update.persisted), unless a write lost later disturbed the read (said by the fixture) or
 * the read was a fault: either leaves open what the changed fields say, and is returned as `lost`.
 */
async function readBack(
  gate: TwinGate,
  rs: ResourceServerUnderTest,
  ex: Exchange,
): Promise<{ stored: ResourceServer | null; lost: SkipRecord | null }> {
  const again = await rs.read();
  const lost = rs.lostWrite(again) ?? gate.faultedFor(again, [readsBack], 'PATCH {} reading the update back');
  if (lost) return { stored: rs.current(), lost };
  await gate.call(readsBack, again, { again, updated: ex });
  return { stored: isObject(again.body) ? again.body : null, lost: null };
}
