// A certificate with the registered one's subject and issuer but a key made now: the near miss
// of a self-signed mTLS client, which is bound to its key, not its name (RFC 8705 §2.2).
// node:crypto reads certificates but cannot build one, so this writes the few DER structures an
// X.509 v3 certificate needs (RFC 5280 §4.1, ITU-T X.690): the two Names are copied byte for
// byte from the registered certificate; version, serial, validity and key are new, and the new
// key signs it (sha256WithRSAEncryption). Made in memory, never written anywhere.
import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

export interface NearCertificate {
  /** The certificate, PEM. */
  pem: string;
  /** Its freshly generated private key (never registered anywhere). */
  privateKey: KeyObject;
}

/** The registered certificate's issuer and subject over a fresh RSA key, valid for ten minutes. */
export function sameNamesFreshKey(registeredPem: string, now = new Date()): NearCertificate {
  const [tbs] = children(readTlv(pemToDer(registeredPem), 0));
  if (tbs === undefined) throw new Error('near-certificate: no TBSCertificate in the registered certificate');
  const fields = children(tbs);
  // RFC 5280 §4.1: [0] version is left out of a v1 certificate; serial and signature follow.
  const first = fields[0]?.tag === 0xa0 ? 1 : 0;
  const issuer = fields[first + 2];
  const subject = fields[first + 4];
  if (issuer === undefined || subject === undefined)
    throw new Error('near-certificate: the registered certificate has no issuer or subject');
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const algorithm = der(SEQUENCE, SHA256_WITH_RSA, NULL);
  const minute = 60_000;
  const tbsNew = der(
    SEQUENCE,
    der(0xa0, der(INTEGER, Buffer.from([2]))), // v3
    der(INTEGER, serialNumber()),
    algorithm,
    issuer.raw,
    der(SEQUENCE, utcTime(new Date(now.getTime() - minute)), utcTime(new Date(now.getTime() + 10 * minute))),
    subject.raw,
    spki,
  );
  const signature = sign('sha256', tbsNew, privateKey);
  const certificate = der(SEQUENCE, tbsNew, algorithm, der(BIT_STRING, Buffer.from([0]), signature));
  return { pem: toPem(certificate), privateKey };
}

// DER

const INTEGER = 0x02;
const BIT_STRING = 0x03;
const SEQUENCE = 0x30;
const UTC_TIME = 0x17;
/** OID 1.2.840.113549.1.1.11 (RFC 4055 §5) and the NULL parameters RFC 4055 asks beside it. */
const SHA256_WITH_RSA = Buffer.from('06092a864886f70d01010b', 'hex');
const NULL = Buffer.from('0500', 'hex');

interface Tlv {
  tag: number;
  /** The whole element: tag, length and content. */
  raw: Buffer;
  content: Buffer;
}

/** One element at `at` (single-byte tags: all X.509 uses up to the extensions). */
function readTlv(buf: Buffer, at: number): Tlv {
  const tag = buf[at];
  let length = buf[at + 1];
  if (tag === undefined || length === undefined) throw new Error('near-certificate: truncated DER');
  let header = 2;
  if (length & 0x80) {
    const n = length & 0x7f;
    if (n === 0 || n > 4) throw new Error('near-certificate: unsupported DER length');
    length = buf.readUIntBE(at + 2, n);
    header += n;
  }
  const end = at + header + length;
  if (end > buf.length) throw new Error('near-certificate: truncated DER');
  return { tag, raw: buf.subarray(at, end), content: buf.subarray(at + header, end) };
}

/** The elements inside a constructed element, in order. */
function children(parent: Tlv): Tlv[] {
  const out: Tlv[] = [];
  for (let at = 0; at < parent.content.length; ) {
    const t = readTlv(parent.content, at);
    out.push(t);
    at += t.raw.length;
  }
  return out;
}

/** One element of `tag` holding `parts` one after the other. */
function der(tag: number, ...parts: Buffer[]): Buffer {
  const content = Buffer.concat(parts);
  const n = content.length;
  let length: Buffer;
  if (n < 0x80) length = Buffer.from([n]);
  else {
    const bytes = Buffer.alloc(4);
    bytes.writeUInt32BE(n);
    const significant = bytes.subarray(bytes.findIndex((b) => b !== 0));
    length = Buffer.concat([Buffer.from([0x80 | significant.length]), significant]);
  }
  return Buffer.concat([Buffer.from([tag]), length, content]);
}

/** RFC 5280 §4.1.2.2: positive, at most 20 octets, unpredictable; no leading zero octet. */
function serialNumber(): Buffer {
  const serial = randomBytes(16);
  serial[0] = ((serial[0] ?? 0) & 0x7f) | 0x40;
  return serial;
}

/** RFC 5280 §4.1.2.5.1: YYMMDDHHMMSSZ (years 1950 to 2049). */
function utcTime(d: Date): Buffer {
  const iso = d.toISOString(); // 2026-11-25T14:06:00.000Z
  const text = `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return der(UTC_TIME, Buffer.from(text, 'ascii'));
}

function pemToDer(pem: string): Buffer {
  const m = /-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/.exec(pem);
  if (!m?.[1]) throw new Error('near-certificate: not a PEM certificate');
  return Buffer.from(m[1].replace(/\s+/g, ''), 'base64');
}

function toPem(certificate: Buffer): string {
  const lines = certificate.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
