// mTLS through the edge (§5.2): the edge terminates TLS and forwards the client certificate
// in headers. The tenant trusts those headers only with its custom-domain API key.
//   cname-api-key                  the custom domain's API key
//   client-certificate             the client certificate, URL-encoded PEM
//   client-certificate-ca-verified SUCCESS, or FAILED: <reason>
// self_signed_tls_client_auth (RFC 8705 §2.2): the certificate is the registered one.
// tls_client_auth (RFC 8705 §2.1): the edge verified it against a CA, and its subject DN is
// the registered certificate's.
import { X509Certificate, createHash, timingSafeEqual } from 'node:crypto';
import type { MtlsEdgeCheck, MtlsFault, MtlsVerdict } from '../types.ts';

export const mtlsEdgeCheck: MtlsEdgeCheck = (headers, client, apiKey) => {
  const key = headers['cname-api-key'];
  if (key === undefined || !sameText(key, apiKey)) return fault('api-key', 'cname-api-key is missing or wrong');
  const raw = headers['client-certificate'];
  if (raw === undefined || raw === '') return fault('no-certificate', 'client-certificate header is missing');
  const presented = parseCertificate(raw);
  if (presented === undefined)
    return fault('malformed-certificate', 'client-certificate is not a URL-encoded PEM certificate');
  const registered = client.certificatePem === undefined ? undefined : parseCertificate(client.certificatePem);
  if (registered === undefined) return fault('certificate-mismatch', 'The client has no registered certificate');

  if (client.tokenEndpointAuthMethod === 'tls_client_auth') {
    const verified = headers['client-certificate-ca-verified'];
    if (verified !== 'SUCCESS') {
      return fault(
        'ca-not-verified',
        `client-certificate-ca-verified is ${verified === undefined ? 'missing' : `"${verified.slice(0, 80)}"`}, SUCCESS is required`,
      );
    }
    if (presented.subject !== registered.subject)
      return fault('certificate-mismatch', 'Certificate subject is not the registered one');
  } else if (!presented.raw.equals(registered.raw)) {
    return fault('certificate-mismatch', 'Certificate is not the registered one');
  }
  return { ok: true, x5tS256: thumbprint(presented) };
};

/**
 * RFC 8705 §3, §4: the certificate the edge forwarded for any client (a public one too), to
 * bind a token to; undefined when none was forwarded. Trusted only with the edge's API key.
 */
export function forwardedCertificate(
  headers: Record<string, string>,
  apiKey: string,
): { ok: true; x5tS256: string } | { ok: false; description: string } | undefined {
  const raw = headers['client-certificate'];
  if (raw === undefined || raw === '') return undefined;
  const key = headers['cname-api-key'];
  if (key === undefined || !sameText(key, apiKey))
    return { ok: false, description: 'cname-api-key is missing or wrong: the forwarded certificate is not trusted' };
  const cert = parseCertificate(raw);
  if (cert === undefined) return { ok: false, description: 'client-certificate is not a URL-encoded PEM certificate' };
  return { ok: true, x5tS256: thumbprint(cert) };
}

/** RFC 8705 §3.1: x5t#S256, the base64url SHA-256 of the certificate's DER. */
function thumbprint(cert: X509Certificate): string {
  return createHash('sha256').update(cert.raw).digest('base64url');
}

function parseCertificate(text: string): X509Certificate | undefined {
  let pem = text;
  if (text.includes('%')) {
    try {
      pem = decodeURIComponent(text);
    } catch {
      return undefined;
    }
  }
  try {
    return new X509Certificate(pem);
  } catch {
    return undefined;
  }
}

function sameText(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

function fault(reason: MtlsFault, description: string): MtlsVerdict {
  return { ok: false, reason, description };
}
