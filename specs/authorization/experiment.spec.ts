// Authorization of POST /experimentation/experiments (§5.1, §7.2). Error responses and the
// required scope are not shown: invalid tokens must be refused (a 4xx, never a 2xx), and
// the exact codes, like the answer to a client without create:experimentation, are recorded.
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../../lib/declare.ts';
import { INVALID_CREDENTIALS } from '../../lib/credentials.ts';

test.describe('create an experiment: authorization', () => {
  for (const c of INVALID_CREDENTIALS) {
    test(
      `a creation ${c.title} is refused with a 4xx (code recorded)`,
      clauses(OPERATIONS.experiment, 'exp.create.auth.refused', 'exp.create.auth.status'),
      async ({ anon, credentials, experiments, check }) => {
        const { authorization, how } = await c.build(credentials);
        const ex = await experiments.create(experiments.realistic(), {
          client: anon.withAuthorization('invalid-credentials', authorization),
        });
        check.expectRejected('exp.create.auth.refused', ex, `POST an experiment ${c.title} (${how})`);
        check.observe('exp.create.auth.status', `${c.title}: answered ${ex.status}`, ex);
      },
    );
  }

  test(
    'a creation by a client without create:experimentation: answer recorded',
    clauses(OPERATIONS.experiment, 'exp.create.scope'),
    async ({ limited, experiments, check }) => {
      const ex = await experiments.create(experiments.realistic(), { client: limited });
      check.observe(
        'exp.create.scope',
        `a client with only read:resource_servers (on the embedded tenant) answered ${ex.status}`,
        ex,
      );
    },
  );
});
