// subject_type_authorization's client policy (§2.3) in effect: with require_client_grant a client
// holding a grant for the API obtains a token and a client holding none is refused beside it;
// with deny_all the same client that was given one is refused.
import { test } from '../../lib/fixtures.ts';
import { ungrantedClient } from '../../lib/api-tokens/asks.ts';
import { declared, on, row, runRows } from '../../lib/api-tokens/rows.ts';
import { issuedUnder } from '../../lib/api-tokens/conditions.ts';

const ROWS = [
  row({ id: 'before', twin: true }),
  // The granted client's token is the twin of both refusals: the same API, the same moment.
  row({
    id: 'granted',
    write: { subject_type_authorization: { client: { policy: 'require_client_grant' } } },
    judge: [on(issuedUnder('rs.settings.subject_type.client.require_client_grant'))],
  }),
  row({
    id: 'ungranted',
    ask: ungrantedClient,
    refused: { clause: 'rs.settings.subject_type.client.require_client_grant', twin: 'granted' },
  }),
  row({
    id: 'denied',
    write: { subject_type_authorization: { client: { policy: 'deny_all' } } },
    refused: { clause: 'rs.settings.subject_type.client.deny_all', twin: 'granted' },
  }),
];

test.describe('resource-server settings in effect: subject-type authorization', () => {
  test(
    'client-credentials tokens for the API follow its client policy: require_client_grant, then deny_all',
    declared(ROWS),
    async ({ run, rs, gate, anon, suite }, info) => runRows(ROWS, { run, rs, gate, anon, suite, info }),
  );
});
