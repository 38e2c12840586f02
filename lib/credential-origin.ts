// Whose a credential is, for the reproduction a check prints (lib/curl.ts). One the suite forged
// (unsigned, or signed with a key the suite holds) is the case itself and no secret: it is printed
// as sent, or the command would send something else. One the tenant issued, or one that still
// carries a signature the tenant made, is a secret: the command reads it from an environment
// variable. Only the functions that forge register their results here, in the process that sends
// them; anything not registered is taken for the run's management token.

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
