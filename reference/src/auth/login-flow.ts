// The login transaction across the hosted pages (`TenantOptions.login`): which page comes
// first and which after the password, where pages are served (the tenant, or a login origin),
// and the redirect that ends the login — the code in the query (RFC 6749 §4.1.2), tokens in
// the fragment (§4.2.2), errors either way (§4.1.2.1, §4.2.2.1). The transaction is the one
// /authorize saved; pages add to it but never extend its expiry. With `loginFirst` the login
// comes before any transaction: it opens a session (a cookie) that /authorize then reads.
import { randomBytes } from 'node:crypto';
import type { LoginTransaction, TenantRequest, TenantResponse, UserRecord } from '../types.ts';
import type { AppContext } from '../context.ts';
import { begin, readBody, readQuery, type Params, type Reply } from './request.ts';
import { admitUser, issueUserTokens } from './user-tokens.ts';
import { htmlHeaders, loginPage } from './login-pages.ts';

const UNKNOWN_TRANSACTION = 'Unknown or expired login transaction: start again at /authorize';

export function redirectTo(
  reply: Reply,
  uri: string,
  fragment: boolean,
  values: Record<string, string | undefined>,
): TenantResponse {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (v !== undefined) p.set(k, v);
  const url = new URL(uri);
  if (fragment) url.hash = p.toString();
  else for (const [k, v] of p) url.searchParams.set(k, v);
  return reply.raw(302, { location: url.toString() });
}

/** A page of transaction `id`: absolute on the login origin when there is one, else relative. */
export function pageUrl(ctx: AppContext, path: string, id: string): string {
  return `${ctx.login.origin ?? ''}${path}?state=${encodeURIComponent(id)}`;
}

/** /authorize's answer once the transaction is saved: the login page, or a redirect to the first page. */
export function firstPage(ctx: AppContext, reply: Reply, id: string, clientId: string): TenantResponse {
  if (ctx.login.flow === 'identifier-first')
    return reply.raw(302, { location: pageUrl(ctx, '/u/login/identifier', id) });
  if (ctx.login.origin !== undefined) return reply.raw(302, { location: pageUrl(ctx, '/u/login', id) });
  return reply.raw(200, htmlHeaders, loginPage(pageUrl(ctx, '/u/login', id), id, clientId, ''));
}

/** A request to one of the login pages, its transaction found. */
export interface Step {
  reply: Reply;
  id: string;
  tx: LoginTransaction;
  params: Params;
  /** A browser's request (GET, or a form post): refusals are the page again, not the error object. */
  page: boolean;
}

/**
 * Opens a login page's request: the route's rate limit, its parameters (GET: the query;
 * POST: the body, `state` from the body or else the query) and the transaction (400 unknown).
 */
