// The valid side of every §8 limit and the valid-side rules of §2.2/§2.3 (null where allowed,
// open members), as data from contract/cases/resource-server-update.json (generated from the
// schemas, generators/boundaries.ts). Independent valid values share one body, so the whole
// valid side costs a few requests; a refused body is taken apart value by value, so a refusal
// still names its clause. One past each limit is a violation case (rejects-invalid-updates).
import { test } from '../../lib/fixtures.ts';
import type { ResourceServerUnderTest } from '../../lib/fixtures.ts';
import type { Checks } from '../../lib/checks.ts';
import { clauses, OPERATIONS, skipClauses } from '../../lib/declare.ts';
import { deepEqual, isObject, short } from '../../lib/values.ts';
import { validBundles, type BoundaryCase } from '../../generators/index.ts';
import { loadUpdateCases } from '../../generators/cases.ts';
import { runSkip } from '../../lib/skip-record.ts';

const CASES = loadUpdateCases().boundaries;
const EARLY_ACCESS = (c: BoundaryCase): boolean => JSON.stringify(c.body).includes('authorization_policy');
const ACCEPTED = CASES.filter((c) => c.expect === 'accept');

test.describe('update a resource server: limits, valid side', () => {
  test(
    'the valid edge of every limit, null where allowed and open members: accepted with 201, values sent together where independent',
    clauses(OPERATIONS.update, ...ACCEPTED.map((c) => c.clause), 'rs.update.applied', 'rs.update.success.status'),
    async ({ run, rs, check }) => {
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
      const sendable = cases.filter((c) => sendableOrSaid(c, rs, check));
      for (const bundle of validBundles(sendable)) {
        // Staging safety holds per value; should two values together not be safe, they go one by one.
        const together = deepEqual(rs.safe(bundle.body), bundle.body);
        const ex = together ? await rs.update(bundle.body) : null;
        if (ex && (ex.status === 201 || bundle.cases.length === 1)) {
          for (const c of bundle.cases) check.expectStatus(c.clause, ex, 201, c.description);
          if (ex.status === 201)
            checkApplied(check, bundle.body, ex.body, bundle.cases.map((c) => c.description).join(', '), ex);
          continue;
        }
        // Refused together: each value alone names the clause it breaks.
        let refusedAlone = 0;
        for (const c of bundle.cases) {
          const one = await rs.update(c.body);
          if (check.expectStatus(c.clause, one, 201, c.description))
            checkApplied(check, c.body, one.body, c.description, one);
          else refusedAlone++;
        }
        if (ex && refusedAlone === 0)
          check.expectStatus(
            'rs.update.success.status',
            ex,
            201,
            `valid values each accepted alone, sent together (${bundle.cases.map((c) => c.id).join(', ')})`,
          );
      }
    },
  );

  const OPEN = CASES.filter((x) => x.expect === 'observe');
  test(
    `${OPEN.map((c) => c.description).join('; ')}: each answer recorded`,
    clauses(OPERATIONS.update, ...OPEN.map((c) => c.clause)),
    async ({ rs, check }) => {
      // One after the other in one test: the resource server is restored once for them all.
      for (const c of OPEN.filter((x) => sendableOrSaid(x, rs, check))) {
        const ex = await rs.update(c.body);
        check.observe(c.clause, `${c.description}: answered ${ex.status}`, ex);
      }
    },
  );
});

// Helpers

/** Whether the case may be sent to this target; if not, says so (lib/staging.ts) and sends nothing. */
function sendableOrSaid(c: BoundaryCase, rs: ResourceServerUnderTest, check: Checks): boolean {
  const body = isObject(c.body) ? c.body : {};
  if (deepEqual(rs.safe(body), body)) return true;
  check.observe(
    c.clause,
    `not sent to this target: ${c.description} would change a field that cannot be restored (IDM_ALLOW=lifetime,irreversible to send it)`,
  );
  return false;
}

/** Each sent field the answer carries has the value sent (rs.update.applied). */
function checkApplied(
  check: Checks,
  sent: unknown,
  answer: unknown,
  what: string,
  ex: Parameters<Checks['that']>[3],
): void {
  if (!isObject(sent) || !isObject(answer) || Object.keys(sent).length === 0) return;
  const differing = Object.entries(sent).filter(([f, v]) => f in answer && !deepEqual(answer[f], v));
  check.that(
    'rs.update.applied',
    differing.length === 0,
    differing.length === 0
      ? `${what}: sent values come back`
      : `${what}: ${differing.map(([f, v]) => `${f} sent ${short(v)}, got ${short(answer[f])}`).join('; ')}`,
    ex,
  );
}
