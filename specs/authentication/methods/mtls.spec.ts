// §5.2 mTLS: the edge performs the handshake and forwards cname-api-key (the custom domain
// API key), client-certificate (URL-encoded PEM) and client-certificate-ca-verified. The right
// headers authenticate the mTLS clients; each wrong one is refused with a 4xx and an error object.
import { test } from '../../../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { FOREIGN_CERT_FILE, issuedToken, mtlsHeaders, type EdgeHeaders } from '../../../lib/auth/target.ts';
import { CLIENT_AUTH_REFUSAL_CLAUSES, expectClientAuthRefusal } from '../../../lib/auth/checks.ts';
import type { MtlsClient } from '../../../lib/config.ts';

test.describe('mTLS through the edge (§5.2)', () => {
  test(
    'the right edge headers obtain a token for each mTLS client',
    clauses(OPERATIONS.authMethod, 'auth.method.mtls', 'auth.token.answer'),
    async ({ run, anon, check }) => {
      const { cfg } = run;
      const clients = [cfg.auth.mtls, cfg.auth.mtlsCa].filter((c): c is MtlsClient => c !== null);
      test.skip(
        clients.length === 0,
        'needs an mTLS client: set IDM_MTLS_CLIENT_ID, IDM_MTLS_API_KEY and IDM_MTLS_CERT_FILE (and IDM_MTLS_CA_CLIENT_ID, IDM_MTLS_CA_CERT_FILE for CA verification)',
      );
      for (const c of clients) {
        const ex = await anon.send('POST', cfg.auth.tokenUrl, {
          headers: mtlsHeaders(c),
          data: { grant_type: 'client_credentials', client_id: c.id, audience: cfg.audience },
        });
        check.that(
          'auth.method.mtls',
          issuedToken(ex) !== null,
          `${c.id} with the registered certificate, its API key and SUCCESS answered ${ex.status}`,
          ex,
        );
        if (issuedToken(ex)) await check.expectSchema('auth.token.answer', 'TokenResponse', ex.body, ex);
      }
    },
  );

  test(
    'a wrong API key, a missing header, another certificate or FAILED verification is refused',
    clauses(OPERATIONS.authMethod, 'auth.method.mtls.refused', ...CLIENT_AUTH_REFUSAL_CLAUSES),
    async ({ run, anon, check }, info) => {
      const { cfg } = run;
      const { mtls, mtlsCa } = cfg.auth;
      test.skip(
        !mtls && !mtlsCa,
        'needs an mTLS client: set IDM_MTLS_CLIENT_ID, IDM_MTLS_API_KEY and IDM_MTLS_CERT_FILE',
      );
      const cases: Array<[MtlsClient, string, EdgeHeaders]> = [];
      for (const c of [mtls, mtlsCa].filter((x): x is MtlsClient => x !== null)) {
        cases.push(
          [c, 'a wrong cname-api-key', { apiKey: `${c.apiKey}-wrong` }],
          [c, 'no cname-api-key', { apiKey: null }],
          [c, 'no client-certificate', { certFile: null }],
          [c, 'another certificate', { certFile: FOREIGN_CERT_FILE }],
        );
      }
      if (mtlsCa) {
        cases.push(
          [
            mtlsCa,
            'client-certificate-ca-verified FAILED',
            { verified: 'FAILED: unable to get local issuer certificate' },
          ],
          [mtlsCa, 'no client-certificate-ca-verified', { verified: null }],
        );
      }
      for (const [c, what, edge] of cases) {
        const ex = await anon.send('POST', cfg.auth.tokenUrl, {
          headers: mtlsHeaders(c, edge),
          data: { grant_type: 'client_credentials', client_id: c.id, audience: cfg.audience },
        });
        expectClientAuthRefusal(check, info, 'auth.method.mtls.refused', ex, `${c.id} with ${what}`);
      }
    },
  );
});
