// mTLS through the edge (§5.2): cname-api-key + client-certificate (URL-encoded PEM) +
// client-certificate-ca-verified. Self-signed client: the registered certificate; CA client:
// SUCCESS and the registered subject.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createHash, X509Certificate } from 'node:crypto';
import { test, expect } from '@playwright/test';
import { decodeJwt } from 'jose';
import { DEV_MTLS_CA_CERT_PATH, DEV_MTLS_CERT_PATH, type RunningTenant } from '../src/index.ts';
import { EDGE_API_KEY, MTLS, MTLS_CA, POST, clientCredentials, isAuthError, tenant, type Client } from './helpers.ts';

let t: RunningTenant;
let c: Client;
test.beforeAll(async () => ({ t, c } = await tenant()));
test.afterAll(async () => t.close());

const pem = (p: string) => readFileSync(p, 'utf8');
const SELF = pem(DEV_MTLS_CERT_PATH);
const CA = pem(DEV_MTLS_CA_CERT_PATH);
const OTHER = pem(fileURLToPath(new URL('../dev-keys/unregistered.cert.pem', import.meta.url)));
const cc = (clientId: string) => clientCredentials(t, { client_id: clientId });
const edge = (cert: string, extra: Record<string, string> = {}) => ({
  'cname-api-key': EDGE_API_KEY,
  'client-certificate': encodeURIComponent(cert),
  ...extra,
});

test('self-signed client: right API key and the registered certificate → token bound to the certificate', async () => {
  const r = await c.token(cc(MTLS.id), edge(SELF));
  expect(r.status, r.text).toBe(200);
  const thumb = createHash('sha256').update(new X509Certificate(SELF).raw).digest('base64url');
  expect(decodeJwt(r.body.access_token)).toMatchObject({ azp: MTLS.id, cnf: { 'x5t#S256': thumb } });
});

test('CA-verified client: SUCCESS and the registered certificate → 200; form body too', async () => {
  const r = await c.token(cc(MTLS_CA.id), edge(CA, { 'client-certificate-ca-verified': 'SUCCESS' }));
  expect(r.status, r.text).toBe(200);
  const f = await c.send('POST', '/oauth/token', {
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...edge(CA, { 'client-certificate-ca-verified': 'SUCCESS' }),
    },
    body: new URLSearchParams(cc(MTLS_CA.id)).toString(),
  });
  expect(f.status).toBe(200);
});

const refused: Array<[string, string, () => Record<string, string>]> = [
  ['wrong API key', MTLS.id, () => ({ ...edge(SELF), 'cname-api-key': 'wrong-api-key-0123456789' })],
  ['no API key header', MTLS.id, () => ({ 'client-certificate': encodeURIComponent(SELF) })],
  ['no certificate header', MTLS.id, () => ({ 'cname-api-key': EDGE_API_KEY })],
  ['no edge headers at all (client ID alone)', MTLS.id, () => ({})],
  ['another certificate', MTLS.id, () => edge(OTHER)],
  [
    'the CA client certificate for the self-signed client',
    MTLS.id,
    () => edge(CA, { 'client-certificate-ca-verified': 'SUCCESS' }),
  ],
  ['a certificate that is not PEM', MTLS.id, () => edge('not a certificate')],
  [
    'CA client with FAILED verification',
    MTLS_CA.id,
    () => edge(CA, { 'client-certificate-ca-verified': 'FAILED: unable to get issuer certificate' }),
  ],
  ['CA client without the verification header', MTLS_CA.id, () => edge(CA)],
  [
    'CA client with another certificate verified',
    MTLS_CA.id,
    () => edge(OTHER, { 'client-certificate-ca-verified': 'SUCCESS' }),
  ],
  [
    'CA client with the right certificate and a wrong API key',
    MTLS_CA.id,
    () => ({ ...edge(CA, { 'client-certificate-ca-verified': 'SUCCESS' }), 'cname-api-key': 'nope' }),
  ],
];
for (const [title, clientId, headers] of refused) {
  test(`${title} → 401 invalid_client`, async () => {
    const r = await c.token(cc(clientId), headers());
    expect(r.status).toBe(401);
    expect(r.body.error).toBe('invalid_client');
    expect(isAuthError(r.body)).toBe(true);
  });
}

test('edge headers do not authenticate a secret client without its secret', async () => {
  const r = await c.token(cc(POST.id), edge(SELF));
  expect(r.status).toBe(401);
});

test('an mTLS client sending a secret instead is refused', async () => {
  const r = await c.token({ ...cc(MTLS.id), client_secret: 'anything-0123456789' }, edge(SELF));
  expect(r.status).toBe(401);
  expect(r.body.error).toBe('invalid_client');
});

test('the checkMtlsEdge part decides: a variant that skips the API key accepts a wrong key', async () => {
  const { t: own, c: oc } = await tenant({
    parts: (d) => ({ checkMtlsEdge: (h, client) => d.checkMtlsEdge(h, client, h['cname-api-key'] ?? '') }),
  });
  try {
    const r = await oc.token(
      { grant_type: 'client_credentials', client_id: MTLS.id, audience: `${own.publicUrl}/api/v2/` },
      {
        ...edge(SELF),
        'cname-api-key': 'wrong',
      },
    );
    expect(r.status).toBe(200);
  } finally {
    await own.close();
  }
});
