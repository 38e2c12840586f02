// proof_of_possession (§2.3) in effect on the API's tokens: with DPoP required, a token request
// without a proof is refused and one with a proof gets a bound token (RFC 9449 §5, §6.1); with
// required_for public_clients a confidential client needs none; with required false a proof still
// binds; with mTLS required the token is bound to the certificate the edge forwards (RFC 8705
// §3.1) and a request without one is refused. Every refusal beside the same client's token for the
// same API accepted before the setting was written. The DPoP key is made in memory.
import { readFileSync } from 'node:fs';
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS, skipClauses } from '../../lib/declare.ts';
import { clausesOf } from '../../lib/condition.ts';
import { runSkip } from '../../lib/skip-record.ts';
import type { ApiTokens } from '../../lib/api-tokens/requests.ts';
import { dpopKey } from '../../lib/api-tokens/dpop.ts';
import { confirmed, issuedTwin, rowsOf, writeSetting } from '../../lib/api-tokens/rows.ts';
import { apiTokenIssued, certificateBound, dpopBound, requiredOfPublicOnly } from '../../lib/api-tokens/conditions.ts';
import { recorded } from '../../lib/management/recorded.ts';

const REFUSAL_STATUS = recorded('rs.settings.refusal.status');
const DPOP_REQUIRED = 'rs.settings.pop.dpop.required';
const REQUIRED_FOR = 'rs.settings.pop.required_for';
const MTLS = 'rs.settings.pop.mtls';

test.describe('resource-server settings in effect: proof of possession', () => {
  test(
    'tokens for the API are refused without the proof proof_of_possession requires, and bound to the proof or certificate presented',
    clauses(
      OPERATIONS.settings,
      ...clausesOf(apiTokenIssued, DPOP_REQUIRED, dpopBound, REQUIRED_FOR, certificateBound, REFUSAL_STATUS),
    ),
    async ({ run, rs, gate, anon, suite }, info) => {
      const { cfg } = run;
      const { x, tokens, who } = rowsOf({ run, rs, gate, anon, suite, info });
      const key = await dpopKey();
      const refused = async (clause: string, t: Awaited<ReturnType<ApiTokens['clientCredentials']>>) => {
        gate.refusedWith(twin, clause, t.ex, '4xx', t.what);
        await gate.call(REFUSAL_STATUS, null, { what: `${clause}: ${t.what}`, ex: t.ex });
      };

      // The twin: the same client's token for the same API, no proof asked yet.
      const twin = await issuedTwin(
        x,
        await tokens.clientCredentials(who),
        [DPOP_REQUIRED, 'rs.settings.pop.dpop.bound', REQUIRED_FOR, MTLS],
        true,
      );
      if (!twin.ok) return;

      const required = await writeSetting(
        x,
        { proof_of_possession: { mechanism: 'dpop', required: true, required_for: 'all_clients' } },
        [DPOP_REQUIRED, 'rs.settings.pop.dpop.bound'],
      );
      if (
        required &&
        !(await confirmed(x, required, [DPOP_REQUIRED, 'rs.settings.pop.dpop.bound', REQUIRED_FOR, MTLS]))
      )
        return;
      if (required) {
        await refused(DPOP_REQUIRED, await tokens.clientCredentials(who));
        const bound = await tokens.clientCredentials(who, { dpop: true });
        await gate.call(dpopBound, bound.ex, { t: bound, thumbprint: key.thumbprint });
      }

      if (
        await writeSetting(
          x,
          { proof_of_possession: { mechanism: 'dpop', required: true, required_for: 'public_clients' } },
          [REQUIRED_FOR],
        )
      ) {
        // A confidential client without a proof: only public clients must present one.
        const t = await tokens.clientCredentials(who);
        await gate.call(requiredOfPublicOnly, t.ex, t);
      }

      if (
        await writeSetting(x, { proof_of_possession: { mechanism: 'dpop', required: false } }, [
          'rs.settings.pop.dpop.bound',
        ])
      ) {
        const bound = await tokens.clientCredentials(who, { dpop: true });
        await gate.call(dpopBound, bound.ex, { t: bound, thumbprint: key.thumbprint });
      }

      const mtls = cfg.auth.mtls;
      if (!mtls) {
        skipClauses(
          info,
          runSkip(
            { setting: 'IDM_MTLS_CLIENT_ID' },
            'needs an mTLS client behind the edge: set IDM_MTLS_CLIENT_ID, IDM_MTLS_API_KEY and IDM_MTLS_CERT_FILE',
          ),
          MTLS,
        );
        return;
      }
      // The mTLS client's own token for the API before the setting: without a grant for it, no row.
      const before = await tokens.clientCredentials({ mtls, certificate: true });
      if (before.access === null) {
        skipClauses(
          info,
          runSkip(
            { setting: 'IDM_MTLS_CLIENT_ID' },
            `the mTLS client obtains no token for the API (${before.ex.status}): give it a grant for ${rs.identifier}`,
          ),
          MTLS,
        );
        return;
      }
      if (await writeSetting(x, { proof_of_possession: { mechanism: 'mtls', required: true } }, [MTLS])) {
        const withCert = await tokens.clientCredentials({ mtls, certificate: true });
        await gate.call(certificateBound, withCert.ex, { t: withCert, certPem: readFileSync(mtls.certFile, 'utf8') });
        await refused(MTLS, await tokens.clientCredentials(who));
      }
    },
  );
});
