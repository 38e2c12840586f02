// Smoke, first after the resource-server chain (specs/README.md): a token issued at the configured token endpoint is accepted by the update, end to
// end through the configuration. The update round trip and an experiment creation are judged
// by the operation specs (resource-server/path.ts, resource-server/accepts-valid-updates.ts, strategy.spec.ts), not
// sent again here.
import { test } from '../lib/fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../lib/declare.ts';
import { clausesOf } from '../lib/condition.ts';
import { fullClientGrant } from '../lib/auth/target.ts';
import { clauseSkip } from '../lib/skip-record.ts';
import { bearerAccepted, issuedForManagement, schemeRecorded, tokenOf } from '../lib/management/token.ts';

test.describe('smoke', () => {
  test(
    'a client-credentials token for the management audience is issued and accepted by the update',
    clauses(OPERATIONS.token, ...clausesOf(issuedForManagement, bearerAccepted, schemeRecorded)),
    async ({ run, anon, client, gate }) => {
      const { cfg } = run;
      await gate.call(schemeRecorded, null, cfg.baseUrl);
      const res = await anon.send('POST', cfg.tokenUrl, { data: fullClientGrant(cfg), encoding: 'form' });
      await gate.call(issuedForManagement, null, res);
      const token = tokenOf(res);
      skipTest(token === null && clauseSkip('auth.token.audience', 'no token to try (auth.token.audience says why)'));
      // The management client's own token: its update spends that client's bucket, as the tenant counts it.
      const ex = await client('full', token).patch(`/resource-servers/${encodeURIComponent(cfg.resourceServerId)}`, {
        data: {},
      });
      await gate.call(bearerAccepted, ex, ex);
    },
  );
});
