// subject_type_authorization (§2.3): who may obtain a token for a custom API. A client grant
// (client, audience, scopes) is the tenant's record that a client may; the policy of the token's
// subject type says whether one is needed. The tenant keeps one table for both subject types.
import type { ClientConfig, ClientGrant, ResourceTokenSettings } from '../types.ts';

export type SubjectAccess =
  /** `scopes`: the grant's, which bound the API scopes a token may carry; none when no grant is needed. */
  { ok: true; scopes?: string[] } | { ok: false; description: string };

export function subjectAccess(
  settings: ResourceTokenSettings,
  subject: 'client' | 'user',
  client: ClientConfig,
  grants: readonly ClientGrant[],
): SubjectAccess {
  const policy = subject === 'client' ? settings.clientPolicy : settings.userPolicy;
  const what = subject === 'client' ? 'client-credentials' : 'user';
  if (policy === 'deny_all')
    return { ok: false, description: `The API ${settings.audience} issues no ${what} tokens (policy deny_all)` };
  // allow_all: every client of this tenant is first party, so every one may.
  if (policy === 'allow_all') return { ok: true };
  const grant = grants.find((g) => g.clientId === client.clientId && g.audience === settings.audience);
  if (grant === undefined)
    return {
      ok: false,
      description: `Client ${client.clientId} holds no client grant for the API ${settings.audience} (policy require_client_grant)`,
    };
  return { ok: true, scopes: grant.scopes };
}
