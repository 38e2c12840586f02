// Whose a credential is, for the reproduction a check prints (lib/curl.ts). One the suite forged —
// unsigned, HMAC-keyed with the tenant's published key, signed by a key of the suite's, expired or
// for another audience under the suite's key, or no token at all — is the case itself and no
// secret: it is printed as sent, or the command would send something else. One the tenant issued
// is a secret: the command reads it from an environment variable the reader sets. A credential
// that still carries a signature the tenant made (its claims changed under it, another token's
// signature borrowed, a character of it altered) counts as issued, since the genuine token can be
// recomputed from it. Only the functions that forge register their results here, in the process
// that sends them; anything not registered is taken for the run's management token.

const FORGED = new Set<string>();
const ISSUED = new Map<string, string>();

/** The run's management token, and any credential this module was not told about. */
const DEFAULT_ENV = 'IDM_ACCESS_TOKEN';

/** Registers a credential the suite made without any signature of the tenant's; returns it. */
export function forged<T extends string>(credential: T): T {
  FORGED.add(credential);
  return credential;
}

/** Registers a credential the tenant issued under the environment variable the reproduction names for it. */
export function issued(credential: string, env: string): void {
  ISSUED.set(credential, env);
}

/** How a reproduction shows a credential: as sent (forged), or by an environment variable (issued). */
export function shownAs(credential: string): { sent: string } | { env: string } {
  if (FORGED.has(credential) && !ISSUED.has(credential)) return { sent: credential };
  return { env: ISSUED.get(credential) ?? DEFAULT_ENV };
}
