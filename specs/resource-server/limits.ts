// The valid side of every §8 limit and the valid-side rules of §2.2/§2.3 (null where allowed,
// open members), as data from contract/cases/resource-server-update.json (generated from the
// schemas, generators/boundaries.ts). Independent valid values share one body, so the whole
// valid side costs a few requests; a refused body is taken apart value by value, so a refusal
// still names its clause. One past each limit is a violation case (rejects-invalid-updates).
import { test } from '../../lib/fixtures.ts';
import type { ResourceServerUnderTest } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS, skipClauses } from '../../lib/declare.ts';
import { clausesOf } from '../../lib/condition.ts';
import type { TwinGate } from '../../lib/twin-gate.ts';
import type { Exchange } from '../../lib/http.ts';
import { createdUnder, sentValuesBack, updateCreated, updateSucceeded } from '../../lib/management/update-answer.ts';
import { notSentHere, recorded } from '../../lib/management/recorded.ts';
import { deepEqual, isObject } from '../../lib/values.ts';
import { validBundles, type BoundaryCase } from '../../generators/index.ts';
import { loadUpdateCases } from '../../generators/cases.ts';
import { runSkip } from '../../lib/skip-record.ts';

const CASES = loadUpdateCases().boundaries;
const EARLY_ACCESS = (c: BoundaryCase): boolean => JSON.stringify(c.body).includes('authorization_policy');
const ACCEPTED = CASES.filter((c) => c.expect === 'accept');
const OPEN = CASES.filter((x) => x.expect === 'observe');

test.describe('update a resource server: limits, valid side', () => {
  test(
    'the valid edge of every limit, null where allowed and open members: accepted with 201, values sent together where independent',
    clauses(
      OPERATIONS.update,
      ...clausesOf(...ACCEPTED.map((c) => createdUnder(c.clause)), sentValuesBack, updateCreated),
    ),
    async ({ run, rs, gate }) => {
      let cases = ACCEPTED;
      if (!run.cfg.earlyAccess) {
        cases = ACCEPTED.filter((c) => !EARLY_ACCESS(c));
        const sent = new Set(cases.map((c) => c.clause));
        const unsent = ACCEPTED.filter((c) => EARLY_ACCESS(c) && !sent.has(c.clause)).map((c) => c.clause);
        skipClauses(
          test.info(),
          runSkip({ setting: 'IDM_EARLY_ACCESS' }, 'authorization_policy is Early Access and IDM_EARLY_ACCESS=false'),
          ...new Set(unsent),
        );
      }
      const sendable: BoundaryCase[] = [];
      for (const c of cases) if (await sendableOrSaid(c, rs, gate)) sendable.push(c);
      for (const bundle of validBundles(sendable)) {
        // Staging safety holds per value; should two values together not be safe, they go one by one.
        const together = deepEqual(rs.safe(bundle.body), bundle.body);
        const ex = together ? await rs.update(bundle.body) : null;
        const what = bundle.cases.map((c) => c.description).join(', ');
        if (ex && (updateSucceeded(ex) || bundle.cases.length === 1)) {
          if (gate.faultedFor(ex, [...bundle.cases.map((c) => createdUnder(c.clause)), sentValuesBack], what)) continue;
          for (const c of bundle.cases) await gate.call(createdUnder(c.clause), ex, { ex, what: c.description });
          if (updateSucceeded(ex)) await applied(gate, bundle.body, ex);
          continue;
        }
        // Refused together: each value alone names the clause it breaks.
        let refusedAlone = 0;
        for (const c of bundle.cases) {
          const one = await rs.update(c.body);
          if (await gate.call(createdUnder(c.clause), one, { ex: one, what: c.description }))
            await applied(gate, c.body, one);
          else refusedAlone++;
        }
        if (ex && refusedAlone === 0)
          await gate.call(updateCreated, ex, {
            ex,
            what: `valid values each accepted alone, sent together (${bundle.cases.map((c) => c.id).join(', ')})`,
          });
      }
    },
  );

  test(
    `${OPEN.map((c) => c.description).join('; ')}: each answer recorded`,
    clauses(OPERATIONS.update, ...clausesOf(...OPEN.map((c) => recorded(c.clause)))),
    async ({ rs, gate }) => {
      // One after the other in one test: the resource server is restored once for them all.
      for (const c of OPEN) {
        if (!(await sendableOrSaid(c, rs, gate))) continue;
        const ex = await rs.update(c.body);
        await gate.call(recorded(c.clause), ex, { what: c.description, ex });
      }
    },
  );
});

// Helpers

/**
 * Whether the case may be sent to this target; if not, the run says so (lib/staging.ts) and sends
 * nothing: the value would change a field the suite could not put back.
 */
async function sendableOrSaid(c: BoundaryCase, rs: ResourceServerUnderTest, gate: TwinGate): Promise<boolean> {
  const body = isObject(c.body) ? c.body : {};
  if (deepEqual(rs.safe(body), body)) return true;
  await gate.call(notSentHere(c.clause), null, c.description);
  return false;
}

/** Each sent field the answer carries has the value sent (rs.update.applied). */
async function applied(gate: TwinGate, sent: unknown, ex: Exchange): Promise<void> {
  if (!isObject(sent) || Object.keys(sent).length === 0 || !isObject(ex.body)) return;
  await gate.call(sentValuesBack, ex, { ex, sent, before: null });
}
