// §5.2 mTLS: the edge performs the handshake and forwards cname-api-key (the custom domain
// API key), client-certificate (URL-encoded PEM) and client-certificate-ca-verified. The right
// headers authenticate the mTLS clients; each wrong one is refused with a 4xx and an error object.
import { test } from '../../../lib/fixtures.ts';
import { clauses, OPERATIONS, skipClauses } from '../../../lib/declare.ts';
import { FOREIGN_CERT_FILE, mtlsHeaders, type EdgeHeaders } from '../../../lib/auth/target.ts';
import { expectIssued, failureCause, issued, notExercised } from '../../../lib/auth/acceptance.ts';
import { authEncoding, authPost } from '../../../lib/auth/encoding.ts';
import { CLIENT_AUTH_REFUSAL_CLAUSES, expectClientAuthRefusal } from '../../../lib/auth/checks.ts';
import type { MtlsClient } from '../../../lib/config.ts';

test(
  'mTLS through the edge (§5.2): the right headers obtain a token for each client; a wrong API key, a missing header, another certificate or FAILED verification is refused',
  clauses(
    OPERATIONS.authMethod,
    'auth.method.mtls',
    'auth.token.answer',
    'auth.method.mtls.refused',
    ...CLIENT_AUTH_REFUSAL_CLAUSES,
  ),
  async ({ run, anon, check }, info) => {
    const { cfg } = run;
    const { mtls, mtlsCa } = cfg.auth;
    const clients = [mtls, mtlsCa].filter((c): c is MtlsClient => c !== null);
    test.skip(
      clients.length === 0,
      'needs an mTLS client: set IDM_MTLS_CLIENT_ID, IDM_MTLS_API_KEY and IDM_MTLS_CERT_FILE (and IDM_MTLS_CA_CLIENT_ID, IDM_MTLS_CA_CERT_FILE for CA verification)',
    );
    const enc = await authEncoding(cfg, anon);
    const send = (c: MtlsClient, edge: EdgeHeaders) =>
      authPost(
        anon,
        enc,
        cfg.auth.tokenUrl,
        { grant_type: 'client_credentials', client_id: c.id, audience: cfg.audience },
        { headers: mtlsHeaders(c, edge) },
      );
    // Each client's right headers first: the accepted case, and the twin its refusals are judged beside.
    const accepted = new Map<MtlsClient, string | null>();
    for (const c of clients) {
      const right = await send(c, {});
      await expectIssued(
        check,
        'auth.method.mtls',
        right,
        `${c.id} with the registered certificate, its API key and SUCCESS`,
        enc.note,
      );
      accepted.set(c, issued(right) ? null : notExercised('auth.method.mtls', `${c.id} ${failureCause(right)}`));
    }
    const cases: Array<[MtlsClient, string, EdgeHeaders]> = [];
    for (const c of clients) {
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
    const causes = [...accepted.values()].filter((x): x is string => x !== null);
    if (causes.length === accepted.size) {
      skipClauses(info, causes.join('; '), 'auth.method.mtls.refused');
      return;
    }
    for (const [c, what, edge] of cases) {
      if (accepted.get(c) !== null) continue;
      const ex = await send(c, edge);
      expectClientAuthRefusal(check, info, 'auth.method.mtls.refused', ex, `${c.id} with ${what}`);
    }
  },
);
