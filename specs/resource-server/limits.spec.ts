// Both sides of every limit of §8 and the valid-side rules of §2.2/§2.3 (empty body, null
// where allowed, open members), as data from generators/boundaries.ts: one test per clause.
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../../lib/declare.ts';
import { deepEqual, isObject, short } from '../../lib/values.ts';
import { updateBoundaryCases, type BoundaryCase } from '../../generators/index.ts';

const OUTCOME = { accept: 'accepted with 201', reject: 'refused with 400', observe: 'answer recorded' } as const;

const byClause = new Map<string, BoundaryCase[]>();
for (const c of updateBoundaryCases()) byClause.set(c.clause, [...(byClause.get(c.clause) ?? []), c]);

test.describe('update a resource server: limits, both sides', () => {
  for (const [clause, group] of byClause) {
    const declared = group.some((c) => c.expect === 'accept') ? [clause, 'rs.update.applied'] : [clause];
    test(
      group.map((c) => `${c.description} ${OUTCOME[c.expect]}`).join('; '),
      clauses(OPERATIONS.update, ...declared),
      async ({ run, rs, check }) => {
        test.skip(
          !run.cfg.earlyAccess &&
            group.some((c) => JSON.stringify(c.body).includes('authorization_policy') && c.expect === 'accept'),
          'authorization_policy is Early Access and IDM_EARLY_ACCESS=false',
        );
        for (const c of group) {
          const body = isObject(c.body) ? c.body : {};
          const safe = rs.safe(body);
          if (!deepEqual(safe, body)) {
            // Sending it could not be undone on this tenant (lib/staging.ts): say so, send nothing.
            check.observe(
              c.clause,
              `not sent to this target: ${c.description} would change a field that cannot be restored (IDM_ALLOW=lifetime,irreversible to send it)`,
            );
            continue;
          }
          const ex = await rs.update(c.body);
          if (c.expect === 'observe') {
            check.observe(c.clause, `${c.description}: answered ${ex.status}`, ex);
          } else if (c.expect === 'reject') {
            check.expectStatus(c.clause, ex, 400, c.description);
          } else if (check.expectStatus(c.clause, ex, 201, c.description) && isObject(ex.body)) {
            const answer = ex.body;
            const differing = Object.entries(body).filter(([f, v]) => f in answer && !deepEqual(answer[f], v));
            if (Object.keys(body).length > 0) {
              check.that(
                'rs.update.applied',
                differing.length === 0,
                differing.length === 0
                  ? `${c.description}: sent values come back`
                  : `${c.description}: ${differing.map(([f, v]) => `${f} sent ${short(v)}, got ${short(answer[f])}`).join('; ')}`,
                ex,
              );
            }
          }
        }
      },
    );
  }
});
