// The OAuth 2.0 and OpenID Connect security rules the named flows rest on, one function each
// (TenantParts.securityRules), so that each is enforced in one place and a variant can break
// exactly one: exact redirect URIs, a code bound to its client and redirect URI, no widening
// on refresh, a refresh token bound to its client, logout returning only to a registered URL.

export interface CodeBinding {
  clientId: string;
  redirectUri: string;
}

export type RefreshScope = { ok: true; scope: string } | { ok: false; description: string };

export interface SecurityRules {
  /** RFC 6749 §3.1.2.3, RFC 9700 §4.1.3: the asked URI is one of the registered ones, compared as strings. */
  redirectUriRegistered(registered: readonly string[], asked: string): boolean;
  /**
   * RFC 6749 §4.1.3: the code was issued to the authenticated client, and the exchange names the
   * redirect URI of the authorization request. The refusal's description, or null when bound.
   */
  codeBindingFault(grant: CodeBinding, clientId: string, redirectUri: string | undefined): string | null;
  /** RFC 6749 §6: a refresh token is used only by the client it was issued to. */
  refreshBoundToClient(issuedTo: string, clientId: string): boolean;
  /** RFC 6749 §6: a refresh may narrow the original scope, never widen it; no scope asked keeps it. */
  refreshScope(original: string, asked: string | undefined): RefreshScope;
  /** OIDC RP-Initiated Logout 1.0 §3, RFC 9700 §4.11: the return URL is a registered one, compared as strings. */
  logoutReturnAllowed(allowed: readonly string[], returnTo: string): boolean;
}

export const securityRules: SecurityRules = {
  redirectUriRegistered: (registered, asked) => registered.includes(asked),
  codeBindingFault(grant, clientId, redirectUri) {
    if (grant.clientId !== clientId) return 'Invalid or expired authorization code';
    if (redirectUri !== grant.redirectUri) return 'redirect_uri must be the one of the authorization request';
    return null;
  },
  refreshBoundToClient: (issuedTo, clientId) => issuedTo === clientId,
  refreshScope(original, asked) {
    if (asked === undefined) return { ok: true, scope: original };
    const granted = original.split(' ');
    const wanted = asked.split(' ').filter((s) => s !== '');
    const beyond = wanted.filter((s) => !granted.includes(s));
    return beyond.length > 0
      ? { ok: false, description: `Scope not granted to this refresh token: ${beyond.join(' ')}` }
      : { ok: true, scope: wanted.join(' ') };
  },
  logoutReturnAllowed: (allowed, returnTo) => allowed.includes(returnTo),
};
