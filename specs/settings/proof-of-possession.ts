// proof_of_possession (§2.3) in effect on the API's tokens: with DPoP required, a token request
// without a proof is refused and one with a proof gets a bound token (RFC 9449 §5, §6.1); with
// required_for public_clients a confidential client needs none; with required false a proof still
// binds; with mTLS required the token is bound to the certificate the edge forwards (RFC 8705
// §3.1) and a request without one is refused. Every refusal beside the same client's token for the
// same API accepted before the setting was written. The DPoP key is made in memory.
import { test } from '../../lib/fixtures.ts';
import { dpopKey } from '../../lib/api-tokens/dpop.ts';
import { clientCredentials, mtlsCertificate, mtlsClient } from '../../lib/api-tokens/asks.ts';
import { declared, on, row, runRows } from '../../lib/api-tokens/rows.ts';
import { certificateBound, dpopBound, issuedUnder } from '../../lib/api-tokens/conditions.ts';

const bound = on(dpopBound, async (t) => ({ t, thumbprint: (await dpopKey()).thumbprint }));
const dpop = (o: Record<string, unknown>) => ({ proof_of_possession: { mechanism: 'dpop', ...o } });

const ROWS = [
  // The twin: the same client's token for the same API, no proof asked yet.
  row({ id: 'before', twin: true }),
  row({
    id: 'dpop required',
    write: dpop({ required: true, required_for: 'all_clients' }),
    refused: { clause: 'rs.settings.pop.dpop.required', twin: 'before' },
  }),
  row({ id: 'dpop bound', ask: clientCredentials({ dpop: true }), judge: [bound] }),
  // A confidential client without a proof: only public clients must present one.
  row({
    id: 'public clients only',
    write: dpop({ required: true, required_for: 'public_clients' }),
    judge: [on(issuedUnder('rs.settings.pop.required_for'))],
  }),
  row({
    id: 'dpop optional',
    write: dpop({ required: false }),
    ask: clientCredentials({ dpop: true }),
    judge: [bound],
  }),
  row({
    id: 'mtls bound',
    write: { proof_of_possession: { mechanism: 'mtls', required: true } },
    ask: mtlsClient,
    judge: [on(certificateBound, (t, r) => ({ t, certPem: mtlsCertificate(r) }))],
  }),
  row({ id: 'mtls required', refused: { clause: 'rs.settings.pop.mtls', twin: 'before' } }),
];

test.describe('resource-server settings in effect: proof of possession', () => {
  test(
    'tokens for the API are refused without the proof proof_of_possession requires, and bound to the proof or certificate presented',
    declared(ROWS),
    async ({ run, rs, gate, anon, suite }, info) => runRows(ROWS, { run, rs, gate, anon, suite, info }),
  );
});
