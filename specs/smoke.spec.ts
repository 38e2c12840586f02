// Smoke: one token request, one update round trip, one experiment creation, end to end
// through the configuration. The thorough versions live in the operation specs.
import { test } from '../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../lib/declare.ts';
import { fullClientGrant } from '../lib/auth/target.ts';

test.describe('smoke', () => {
  test(
    'a client-credentials token for the management audience is issued and accepted by the update',
    clauses(OPERATIONS.token, 'auth.token.audience', 'auth.mgmt.bearer-jwt', 'mgmt.transport.https'),
    async ({ run, anon, client, check }) => {
      const { cfg } = run;
      check.observe(
        'mgmt.transport.https',
        `the target is served over ${new URL(cfg.baseUrl).protocol.replace(':', '')}`,
      );
      const res = await anon.send('POST', cfg.tokenUrl, {
        data: fullClientGrant(cfg),
        encoding: 'form',
      });
      const token =
        typeof (res.body as { access_token?: unknown })?.access_token === 'string'
          ? (res.body as { access_token: string }).access_token
          : null;
      check.that(
        'auth.token.audience',
        res.status >= 200 && res.status < 300 && token !== null,
        `token request for audience ${cfg.audience}: expected a 2xx with access_token, got ${res.status}${token ? '' : ' without access_token'}`,
        res,
      );
      test.skip(token === null, 'no token to try');
      const ex = await client('smoke-token', token).patch(
        `/resource-servers/${encodeURIComponent(cfg.resourceServerId)}`,
        { data: {} },
      );
      check.expectStatus('auth.mgmt.bearer-jwt', ex, 201, 'PATCH {} with the freshly issued bearer token');
    },
  );

  test(
    'an update round trip answers 201 with the new name and a following PATCH {} reads it back',
    clauses(
      OPERATIONS.update,
      'rs.update.success.status',
      'rs.response.object',
      'rs.update.applied',
      'rs.update.persisted',
    ),
    async ({ run, rs, check }) => {
      const name = `${run.runTag} smoke`;
      const ex = await rs.update({ name });
      check.expectStatus('rs.update.success.status', ex, 201, 'PATCH {name}');
      await check.expectSchema('rs.response.object', 'ResourceServer', ex.body, ex);
      const body = ex.body as Record<string, unknown> | undefined;
      check.that(
        'rs.update.applied',
        body?.name === name,
        `response name: expected ${JSON.stringify(name)}, got ${JSON.stringify(body?.name)}`,
        ex,
      );
      const again = await rs.read();
      check.that(
        'rs.update.persisted',
        (again.body as Record<string, unknown> | undefined)?.name === name,
        `PATCH {} after the update: expected name ${JSON.stringify(name)}, got ${JSON.stringify((again.body as Record<string, unknown> | undefined)?.name)}`,
        again,
      );
    },
  );

  test(
    'a realistic experiment (control and treatment at 50/50) is created',
    clauses(OPERATIONS.experiment, 'exp.create.accepted', 'exp.create.success.status'),
    async ({ experiments, check }) => {
      const ex = await experiments.create(experiments.realistic());
      check.expectAccepted('exp.create.accepted', ex, 'POST a realistic experiment');
      check.observe('exp.create.success.status', `answered ${ex.status}`, ex);
    },
  );
});
