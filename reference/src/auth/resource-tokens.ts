// Access tokens for a custom resource server's API (§1, §2.1, §2.3): every grant that names its
// identifier as the audience comes here, and the token follows the API's settings at the moment
// of issue (`resourceTokenSettings`), with the tenant's own choices where the spec is silent
// (`resourceTokenChoices`). Two steps: `admitResourceToken` decides (subject policy, scope,
// offline access, proof of possession, usable keys) and may refuse; `mintResourceToken` signs,
// and encrypts, the token it admitted.
import { randomUUID } from 'node:crypto';
import { CompactEncrypt, SignJWT, importSPKI, importX509 } from 'jose';
import type { ClientConfig, ResourceServerRecord, ResourceTokenSettings } from '../types.ts';
import type { AppContext } from '../context.ts';
import { subjectAccess } from './client-grants.ts';
import { verifyDpopProof } from './dpop.ts';
import { forwardedCertificate } from './mtls.ts';

/** OpenID scopes a user token may carry whatever the API defines (OIDC Core §5.4, §11). */
export const OIDC_SCOPES = ['openid', 'profile', 'email', 'offline_access'];

/** RFC 7516 §4.1.2: the content encryption of every token the tenant encrypts. */
const CONTENT_ENCRYPTION = 'A256GCM';

export interface AdmitRequest {
  rs: ResourceServerRecord;
  subject: 'client' | 'user';
  client: ClientConfig;
  /** Scope values asked for; undefined (client credentials without `scope`): all the client may have. */
  asked: string[] | undefined;
  /**
   * Where the scope is asked (client credentials, password, OTP, /authorize) the tenant's
   * refusal choices apply; a later issue of a scope already granted (code exchange, refresh,
   * the implicit redirect) drops what no longer holds.
   */
  asking: boolean;
  /** `token`: the token endpoint; `implicit`: the implicit redirect, which has no request to carry a proof. */
  at: 'token' | 'implicit';
  /** The token request (DPoP proof, the edge's certificate headers); only at the token endpoint. */
  http?: { method: string; uri: string; headers: Record<string, string> };
  /** x5t#S256 of the certificate the client authenticated with (mTLS methods, RFC 8705 §3). */
  x5tS256?: string;
  /** A refresh: its token's DPoP key (RFC 9449 §5), and the API must still allow offline access. */
  refresh?: { jkt?: string };
}

export type Refusal = {
  ok: false;
  status: number;
  error: string;
  description: string;
  headers?: Record<string, string>;
};

/** What was admitted: everything the token and the answer carry. */
export interface ResourceIssue {
  settings: ResourceTokenSettings;
  scope: string[];
  lifetimeSeconds: number;
  tokenType: 'Bearer' | 'DPoP';
  cnf?: { jkt: string } | { 'x5t#S256': string };
  sign: (token: SignJWT) => Promise<string>;
  kid?: string;
  encryptTo?: { key: Awaited<ReturnType<typeof importSPKI>>; alg: string; kid?: string };
}

/** Subject policy and scope only: what /authorize decides before a code exists (proof and keys come at the exchange). */
export function admitScope(
  ctx: AppContext,
  r: Pick<AdmitRequest, 'rs' | 'subject' | 'client' | 'asked' | 'asking'>,
): { ok: true; settings: ResourceTokenSettings; scope: string[] } | Refusal {
  const settings = ctx.parts.resourceTokenSettings(r.rs);
  const access = subjectAccess(settings, r.subject, r.client, ctx.clientGrants);
  if (!access.ok) return refusal(403, 'access_denied', access.description);
  const choices = ctx.parts.resourceTokenChoices;
  const defined = (v: string) => settings.scopes === null || settings.scopes.includes(v);
  const mayHave = (v: string) => defined(v) && (access.scopes === undefined || access.scopes.includes(v));
  if (r.subject === 'client') {
    // Client credentials carry API scopes only, in the API's order, as the grant allows.
    const asked = r.asked;
    const undefinedAsked = (asked ?? []).filter((v) => !defined(v) && !OIDC_SCOPES.includes(v));
    if (r.asking && choices.undefinedScope === 'refuse' && undefinedAsked.length > 0)
      return refusal(
        400,
        'invalid_scope',
        `Scope not defined by the API ${settings.audience}: ${undefinedAsked.join(' ')}`,
      );
    const pool = settings.scopes ?? access.scopes ?? asked ?? [];
    return { ok: true, settings, scope: pool.filter((v) => mayHave(v) && (asked === undefined || asked.includes(v))) };
  }
  const asked = [...new Set(r.asked ?? [])];
  const undefinedAsked = asked.filter((v) => !OIDC_SCOPES.includes(v) && !defined(v));
  if (r.asking && choices.undefinedScope === 'refuse' && undefinedAsked.length > 0)
    return refusal(
      400,
      'invalid_scope',
      `Scope not defined by the API ${settings.audience}: ${undefinedAsked.join(' ')}`,
    );
  if (
    r.asking &&
    choices.offlineAccessDenied === 'refuse' &&
    !settings.offlineAccess &&
    asked.includes('offline_access')
  )
    return refusal(
      400,
      'invalid_scope',
      `The API ${settings.audience} allows no offline access (allow_offline_access is false)`,
    );
  const scope = asked.filter((v) =>
    v === 'offline_access' ? settings.offlineAccess : OIDC_SCOPES.includes(v) || mayHave(v),
  );
  return { ok: true, settings, scope };
}

