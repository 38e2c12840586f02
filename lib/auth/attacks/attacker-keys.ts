// The attacker's side of the JWT attacks: a key pair the tenant never saw, and a loopback host
// that serves its public half as a JWK set (jku) and as a certificate (x5u), counting every
// fetch: a tenant that follows a URL named inside a token is an SSRF the report shows (RFC 8725
// §3.10). Made in memory per worker; nothing is written anywhere.
import { createServer, type Server } from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { exportJWK, type JWK } from 'jose';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { sameNamesFreshKey } from '../near-certificate.ts';

/** A suite-owned self-signed certificate whose names the attacker's certificate copies. */
const TEMPLATE = fileURLToPath(new URL('../../../specs/authentication/methods/foreign-dev.cert.pem', import.meta.url));

export interface AttackerKeys {
  privateKey: KeyObject;
  /** The public half, as a JWK with its kid. */
  jwk: JWK;
  /** A certificate over that key (PEM), what x5u serves. */
  certificatePem: string;
  /** The loopback URLs the host serves them at. */
  jku: string;
  x5u: string;
  /** How many times each URL was fetched so far (by anyone: only the tenant knows them). */
  fetches(): { jku: number; x5u: number };
}

let keys: Promise<AttackerKeys> | null = null;
let host: Server | null = null;

/** The worker's attacker keys and their host (started on first use, closed with the process). */
export function attackerKeys(): Promise<AttackerKeys> {
  keys ??= (async () => {
    const cert = sameNamesFreshKey(readFileSync(TEMPLATE, 'utf8'));
    const kid = `idm-conformance-attacker-${process.pid}`;
    const jwk = { ...(await exportJWK(createPublicKey(cert.privateKey))), kid, alg: 'RS256', use: 'sig' };
    const count = { jku: 0, x5u: 0 };
    const server = createServer((req, res) => {
      const path = (req.url ?? '').split('?')[0];
      if (path === '/jwks.json') {
        count.jku++;
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
      } else if (path === '/cert.pem') {
        count.x5u++;
        res.writeHead(200, { 'content-type': 'application/pem-certificate-chain' }).end(cert.pem);
      } else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    server.unref();
    host = server;
    const { port } = server.address() as { port: number };
    const origin = `http://127.0.0.1:${port}`;
    return {
      privateKey: cert.privateKey,
      jwk,
      certificatePem: cert.pem,
      jku: `${origin}/jwks.json`,
      x5u: `${origin}/cert.pem`,
      fetches: () => ({ ...count }),
    };
  })();
  return keys;
}

/** Stops the attacker host (self-tests; a worker's host ends with its process). */
export function closeAttackerHost(): void {
  host?.close();
  host = null;
  keys = null;
}
