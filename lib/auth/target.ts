// Building blocks of the §5.2 client-authentication cases: the Basic header (RFC 6749 §2.3.1
// form-encodes id and secret before Base64), signed client assertions (RFC 7523 §3) with one
// property broken at a time, and the mTLS edge headers. Requests go through the suite's
// ApiClient like every other; nothing here decides a verdict.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SignJWT, UnsecuredJWT, generateKeyPair, importPKCS8 } from 'jose';
import type { Config, MtlsClient } from '../config.ts';

const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** A second self-signed dev certificate no tenant registers (suite data, generated with openssl). */
export const FOREIGN_CERT_FILE = fileURLToPath(
  new URL('../../specs/authentication/methods/foreign-dev.cert.pem', import.meta.url),
);

/** `Basic base64(urlencode(id):urlencode(secret))`; `encode: false` leaves them raw (a different credential when they need encoding). */
export function basicAuthorization(id: string, secret: string, encode = true): string {
  const e = (s: string): string => (encode ? encodeURIComponent(s).replace(/%20/g, '+') : s);
  return `Basic ${Buffer.from(`${e(id)}:${e(secret)}`).toString('base64')}`;
}

/** Whether an id/secret changes under form-encoding (the RFC 6749 §2.3.1 case is then exercised). */
export function needsFormEncoding(s: string): boolean {
  return encodeURIComponent(s) !== s;
}

/** The management client's client-credentials grant for the management API, its secret in the body. */
export function fullClientGrant(cfg: Config): Record<string, string> {
  return {
    grant_type: 'client_credentials',
    client_id: cfg.client.id,
    client_secret: cfg.client.secret,
    audience: cfg.audience,
  };
}

export type AssertionFault = 'wrong-aud' | 'expired' | 'iss-not-sub' | 'no-sub' | 'foreign-key' | 'alg-none';

export const ASSERTION_FAULTS: Record<AssertionFault, string> = {
  'wrong-aud': 'an audience other than the tenant',
  expired: 'expired ten minutes ago',
  'iss-not-sub': 'iss differs from sub',
  'no-sub': 'no sub claim',
  'foreign-key': 'signed by a key the tenant never registered',
  'alg-none': 'unsigned (alg: none)',
};

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
let foreignKey: Promise<PrivateKey> | null = null;
const registered = new Map<string, Promise<PrivateKey>>();

/** A client assertion for the configured private_key_jwt client, optionally with one fault; a fresh jti unless given. */
export async function clientAssertion(
  cfg: Config,
  fault?: AssertionFault,
  jti: string = randomUUID(),
): Promise<string> {
  const pk = cfg.auth.pkjwt;
  if (!pk) throw new Error('suite bug: clientAssertion without a private_key_jwt client');
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: pk.id,
    sub: fault === 'iss-not-sub' ? `${pk.id}-other` : pk.id,
    aud: fault === 'wrong-aud' ? wrongAudience(cfg.auth.assertionAudience) : cfg.auth.assertionAudience,
    iat: fault === 'expired' ? now - 1200 : now,
    exp: fault === 'expired' ? now - 600 : now + 120,
    jti,
  };
  if (fault === 'no-sub') delete claims.sub;
  if (fault === 'alg-none') return new UnsecuredJWT(claims).encode();
  let key: Promise<PrivateKey>;
  if (fault === 'foreign-key')
    key = foreignKey ??= generateKeyPair('RS256', { extractable: false }).then((k) => k.privateKey);
  else {
    let k = registered.get(pk.keyFile);
    if (!k) registered.set(pk.keyFile, (k = importPKCS8(readFileSync(pk.keyFile, 'utf8'), 'RS256')));
    key = k;
  }
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', typ: 'JWT' }).sign(await key);
}

/** Another tenant's token endpoint: never the audience the suite signs for, whichever was chosen. */
function wrongAudience(right: string): string {
  const other = 'https://another-tenant.example.test/oauth/token';
  return right === other ? 'https://yet-another-tenant.example.test/oauth/token' : other;
}

/** The body of a client_credentials request authenticated by a client assertion. */
export function assertionBody(cfg: Config, assertion: string): Record<string, string> {
  return {
    grant_type: 'client_credentials',
    client_id: cfg.auth.pkjwt!.id,
    client_assertion_type: ASSERTION_TYPE,
    client_assertion: assertion,
    audience: cfg.audience,
  };
}

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
