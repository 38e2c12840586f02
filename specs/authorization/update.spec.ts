// Authorization of PATCH /resource-servers/{id} (§5.1, §7.1): invalid tokens → 401; a
// token without update:resource_servers → 403 whose message names that scope. Bodies are
// empty, so a wrongly accepted request changes nothing. Each refusal is judged beside its
// twin, the same empty update with the genuine token that the global setup sent.
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS, skipClauses } from '../../lib/declare.ts';
import { clausesOf } from '../../lib/condition.ts';
import { INVALID_CREDENTIALS } from '../../lib/credentials.ts';
import { resourceServerPath } from '../../lib/http.ts';
import { attackRow } from '../../lib/auth/attacks/catalogue.ts';
import { errorBodyRecorded } from '../../lib/management/recorded.ts';
import { MISSING_SCOPE, namesScope } from '../../lib/management/authorization.ts';
import { clauseSkip } from '../../lib/skip-record.ts';

test.describe('update a resource server: authorization', () => {
  for (const c of INVALID_CREDENTIALS) {
    test(
      `an update ${c.title} is refused with 401`,
      clauses(OPERATIONS.update, ...clausesOf(c.updateClause, errorBodyRecorded)),
      async ({ run, anon, credentials, gate }) => {
        const { authorization, how } = await c.build(credentials);
        const ex = await anon
          .withAuthorization('invalid-credentials', authorization)
          .patch(resourceServerPath(run.cfg.resourceServerId), { data: {} });
        const what = `PATCH {} ${c.title} (${how})`;
        gate.refusedWith(gate.setupRead(), c.updateClause, ex, 401, what, attackRow('management-token', c.attack), how);
        await gate.call(errorBodyRecorded, ex, { what, ex });
      },
    );
  }

  test(
    'an update with a token lacking update:resource_servers is refused with 403 naming that scope',
    clauses(OPERATIONS.update, ...clausesOf(MISSING_SCOPE, namesScope)),
    async ({ run, limited, gate }, info) => {
      const ex = await limited.patch(resourceServerPath(run.cfg.resourceServerId), { data: {} });
      // A fault is one cause for both clauses (named by each), never a 403 that failed to come.
      if (gate.faultedFor(ex, [MISSING_SCOPE, namesScope], 'PATCH {} with the limited client')) return;
      // The message is read only beside the refusal it belongs to: an acceptance has none.
      if (gate.refusedWith(gate.setupRead(), MISSING_SCOPE, ex, 403, 'PATCH {} with the limited client'))
        await gate.call(namesScope, ex, ex);
      else
        skipClauses(
          info,
          clauseSkip(
            MISSING_SCOPE,
            `not judged: PATCH {} with the limited client was not refused with 403 (${MISSING_SCOPE})`,
          ),
          ...namesScope.clauses,
        );
    },
  );
});
