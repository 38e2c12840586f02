// Authorization of POST /experimentation/experiments (§5.1, §7.2). Error responses and the
// required scope are not shown: invalid tokens must be refused (a 4xx, never a 2xx), each beside
// its twin — the same creation, under the same name, with the run's genuine token — and the exact
// codes, like the answer to a client without create:experimentation, are recorded.
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../../lib/declare.ts';
import { clausesOf } from '../../lib/condition.ts';
import { INVALID_CREDENTIALS } from '../../lib/credentials.ts';
import { created } from '../../lib/management/experiment-answer.ts';
import { refusedBesideTwin } from '../../lib/management/experiment-refusals.ts';
import { recorded } from '../../lib/management/recorded.ts';

const REFUSED = 'exp.create.auth.refused';
const scopeRecorded = recorded('exp.create.scope');

test.describe('create an experiment: authorization', () => {
  for (const c of INVALID_CREDENTIALS) {
    test(
      `a creation ${c.title} is refused with a 4xx beside the same creation with the genuine token (code recorded)`,
      clauses(OPERATIONS.experiment, ...clausesOf(REFUSED, 'exp.create.auth.status', created)),
      async ({ anon, credentials, experiments, gate }, info) => {
        const { authorization, how } = await c.build(credentials);
        const body = experiments.realistic();
        await refusedBesideTwin(gate, info, {
          clause: REFUSED,
          what: `POST an experiment ${c.title} (${how})`,
          statusClause: 'exp.create.auth.status',
          name: String(body.name),
          wrong: () =>
            experiments.create(body, { client: anon.withAuthorization('invalid-credentials', authorization) }),
          right: () => experiments.create(body),
        });
      },
    );
  }

  test(
    'a creation by a client without create:experimentation: answer recorded',
    clauses(OPERATIONS.experiment, ...clausesOf(scopeRecorded)),
    async ({ run, limited, experiments, gate }) => {
      const ex = await experiments.create(experiments.realistic(), { client: limited });
      // What the limited client holds is the tenant's to say: the embedded tenant's is known.
      const holds = run.cfg.embedded ? ', which holds read:resource_servers only' : '';
      await gate.call(scopeRecorded, ex, { what: `the limited client (IDM_LIMITED_CLIENT_ID${holds})`, ex });
    },
  );
});