export function openStep(req: TenantRequest, ctx: AppContext, bucket: string): Step | { answer: TenantResponse } {
  const started = begin(ctx, bucket, `ip:${req.remoteAddress ?? '-'}`);
  if ('limited' in started) return { answer: started.limited };
  const { reply } = started;
  const q = readQuery(req.url);
  let params: Params;
  if (req.method === 'POST') {
    const read = readBody(req, ctx.parts.limits);
    if (!read.ok) return { answer: reply.error(read.status, 'invalid_request', read.description) };
    params = read.params;
  } else {
    if (!q.ok) return { answer: reply.error(400, 'invalid_request', q.description) };
    params = q.params;
  }
  const id = params.state ?? (q.ok ? q.params.state : undefined);
  const tx = id === undefined ? undefined : ctx.parts.authStore.getLoginTransaction(id);
  if (id === undefined || tx === undefined) return { answer: reply.error(400, 'invalid_request', UNKNOWN_TRANSACTION) };
  const form = (req.headers['content-type'] ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded');
  return { reply, id, tx, params, page: req.method !== 'POST' || form };
}

/** A refusal: the page again with the message for a browser, the error object for an API caller. */
export function refuse(
  step: Step,
  status: number,
  error: string,
  description: string,
  render: (message: string) => string,
  headers: Record<string, string> = {},
): TenantResponse {
  return step.page
    ? step.reply.raw(status, { ...htmlHeaders, ...headers }, render(description))
    : step.reply.error(status, error, description, headers);
}

/** After the right password: the one-time-code or consent page when the profile has one, else the login ends. */
export async function afterPassword(
  ctx: AppContext,
  reply: Reply,
  id: string,
  tx: LoginTransaction,
  user: UserRecord,
): Promise<TenantResponse> {
  const next = ctx.login.flow === 'challenge' ? 'otp' : asksConsent(ctx, tx, user) ? 'consent' : undefined;
  if (next === undefined) {
    ctx.parts.authStore.deleteLoginTransaction(id);
    return completeLogin(ctx, reply, tx, user);
  }
  ctx.parts.authStore.saveLoginTransaction(id, { ...tx, authenticated: { user, next } });
  return reply.raw(302, { location: pageUrl(ctx, next === 'otp' ? '/u/mfa/otp' : '/u/consent', id) });
}

/**
 * Whether the login shows the consent page: always, for offline access or an API that asks its
 * users' consent, or (`remembered`) when it asks a scope the user has not granted the client yet,
 * whatever `prompt` says; with `consentTo: 'confidential'`, never to a public client.
 */
function asksConsent(ctx: AppContext, tx: LoginTransaction, user: UserRecord): boolean {
  if (ctx.login.consentTo === 'confidential' && isPublic(ctx, tx.clientId)) return false;
  switch (ctx.login.consent) {
    case 'always':
      return true;
    case 'offline':
      return tx.scope.split(' ').includes('offline_access') || apiAsksConsent(ctx, tx);
    case 'remembered': {
      const granted = ctx.parts.authStore.consentedScopes(user.userId, tx.clientId);
      return consentScopes(tx).some((s) => !granted.includes(s));
    }
    case 'never':
      return false;
  }
}

/** A client that does not authenticate at the token endpoint (`none`, RFC 7591 §2). */
function isPublic(ctx: AppContext, clientId: string): boolean {
  return ctx.clients.find((c) => c.clientId === clientId)?.tokenEndpointAuthMethod === 'none';
}

/**
 * skip_consent_for_verifiable_first_party_clients false: the API asks its users' consent even
 * for a first-party client (every client here is). Only a profile with a consent page shows it.
 */
function apiAsksConsent(ctx: AppContext, tx: LoginTransaction): boolean {
  const rs = tx.audience ? ctx.parts.store.getResourceServerByIdentifier(tx.audience) : undefined;
  return rs !== undefined && !rs.is_system && !ctx.parts.resourceTokenSettings(rs).skipConsent;
}

/** The scopes the consent page asks for (and, remembered, records when accepted). */
export function consentScopes(tx: LoginTransaction): string[] {
  return (tx.consentScope ?? tx.scope).split(' ').filter((s) => s !== '');
}

/** The session cookie of `loginFirst` (a browser's; never sent to another site's request). */
const SESSION_COOKIE = 'reference_session';

/** The user of the request's session, when it carries a live one. */
export function sessionUser(req: TenantRequest, ctx: AppContext): UserRecord | undefined {
  const cookies = (req.headers.cookie ?? '').split(';').map((c) => c.trim().split('='));
  const id = cookies.find(([name]) => name === SESSION_COOKIE)?.[1];
  return id === undefined ? undefined : ctx.parts.authStore.getSession(id)?.user;
}

/** Opens a session for `user`: the Set-Cookie header that carries it (as long as a login transaction lives). */
export function openSession(ctx: AppContext, user: UserRecord): Record<string, string> {
  const id = randomBytes(18).toString('base64url');
  const lifetime = ctx.parts.limits.loginTransactionLifetimeSeconds;
  ctx.parts.authStore.saveSession(id, { user, expiresAtMs: ctx.parts.now() + lifetime * 1000 });
  return { 'set-cookie': `${SESSION_COOKIE}=${id}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${lifetime}` };
}

/** The end of a login (its transaction already deleted): the code, or the tokens, to the redirect URI. */
export async function completeLogin(
  ctx: AppContext,
  reply: Reply,
  tx: LoginTransaction,
  user: UserRecord,
): Promise<TenantResponse> {
  const client = ctx.clients.find((c) => c.clientId === tx.clientId);
  if (client === undefined) return reply.error(400, 'invalid_request', 'The client of this login no longer exists');

  if (tx.responseType === 'code') {
    const code = randomBytes(24).toString('base64url');
    ctx.parts.authStore.saveCode(code, {
      clientId: client.clientId,
      userId: user.userId,
      redirectUri: tx.redirectUri,
      scope: tx.scope,
      ...(tx.audience ? { audience: tx.audience } : {}),
      ...(tx.nonce !== undefined ? { nonce: tx.nonce } : {}),
      ...(tx.pkce ? { pkce: tx.pkce } : {}),
      expiresAtMs: ctx.parts.now() + ctx.parts.limits.authorizationCodeLifetimeSeconds * 1000,
    });
    return redirectTo(reply, tx.redirectUri, false, { code, state: tx.state });
  }
  const types = tx.responseType.split(' ');
  // The implicit token is issued now: the API's settings of this moment (token_lifetime_for_web).
  const admitted = await admitUser(ctx, {
    client,
    audience: tx.audience,
    requested: tx.scope,
    asking: false,
    at: 'implicit',
  });
  if (!admitted.ok)
    return redirectTo(reply, tx.redirectUri, true, {
      error: admitted.error,
      error_description: admitted.description,
      state: tx.state,
    });
  const tokens = await issueUserTokens(ctx, { client, user }, admitted, {
    audience: tx.audience,
    nonce: tx.nonce,
    refreshable: false,
    want: { accessToken: types.includes('token'), idToken: types.includes('id_token') },
    gty: 'implicit',
  });
  const access = types.includes('token')
    ? {
        access_token: tokens.access_token,
        token_type: tokens.token_type,
        expires_in: String(tokens.expires_in),
        scope: tokens.scope,
      }
    : {};
  return redirectTo(reply, tx.redirectUri, true, { ...access, id_token: tokens.id_token, state: tx.state });
}
