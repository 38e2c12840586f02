// WS-Federation and legacy delegation (§4.3): named, with nothing shown; the suite knocks at
// the paths tenants of this kind use and records the answer (never a verdict).
import { endpointOf } from '../../../lib/auth/conditions.ts';
import { recorded } from '../../../lib/management/recorded.ts';
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../../../lib/declare.ts';
import { notOfferedSkip } from '../../../lib/config.ts';

test(
  'WS-Federation and legacy delegation: answers recorded',
  clauses(OPERATIONS.authFlow, 'auth.flow.wsfed', 'auth.flow.delegation', 'auth.api.named-flows'),
  async ({ run, flows, gate }) => {
    const { auth } = run.cfg;
    const clientId = auth.publicClientId ?? auth.post?.id ?? run.cfg.client.id;
    const offWsfed = notOfferedSkip(run.cfg, 'wsfed');
    const offDelegation = notOfferedSkip(run.cfg, 'delegation');
    skipTest(offDelegation !== null && offWsfed);
    if (offWsfed) skipClauses(test.info(), offWsfed, 'auth.flow.wsfed');
    else {
      const wsfed = await flows.get(`${auth.url}/wsfed/${encodeURIComponent(clientId)}`);
      await gate.call(recorded('auth.flow.wsfed'), null, { what: 'GET /wsfed/{client_id}', ex: wsfed });
    }
    if (offDelegation) skipClauses(test.info(), offDelegation, 'auth.flow.delegation');
    else {
      const delegation = await flows.post(`${auth.url}/delegation`, {
        client_id: clientId,
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        scope: 'openid',
      });
      await gate.call(recorded('auth.flow.delegation'), null, { what: 'POST /delegation', ex: delegation });
    }
    await gate.call(endpointOf, null, {
      flow: 'WS-Federation and delegation',
      at: '/wsfed/{client_id} and /delegation: default paths (no setting moves them)',
    });
  },
);
