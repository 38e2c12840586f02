// The near miss of a self-signed mTLS client (lib/auth/near-certificate.ts, RFC 8705 §2.2): the
// certificate built in memory reads back in node's own X.509 parser with the registered subject
// and issuer, a public key of its own, the fresh private key as its pair, and a valid
// self-signature; and it is built anew each time.
import { readFileSync } from 'node:fs';
import { X509Certificate, generateKeyPairSync } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { EMBEDDED } from '../lib/config.ts';
import { sameNamesFreshKey } from '../lib/auth/near-certificate.ts';
import { FOREIGN_CERT_FILE } from '../lib/auth/methods/mtls.ts';

for (const [what, file] of [
  ['the registered self-signed certificate', EMBEDDED.mtls.certFile],
  ['the CA-verified client certificate', EMBEDDED.mtlsCa.certFile],
  ['the suite-owned foreign certificate', FOREIGN_CERT_FILE],
] as const) {
  test(`${what}: same subject and issuer, another key, signed by it`, () => {
    const registered = new X509Certificate(readFileSync(file, 'utf8'));
    const near = sameNamesFreshKey(readFileSync(file, 'utf8'));
    const cert = new X509Certificate(near.pem);
    expect(cert.subject).toBe(registered.subject);
    expect(cert.issuer).toBe(registered.issuer);
    const der = (c: X509Certificate) => c.publicKey.export({ type: 'spki', format: 'der' });
    expect(der(cert).equals(der(registered))).toBe(false);
    expect(cert.checkPrivateKey(near.privateKey)).toBe(true);
    expect(cert.checkPrivateKey(generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey)).toBe(false);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.raw.equals(registered.raw)).toBe(false);
    expect(new Date(cert.validTo).getTime()).toBeGreaterThan(Date.now());
    expect(new Date(cert.validFrom).getTime()).toBeLessThanOrEqual(Date.now());
  });
}

test('two near certificates differ in key and serial', () => {
  const pem = readFileSync(EMBEDDED.mtls.certFile, 'utf8');
  const a = new X509Certificate(sameNamesFreshKey(pem).pem);
  const b = new X509Certificate(sameNamesFreshKey(pem).pem);
  expect(a.serialNumber).not.toBe(b.serialNumber);
  expect(a.fingerprint256).not.toBe(b.fingerprint256);
});

test('a text that is not a PEM certificate is refused with a named error', () => {
  expect(() => sameNamesFreshKey('-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n')).toThrow(
    /near-certificate: not a PEM certificate/,
  );
});
