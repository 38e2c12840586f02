// Tokens issued for a user (password, authorization code, implicit, refresh, passwordless): an
// RS256 access token (audience the API asked for and/or `<public URL>/userinfo`), an
// OpenID Connect ID token when `openid` is in scope, a refresh token when `offline_access`
// is and the client may use the refresh_token grant.
import { SignJWT } from 'jose';
import { randomBytes, randomUUID } from 'node:crypto';
import type { ClientConfig, RefreshGrant, UserRecord } from '../types.ts';
import type { AppContext } from '../context.ts';

/** Ten hours: an ID token is read once, at login. */
const ID_TOKEN_LIFETIME_S = 36000;

const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'];

const userinfoAudience = (ctx: AppContext) => `${ctx.publicUrl}/userinfo`;

/**
 * The scope a user token gets: the OIDC scopes asked for, plus the API's scopes asked for
 * when an audience is named. Undefined audience (or none asked) → no API scopes.
 * Returns undefined for an unknown audience or a system API (users get no management scopes).
 */
export function userScope(
  ctx: AppContext,
  requested: string | undefined,
  audience: string | undefined,
): string | undefined {
  const asked = (requested ?? 'openid').split(' ').filter((s) => s !== '');
  let apiScopes: string[] = [];
  if (audience !== undefined && audience !== '') {
    const rs = ctx.parts.store.getResourceServerByIdentifier(audience);
    if (rs === undefined || rs.is_system) return undefined;
    apiScopes = rs.scopes.map((s) => s.value);
  }
  return asked.filter((s, i) => (OIDC_SCOPES.includes(s) || apiScopes.includes(s)) && asked.indexOf(s) === i).join(' ');
}

export interface IssuedTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
  id_token?: string;
  refresh_token?: string;
}

export async function issueUserTokens(
  ctx: AppContext,
  grant: {
    client: ClientConfig;
    user: UserRecord;
    scope: string;
    audience?: string;
    nonce?: string;
    /** A refresh token only where the grant may give one (not implicit). */
    refreshable: boolean;
    /** Which tokens: implicit may ask for the ID token only, or the access token only. */
    want?: { accessToken: boolean; idToken: boolean };
    gty: string;
  },
): Promise<IssuedTokens> {
  const nowS = Math.floor(ctx.parts.now() / 1000);
  const lifetime = ctx.parts.limits.userAccessTokenLifetimeSeconds;
  const scopes = grant.scope.split(' ').filter((s) => s !== '');
  const openid = scopes.includes('openid');
  const aud = [
    ...(grant.audience ? [grant.audience] : []),
    ...(openid || !grant.audience ? [userinfoAudience(ctx)] : []),
  ];
  const header = { alg: 'RS256', typ: 'JWT', kid: ctx.signingKey.kid };
  const accessToken = await new SignJWT({ scope: grant.scope, azp: grant.client.clientId, gty: grant.gty })
    .setProtectedHeader(header)
    .setIssuer(`${ctx.publicUrl}/`)
    .setSubject(grant.user.userId)
    .setAudience(aud.length === 1 ? (aud[0] as string) : aud)
    .setIssuedAt(nowS)
    .setExpirationTime(nowS + lifetime)
    .setJti(randomUUID())
    .sign(ctx.signingKey.privateKey);
  const out: IssuedTokens = {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: lifetime,
    scope: grant.scope,
  };
  const want = grant.want ?? { accessToken: true, idToken: openid };
  if (want.idToken && openid) {
    const claims = ctx.parts.idTokenClaims({
      issuer: `${ctx.publicUrl}/`,
      subject: grant.user.userId,
      clientId: grant.client.clientId,
      nowS,
      lifetimeS: ID_TOKEN_LIFETIME_S,
      ...(grant.nonce !== undefined ? { nonce: grant.nonce } : {}),
      ...(want.accessToken ? { accessToken } : {}),
      profile: profileClaims(grant.user, scopes),
    });
    out.id_token = await new SignJWT(claims).setProtectedHeader(header).sign(ctx.signingKey.privateKey);
  }
  if (
    grant.refreshable &&
    scopes.includes('offline_access') &&
    (grant.client.grantTypes ?? []).includes('refresh_token')
  ) {
    out.refresh_token = newRefreshToken(ctx, {
      clientId: grant.client.clientId,
      userId: grant.user.userId,
      scope: grant.scope,
      ...(grant.audience ? { audience: grant.audience } : {}),
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
