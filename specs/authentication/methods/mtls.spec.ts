// §5.2 mTLS: the edge performs the handshake and forwards cname-api-key (the custom domain
// API key), client-certificate (URL-encoded PEM) and client-certificate-ca-verified. The right
// headers authenticate the mTLS clients; each wrong one is refused with a 4xx and an error object.
// The self-signed client is bound to its key (RFC 8705 §2.2): a certificate with its subject and
// issuer over a fresh key (built in memory, lib/auth/near-certificate.ts) is refused too.
import { readFileSync } from 'node:fs';
import { test } from '../../../lib/fixtures.ts';
import { clauses, OPERATIONS, skipClauses } from '../../../lib/declare.ts';
import { FOREIGN_CERT_FILE, mtlsHeaders, type EdgeHeaders } from '../../../lib/auth/target.ts';
import { expectIssued, failureCause, issued, notExercised } from '../../../lib/auth/acceptance.ts';
import { authEncoding, authPost } from '../../../lib/auth/encoding.ts';
import { CLIENT_AUTH_REFUSAL_CLAUSES, expectClientAuthRefusal } from '../../../lib/auth/checks.ts';
import type { MtlsClient } from '../../../lib/config.ts';
import { sameNamesFreshKey } from '../../../lib/auth/near-certificate.ts';

test(
  'mTLS through the edge (§5.2): the right headers obtain a token for each client; a wrong API key, a missing header, another certificate, the self-signed one over another key or FAILED verification is refused',
  clauses(
    OPERATIONS.authMethod,
    'auth.method.mtls',
    'auth.token.answer',
    'auth.method.mtls.refused',
    'auth.method.mtls.key-bound',
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
    const cases: Array<[MtlsClient, string, EdgeHeaders, string?]> = [];
    for (const c of clients) {
      cases.push(
        [c, 'a wrong cname-api-key', { apiKey: `${c.apiKey}-wrong` }],
        [c, 'no cname-api-key', { apiKey: null }],
        [c, 'no client-certificate', { certFile: null }],
        [c, 'another certificate', { certFile: FOREIGN_CERT_FILE }],
      );
    }
    if (!mtls)
      skipClauses(
        info,
        'needs the self-signed mTLS client: set IDM_MTLS_CLIENT_ID, IDM_MTLS_API_KEY and IDM_MTLS_CERT_FILE',
        'auth.method.mtls.key-bound',
      );
    else {
      // Same subject and issuer, another key: only the binding to the key tells it from the registered one.
      const near = sameNamesFreshKey(readFileSync(mtls.certFile, 'utf8'));
      cases.push([
        mtls,
        'a certificate with the registered subject and issuer over a freshly generated key',
        { certPem: near.pem },
        'auth.method.mtls.key-bound',
      ]);
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
      skipClauses(info, causes.join('; '), 'auth.method.mtls.refused', 'auth.method.mtls.key-bound');
      return;
    }
    for (const [c, what, edge, clause = 'auth.method.mtls.refused'] of cases) {
      const cause = accepted.get(c) ?? null;
      if (cause !== null) {
        // The shared refusal clause keeps the other client's verdict; a clause of this client alone says why.
        if (clause !== 'auth.method.mtls.refused') skipClauses(info, cause, clause);
        continue;
      }
      const ex = await send(c, edge);
      expectClientAuthRefusal(check, info, clause, ex, `${c.id} with ${what}`);
    }
  },
);
