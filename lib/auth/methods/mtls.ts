// §5.2 mTLS through the edge: the edge performs the handshake and forwards cname-api-key,
// client-certificate (URL-encoded PEM) and client-certificate-ca-verified; each may be wrong or
// left out, and the self-signed client's certificate is bound to its key (RFC 8705 §2.2).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { MtlsClient } from '../../config.ts';
import { sameNamesFreshKey } from '../near-certificate.ts';
import { cc, type TokenMethod } from './method.ts';
import { runSkip } from '../../skip-record.ts';

/** A second self-signed dev certificate no tenant registers (suite data, generated with openssl). */
export const FOREIGN_CERT_FILE = fileURLToPath(
  new URL('../../../specs/authentication/methods/foreign-dev.cert.pem', import.meta.url),
);

export interface EdgeHeaders {
  apiKey?: string | null;
  certFile?: string | null;
  /** A certificate built in memory (PEM), sent instead of certFile's. */
  certPem?: string;
  verified?: string | null;
}

/** The headers the mTLS edge forwards (§5.2): each may be replaced or left out (null). */
export function mtlsHeaders(client: MtlsClient, o: EdgeHeaders = {}): Record<string, string> {
  const h: Record<string, string> = {};
  const apiKey = o.apiKey === undefined ? client.apiKey : o.apiKey;
  const certFile = o.certFile === undefined ? client.certFile : o.certFile;
  const verified = o.verified === undefined ? 'SUCCESS' : o.verified;
  if (apiKey !== null) h['cname-api-key'] = apiKey;
  const pem = o.certPem ?? (certFile === null ? null : readFileSync(certFile, 'utf8'));
  if (pem !== null) h['client-certificate'] = encodeURIComponent(pem);
  if (verified !== null) h['client-certificate-ca-verified'] = verified;
  return h;
}

export const MTLS: TokenMethod = {
  id: 'mtls',
  name: 'mTLS through the edge',
  clause: 'auth.method.mtls',
  refusedClause: 'auth.method.mtls.refused',
  acceptClauses: [],
  needs: runSkip(
    { setting: 'IDM_MTLS_CLIENT_ID' },
    'needs an mTLS client: set IDM_MTLS_CLIENT_ID, IDM_MTLS_API_KEY and IDM_MTLS_CERT_FILE (and IDM_MTLS_CA_CLIENT_ID, IDM_MTLS_CA_CERT_FILE for CA verification)',
  ),
  clients: (cfg) =>
    [cfg.auth.mtls, cfg.auth.mtlsCa].filter((m): m is MtlsClient => m !== null).map((m) => ({ id: m.id, mtls: m })),
  async request(cfg, c, fault) {
    const m = c.mtls as MtlsClient;
    const edge: Record<string, EdgeHeaders> = {
      'wrong-api-key': { apiKey: `${m.apiKey}-wrong` },
      'no-api-key': { apiKey: null },
      'no-certificate': { certFile: null },
      'another-certificate': { certFile: FOREIGN_CERT_FILE },
      // Same subject and issuer, another key: only the binding to the key tells it from the registered one.
      'fresh-key': { certPem: fault === 'fresh-key' ? sameNamesFreshKey(readFileSync(m.certFile, 'utf8')).pem : '' },
      'ca-failed': { verified: 'FAILED: unable to get local issuer certificate' },
      'ca-missing': { verified: null },
    };
    return {
      data: { ...cc(cfg), client_id: c.id },
      headers: mtlsHeaders(m, fault === undefined ? {} : (edge[fault] ?? {})),
    };
  },
  faults: [
    { id: 'wrong-api-key', what: 'a wrong cname-api-key' },
    { id: 'no-api-key', what: 'no cname-api-key' },
    { id: 'no-certificate', what: 'no client-certificate' },
    { id: 'another-certificate', what: 'another certificate' },
    {
      id: 'fresh-key',
      what: 'a certificate with the registered subject and issuer over a freshly generated key',
      clause: 'auth.method.mtls.key-bound',
      for: (c, cfg) => c.id === cfg.auth.mtls?.id,
      unset: (cfg) =>
        cfg.auth.mtls
          ? null
          : runSkip(
              { setting: 'IDM_MTLS_CLIENT_ID' },
              'needs the self-signed mTLS client: set IDM_MTLS_CLIENT_ID, IDM_MTLS_API_KEY and IDM_MTLS_CERT_FILE',
            ),
    },
    {
      id: 'ca-failed',
      what: 'client-certificate-ca-verified FAILED',
      for: (c, cfg) => c.id === cfg.auth.mtlsCa?.id,
    },
    { id: 'ca-missing', what: 'no client-certificate-ca-verified', for: (c, cfg) => c.id === cfg.auth.mtlsCa?.id },
  ],
  describe: (_cfg, c) => `${c.id} with the registered certificate, its API key and SUCCESS`,
};
