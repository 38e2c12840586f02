// Smoke, first after the resource-server chain (specs/README.md): a token issued at the configured token endpoint is accepted by the update, end to
// end through the configuration. The update round trip and an experiment creation are judged
// by the operation specs (resource-server/path.ts, resource-server/accepts-valid-updates.ts, strategy.spec.ts), not
// sent again here.
import { test } from '../lib/fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../lib/declare.ts';
import { fullClientGrant } from '../lib/auth/target.ts';
import { clauseSkip } from '../lib/skip-record.ts';

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
      skipTest(token === null && clauseSkip('auth.token.audience', 'no token to try (auth.token.audience says why)'));
      // The management client's own token: its update spends that client's bucket, as the tenant counts it.
      const ex = await client('full', token).patch(`/resource-servers/${encodeURIComponent(cfg.resourceServerId)}`, {
        data: {},
      });
      check.expectStatus('auth.mgmt.bearer-jwt', ex, 201, 'PATCH {} with the freshly issued bearer token');
    },
  );
});