export async function admitResourceToken(
  ctx: AppContext,
  r: AdmitRequest,
): Promise<{ ok: true; issue: ResourceIssue } | Refusal> {
  const scoped = admitScope(ctx, r);
  if (!scoped.ok) return scoped;
  const { settings, scope } = scoped;
  if (r.refresh && !settings.offlineAccess)
    return refusal(
      400,
      'invalid_grant',
      `The API ${settings.audience} allows no refresh (allow_offline_access is false)`,
    );
  const bound = await binding(ctx, settings, r);
  if (!bound.ok) return bound;
  const signer = await signerOf(ctx, settings);
  const encryptTo = await encryptionKeyOf(settings);
  if (encryptTo === 'unusable')
    // The request is sound; the API's stored key is not: a fault on the service side (§7.3).
    return refusal(
      500,
      'server_error',
      `The access token cannot be encrypted: the token_encryption key of the API ${settings.audience} is not a usable ${settings.encryption?.alg} public key`,
    );
  return {
    ok: true,
    issue: {
      settings,
      scope,
      // §2.1: token_lifetime from the token endpoint, token_lifetime_for_web for the implicit flow.
      lifetimeSeconds: r.at === 'implicit' ? settings.webLifetimeSeconds : settings.lifetimeSeconds,
      tokenType: bound.cnf !== undefined && 'jkt' in bound.cnf ? 'DPoP' : 'Bearer',
      ...(bound.cnf ? { cnf: bound.cnf } : {}),
      ...signer,
      ...(encryptTo ? { encryptTo } : {}),
    },
  };
}

/** The claims of each dialect (§2.3 TokenDialect; RFC 9068 §2.1, §2.2), signed, then encrypted when asked. */
export async function mintResourceToken(
  ctx: AppContext,
  issue: ResourceIssue,
  t: { subject: string; clientId: string; gty: string; audience: string | string[]; nowS: number },
): Promise<string> {
  const { settings } = issue;
  const rfc9068 = settings.dialect.startsWith('rfc9068_profile');
  const apiScopes = issue.scope.filter((v) => !OIDC_SCOPES.includes(v));
  const claims: Record<string, unknown> = {
    ...ctx.parts.resourceTokenChoices.extraClaims,
    scope: issue.scope.join(' '),
    ...(rfc9068 ? { client_id: t.clientId } : { azp: t.clientId, gty: t.gty }),
    ...(settings.dialect.endsWith('_authz') && settings.enforcePolicies ? { permissions: apiScopes } : {}),
    ...(issue.cnf ? { cnf: issue.cnf } : {}),
  };
  const jws = await issue.sign(
    new SignJWT(claims)
      .setProtectedHeader({
        alg: settings.signingAlg,
        typ: rfc9068 ? 'at+jwt' : 'JWT',
        ...(issue.kid ? { kid: issue.kid } : {}),
      })
      .setIssuer(`${ctx.publicUrl}/`)
      .setSubject(t.subject)
      .setAudience(t.audience)
      .setIssuedAt(t.nowS)
      .setExpirationTime(t.nowS + issue.lifetimeSeconds)
      .setJti(randomUUID()),
  );
  const to = issue.encryptTo;
  if (to === undefined) return jws;
  // RFC 7519 §5.2: a nested JWT says so with cty JWT.
  return new CompactEncrypt(new TextEncoder().encode(jws))
    .setProtectedHeader({ alg: to.alg, enc: CONTENT_ENCRYPTION, cty: 'JWT', ...(to.kid ? { kid: to.kid } : {}) })
    .encrypt(to.key);
}

// Helpers

function refusal(status: number, error: string, description: string, headers?: Record<string, string>): Refusal {
  return { ok: false, status, error, description, ...(headers ? { headers } : {}) };
}

type Binding = { ok: true; cnf?: ResourceIssue['cnf'] } | Refusal;

