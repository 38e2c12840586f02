// Tokens issued for a user (password, authorization code, implicit, refresh, passwordless): an
// access token (audience the API asked for and/or `<public URL>/userinfo`), an OpenID Connect
// ID token when `openid` is in scope, a refresh token when `offline_access` is and the client
// may use the refresh_token grant. Without an audience the access token is the tenant's own
// RS256 token for /userinfo; for a custom API it follows that API's settings (resource-tokens.ts).
import { SignJWT } from 'jose';
import { randomBytes, randomUUID } from 'node:crypto';
import type { ClientConfig, RefreshGrant, UserRecord } from '../types.ts';
import type { AppContext } from '../context.ts';
import {
  OIDC_SCOPES,
  admitResourceToken,
  admitScope,
  mintResourceToken,
  type AdmitRequest,
  type Refusal,
  type ResourceIssue,
} from './resource-tokens.ts';

/** Ten hours: an ID token is read once, at login. */
const ID_TOKEN_LIFETIME_S = 36000;

const userinfoAudience = (ctx: AppContext) => `${ctx.publicUrl}/userinfo`;

export type UserAdmission = { ok: true; scope: string; resource?: ResourceIssue } | Refusal;

/**
 * What a user flow may have, decided where its scope is asked (`authorize`: subject policy and
 * scope only, the rest at the code exchange) or at issue: without an audience the OIDC scopes
 * asked for (default `openid`); for a custom API what its settings admit; the management API
 * or an unknown audience → 403 access_denied (users get no management scopes).
 */
export async function admitUser(
  ctx: AppContext,
  a: {
    client: ClientConfig;
    audience: string | undefined;
    requested: string | undefined;
    asking: boolean;
    at: 'authorize' | AdmitRequest['at'];
    http?: AdmitRequest['http'];
    x5tS256?: string;
    refresh?: AdmitRequest['refresh'];
  },
): Promise<UserAdmission> {
  const asked = (a.requested ?? 'openid').split(' ').filter((s) => s !== '');
  if (a.audience === undefined || a.audience === '')
    return { ok: true, scope: asked.filter((s, i) => OIDC_SCOPES.includes(s) && asked.indexOf(s) === i).join(' ') };
  const rs = ctx.parts.store.getResourceServerByIdentifier(a.audience);
  if (rs === undefined || rs.is_system)
    return { ok: false, status: 403, error: 'access_denied', description: `Service not found: ${a.audience}` };
  const base = { rs, subject: 'user' as const, client: a.client, asked, asking: a.asking };
  if (a.at === 'authorize') {
    const scoped = admitScope(ctx, base);
    return scoped.ok ? { ok: true, scope: scoped.scope.join(' ') } : scoped;
  }
  const admitted = await admitResourceToken(ctx, {
    ...base,
    at: a.at,
    ...(a.http ? { http: a.http } : {}),
    ...(a.x5tS256 ? { x5tS256: a.x5tS256 } : {}),
    ...(a.refresh ? { refresh: a.refresh } : {}),
  });
  return admitted.ok ? { ok: true, scope: admitted.issue.scope.join(' '), resource: admitted.issue } : admitted;
}

export interface IssuedTokens {
  access_token: string;
  token_type: 'Bearer' | 'DPoP';
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
}

