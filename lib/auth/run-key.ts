// The run's own RS256 key, the one the forged tokens and the foreign-key client assertion
// carry: no tenant registered it. A 2048-bit RSA key costs 0.1–1 s of CPU; made once per run
// by the runner, started when the configuration is read (in libuv's thread pool, while the
// runner goes on starting) and handed to the workers in the run state (lib/run-state.ts), in
// memory only, as the management tokens are. A process without a run state (self-tests) makes
// its own on first use (lib/auth/forge.ts).
import { generateKeyPair, type JsonWebKey } from 'node:crypto';

let pending: Promise<JsonWebKey> | null = null;

/** The run's key as a private JWK; the first call starts making it. */
export function runKey(): Promise<JsonWebKey> {
  pending ??= new Promise((ok, fail) =>
    generateKeyPair('rsa', { modulusLength: 2048 }, (e, _publicKey, privateKey) =>
      e ? fail(e) : ok(privateKey.export({ format: 'jwk' })),
    ),
  );
  return pending;
}
