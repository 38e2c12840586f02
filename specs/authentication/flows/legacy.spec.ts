// WS-Federation and legacy delegation (§4.3): named, with nothing shown; the suite knocks at
// the paths tenants of this kind use and records the answer (never a verdict).
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipClauses } from '../../../lib/declare.ts';
import { isObject, short } from '../../../lib/values.ts';
import type { Exchange } from '../../../lib/http.ts';
import { notOfferedReason } from '../../../lib/config.ts';

test(
  'WS-Federation and legacy delegation: answers recorded',
  clauses(OPERATIONS.authFlow, 'auth.flow.wsfed', 'auth.flow.delegation', 'auth.api.named-flows'),
  async ({ run, flows, check }) => {
    const { auth } = run.cfg;
    const clientId = auth.publicClientId ?? auth.post?.id ?? run.cfg.client.id;
    const offWsfed = notOfferedReason(run.cfg, 'wsfed');
    const offDelegation = notOfferedReason(run.cfg, 'delegation');
    test.skip(offWsfed !== null && offDelegation !== null, offWsfed ?? '');
    if (offWsfed) skipClauses(test.info(), offWsfed, 'auth.flow.wsfed');
    else {
      const wsfed = await flows.get(`${auth.url}/wsfed/${encodeURIComponent(clientId)}`);
      check.observe('auth.flow.wsfed', `GET /wsfed/{client_id} answered ${answer(wsfed)}`, wsfed);
    }
    if (offDelegation) skipClauses(test.info(), offDelegation, 'auth.flow.delegation');
    else {
      const delegation = await flows.post(`${auth.url}/delegation`, {
        client_id: clientId,
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        scope: 'openid',
      });
      check.observe('auth.flow.delegation', `POST /delegation answered ${answer(delegation)}`, delegation);
    }
    check.observe(
      'auth.api.named-flows',
      'WS-Federation /wsfed/{client_id} and delegation /delegation: default paths (no setting moves them)',
    );
  },
);

function answer(ex: Exchange): string {
  return `${ex.status}${isObject(ex.body) ? ` ${short(ex.body)}` : ''}`;
}
