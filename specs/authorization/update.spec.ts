// Authorization of PATCH /resource-servers/{id} (§5.1, §7.1): invalid tokens → 401; a
// token without update:resource_servers → 403 whose message names that scope. Bodies are
// empty, so a wrongly accepted request changes nothing.
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../../lib/declare.ts';
import { INVALID_CREDENTIALS } from '../../lib/credentials.ts';
import { resourceServerPath } from '../../lib/http.ts';
import { short } from '../../lib/values.ts';
import { attackRow } from '../../lib/auth/attacks/catalogue.ts';
import { recordAttack } from '../../lib/auth/attacks/record.ts';

test.describe('update a resource server: authorization', () => {
  for (const c of INVALID_CREDENTIALS) {
    test(
      `an update ${c.title} is refused with 401`,
      clauses(OPERATIONS.update, c.updateClause, 'rs.update.error.body'),
      async ({ run, anon, credentials, check }, info) => {
        const { authorization, how } = await c.build(credentials);
        const ex = await anon
          .withAuthorization('invalid-credentials', authorization)
          .patch(resourceServerPath(run.cfg.resourceServerId), { data: {} });
        const ok = check.expectStatus(c.updateClause, ex, 401, `PATCH {} ${c.title} (${how})`);
        const outcome = ok ? 'refused' : ex.status < 300 ? 'accepted' : ex.status >= 500 ? 'fault' : 'wrong refusal';
        recordAttack(info, attackRow('management-token', c.attack), ex, outcome, how);
        check.observe('rs.update.error.body', `${ex.status} error body: ${short(ex.body)}`, ex);
      },
    );
  }

  test(
    'an update with a token lacking update:resource_servers is refused with 403 naming that scope',
    clauses(OPERATIONS.update, 'auth.mgmt.missing-scope', 'auth.mgmt.missing-scope.names-scope'),
    async ({ run, limited, check }) => {
      const ex = await limited.patch(resourceServerPath(run.cfg.resourceServerId), { data: {} });
      check.expectStatus('auth.mgmt.missing-scope', ex, 403, 'PATCH {} with the limited client');
      // The spec names no field of the error body: the scope is searched in its text.
      check.that(
        'auth.mgmt.missing-scope.names-scope',
        ex.text.includes('update:resource_servers'),
        ex.text.includes('update:resource_servers')
          ? 'the 403 body names update:resource_servers'
          : `the ${ex.status} body does not name update:resource_servers: ${short(ex.text)}`,
        ex,
      );
    },
  );
});