/**
 * proof_of_possession: DPoP (RFC 9449 §4.3, §6.1: cnf.jkt) or the edge's certificate (RFC 8705
 * §3.1: cnf.x5t#S256). A required proof is required of every client, or of public ones only.
 */
async function binding(ctx: AppContext, settings: ResourceTokenSettings, r: AdmitRequest): Promise<Binding> {
  const pop = settings.proofOfPossession;
  const isPublic = r.client.tokenEndpointAuthMethod === 'none';
  const required = pop?.requiredFor === 'all_clients' || (pop?.requiredFor === 'public_clients' && isPublic);
  const fromAuth = r.x5tS256 ? { 'x5t#S256': r.x5tS256 } : undefined;
  const boundJkt = r.refresh?.jkt;
  if (pop?.mechanism === 'dpop' || boundJkt !== undefined) {
    const proof = r.http?.headers.dpop;
    if (proof === undefined) {
      if (boundJkt !== undefined)
        return refusal(400, 'invalid_dpop_proof', 'This refresh token is bound to a DPoP key: send a proof by it');
      if (required)
        return refusal(400, 'invalid_request', `The API ${settings.audience} requires a DPoP proof (RFC 9449)`);
      return { ok: true, ...(fromAuth ? { cnf: fromAuth } : {}) };
    }
    const http = r.http as NonNullable<AdmitRequest['http']>;
    const nonces = ctx.parts.resourceTokenChoices.dpopNonce ? ctx.dpopNonces : undefined;
    const nowMs = ctx.parts.now();
    const verdict = await verifyDpopProof(proof, {
      method: http.method,
      uri: http.uri,
      nowMs,
      limits: ctx.parts.limits,
      jtiCache: ctx.parts.jtiCache,
      ...(nonces ? { nonces } : {}),
    });
    if (!verdict.ok)
      return refusal(
        400,
        verdict.error,
        verdict.description,
        verdict.error === 'use_dpop_nonce' && nonces ? { 'dpop-nonce': nonces.fresh(nowMs) } : undefined,
      );
    if (boundJkt !== undefined && verdict.jkt !== boundJkt)
      return refusal(400, 'invalid_dpop_proof', 'The DPoP proof is not by the key this refresh token is bound to');
    return { ok: true, cnf: { jkt: verdict.jkt } };
  }
  if (pop?.mechanism === 'mtls') {
    const forwarded = fromAuth ? undefined : r.http && forwardedCertificate(r.http.headers, ctx.edgeApiKey);
    const cnf = fromAuth ?? (forwarded?.ok ? { 'x5t#S256': forwarded.x5tS256 } : undefined);
    if (cnf === undefined && required)
      return refusal(
        400,
        'invalid_request',
        `The API ${settings.audience} requires a certificate-bound token (RFC 8705 §3): ${
          forwarded && !forwarded.ok ? forwarded.description : 'no client certificate was forwarded by the edge'
        }`,
      );
    return { ok: true, ...(cnf ? { cnf } : {}) };
  }
  return { ok: true, ...(fromAuth ? { cnf: fromAuth } : {}) };
}

/** HS256 with the API's signing_secret as UTF-8 bytes (RFC 7518 §3.2); the others with the tenant's key for that alg. */
async function signerOf(
  ctx: AppContext,
  settings: ResourceTokenSettings,
): Promise<Pick<ResourceIssue, 'sign' | 'kid'>> {
  if (settings.signingAlg === 'HS256') {
    const secret = new TextEncoder().encode(settings.signingSecret);
    return { sign: (t) => t.sign(secret) };
  }
  const key = await ctx.keys.key(settings.signingAlg);
  return { sign: (t) => t.sign(key.privateKey), kid: key.kid };
}

/** token_encryption's key: an SPKI public key or a certificate, as PEM; 'unusable' when it does not import for its alg. */
async function encryptionKeyOf(
  settings: ResourceTokenSettings,
): Promise<ResourceIssue['encryptTo'] | 'unusable' | undefined> {
  const e = settings.encryption;
  if (e === null) return undefined;
  try {
    const key = e.pem.includes('BEGIN CERTIFICATE') ? await importX509(e.pem, e.alg) : await importSPKI(e.pem, e.alg);
    // A key that imports may still be refused when used (e.g. an RSA modulus under 2048 bits): try it once.
    await new CompactEncrypt(new Uint8Array(1))
      .setProtectedHeader({ alg: e.alg, enc: CONTENT_ENCRYPTION })
      .encrypt(key);
    return { key, alg: e.alg, ...(e.kid ? { kid: e.kid } : {}) };
  } catch {
    return 'unusable';
  }
}