export async function issueUserTokens(
  ctx: AppContext,
  to: { client: ClientConfig; user: UserRecord },
  /** What admitUser admitted: the scope, and a custom API's token (without one, the tenant's own for /userinfo). */
  admitted: { scope: string; resource?: ResourceIssue },
  grant: {
    /** The API asked for (none or empty: the tenant's own token). */
    audience: string | undefined;
    nonce?: string | undefined;
    /** A refresh token only where the grant may give one (not implicit). */
    refreshable: boolean;
    /** Which tokens: implicit may ask for the ID token only, or the access token only. */
    want?: { accessToken: boolean; idToken: boolean };
    gty: string;
  },
): Promise<IssuedTokens> {
  const nowS = Math.floor(ctx.parts.now() / 1000);
  const { scope, resource } = admitted;
  const scopes = scope.split(' ').filter((s) => s !== '');
  const openid = scopes.includes('openid');
  const header = { alg: 'RS256', typ: 'JWT', kid: ctx.signingKey.kid };
  let accessToken: string;
  let lifetime: number;
  if (resource !== undefined) {
    // /userinfo reads only the tenant's RS256 JWS: its audience joins a token it can read.
    const readable = resource.settings.signingAlg === 'RS256' && resource.encryptTo === undefined;
    const aud = [resource.settings.audience, ...(openid && readable ? [userinfoAudience(ctx)] : [])];
    lifetime = resource.lifetimeSeconds;
    accessToken = await mintResourceToken(ctx, resource, {
      subject: to.user.userId,
      clientId: to.client.clientId,
      gty: grant.gty,
      audience: aud.length === 1 ? (aud[0] as string) : aud,
      nowS,
    });
  } else {
    lifetime = ctx.parts.limits.userAccessTokenLifetimeSeconds;
    accessToken = await new SignJWT({ scope, azp: to.client.clientId, gty: grant.gty })
      .setProtectedHeader(header)
      .setIssuer(`${ctx.publicUrl}/`)
      .setSubject(to.user.userId)
      .setAudience(userinfoAudience(ctx))
      .setIssuedAt(nowS)
      .setExpirationTime(nowS + lifetime)
      .setJti(randomUUID())
      .sign(ctx.signingKey.privateKey);
  }
  const out: IssuedTokens = {
    access_token: accessToken,
    token_type: resource?.tokenType ?? 'Bearer',
    expires_in: lifetime,
    scope,
  };
  const want = grant.want ?? { accessToken: true, idToken: openid };
  if (want.idToken && openid) {
    const claims = ctx.parts.idTokenClaims({
      issuer: `${ctx.publicUrl}/`,
      subject: to.user.userId,
      clientId: to.client.clientId,
      nowS,
      lifetimeS: ID_TOKEN_LIFETIME_S,
      ...(grant.nonce !== undefined ? { nonce: grant.nonce } : {}),
      ...(want.accessToken ? { accessToken } : {}),
      profile: profileClaims(to.user, scopes),
    });
    out.id_token = await new SignJWT(claims).setProtectedHeader(header).sign(ctx.signingKey.privateKey);
  }
  if (
    grant.refreshable &&
    scopes.includes('offline_access') &&
    (to.client.grantTypes ?? []).includes('refresh_token')
  ) {
    // RFC 9449 §5: a public client's refresh token is bound to the DPoP key of its access token.
    const cnf = to.client.tokenEndpointAuthMethod === 'none' ? resource?.cnf : undefined;
    const jkt = cnf && 'jkt' in cnf ? cnf.jkt : undefined;
    out.refresh_token = newRefreshToken(ctx, {
      clientId: to.client.clientId,
      userId: to.user.userId,
      scope,
      ...(grant.audience ? { audience: grant.audience } : {}),
      ...(jkt ? { jkt } : {}),
    });
  }
  return out;
}

/** A fresh opaque refresh token for the grant, stored. */
export function newRefreshToken(ctx: AppContext, grant: RefreshGrant): string {
  const token = randomBytes(32).toString('base64url');
  ctx.parts.authStore.saveRefreshToken(token, grant);
  return token;
}

/** OIDC standard claims the scope asks for (profile: name, nickname; email: email, email_verified). */
export function profileClaims(user: UserRecord, scopes: string[]): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  if (scopes.includes('profile')) {
    claims.name = user.name;
    claims.nickname = user.username.split('@')[0];
  }
  if (scopes.includes('email')) {
    claims.email = user.username;
    claims.email_verified = user.emailVerified;
  }
  return claims;
}
