// The login pages after /authorize (reference/README.md "Login profiles"):
//   /u/login             the one page: email address and password (GET only with a login origin);
//   /u/login/identifier  identifier-first, page 1: the email address;
//   /u/login/password    identifier-first, page 2: the password;
//   /u/mfa/otp           the challenge profile's one-time code, which no code passes;
//   /u/login?next=…      with `loginFirst`, the login before any request is read: it opens a
//                        session and sends the browser back to the /authorize it came from.
// Every password goes through checkLogin, so the §8 repeat-login limit and its 429 are the
// same on every page. A form post that is refused gets its page again with a role=alert
// message; a JSON post (§4.3) the error object.
import type { TenantRequest, TenantResponse } from '../types.ts';
import type { AppContext } from '../context.ts';
import { afterPassword, openSession, openStep, pageUrl, refuse, type Step } from '../auth/login-flow.ts';
import {
  htmlHeaders,
  identifierPage,
  loginPage,
  otpPage,
  passwordPage,
  sessionLoginPage,
} from '../auth/login-pages.ts';
import { begin, readBody, readQuery } from '../auth/request.ts';
import { DATABASE_CONNECTION } from '../config.ts';
import { LOGIN_BLOCKED, checkLogin } from './token.ts';

export async function login(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const s = openStep(req, ctx, 'auth.login');
  if ('answer' in s) return s.answer;
  const form = (message: string) => loginPage(pageUrl(ctx, '/u/login', s.id), s.id, s.tx.clientId, message);
  if (req.method !== 'POST') return s.reply.raw(200, htmlHeaders, form(''));
  const { username, password } = s.params;
  if (!username || !password) return refuse(s, 400, 'invalid_request', 'Enter your email address and password.', form);
  return passwordChecked(req, ctx, s, username, password, form);
}

export async function identifier(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const s = openStep(req, ctx, 'auth.login.identifier');
  if ('answer' in s) return s.answer;
  const form = (username: string, message: string) =>
    identifierPage(pageUrl(ctx, '/u/login/identifier', s.id), s.id, s.tx.clientId, username, message);
  if (req.method !== 'POST') return s.reply.raw(200, htmlHeaders, form(s.tx.username ?? '', ''));
  const { username } = s.params;
  if (!username) return refuse(s, 400, 'invalid_request', 'Enter your email address.', (m) => form('', m));
  // Any address goes on to the password page: which ones have an account is not told.
  ctx.parts.authStore.saveLoginTransaction(s.id, { ...s.tx, username, authenticated: undefined });
  return s.reply.raw(302, { location: pageUrl(ctx, '/u/login/password', s.id) });
}

export async function password(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const s = openStep(req, ctx, 'auth.login.password');
  if ('answer' in s) return s.answer;
  const { username } = s.tx;
  // The address comes from page 1 only (a posted one is ignored); without it, page 1 first.
  if (username === undefined) return s.reply.raw(302, { location: pageUrl(ctx, '/u/login/identifier', s.id) });
  const form = (message: string) =>
    passwordPage(
      pageUrl(ctx, '/u/login/password', s.id),
      pageUrl(ctx, '/u/login/identifier', s.id),
      s.id,
      s.tx.clientId,
      username,
      message,
    );
  if (req.method !== 'POST') return s.reply.raw(200, htmlHeaders, form(''));
  const { password } = s.params;
  if (!password) return refuse(s, 400, 'invalid_request', 'Enter your password.', form);
  return passwordChecked(req, ctx, s, username, password, form);
}

/**
 * The challenge profile's second factor. No authenticator is enrolled, so every code is
 * wrong and the login never ends: the page a browser walk cannot drive.
 */
export async function otpChallenge(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const s = openStep(req, ctx, 'auth.login.otp');
  if ('answer' in s) return s.answer;
  if (s.tx.authenticated?.next !== 'otp')
    return s.reply.error(400, 'invalid_request', 'This login asks for no one-time code: start again at /authorize');
  const form = (message: string) => otpPage(pageUrl(ctx, '/u/mfa/otp', s.id), s.id, message);
  if (req.method !== 'POST') return s.reply.raw(200, htmlHeaders, form(''));
  if (!s.params.otp) return refuse(s, 400, 'invalid_request', 'Enter the code.', form);
  return refuse(s, 401, 'invalid_grant', 'Wrong or expired code.', form);
}

/**
 * `loginFirst`: GET shows the login page for `next` (an /authorize URL of this tenant, nothing
 * else: no open redirect); POST checks the password as every login does (§8's limit included),
 * opens the session and sends the browser back to `next`, where the request is read.
 */
export async function loginFirst(req: TenantRequest, ctx: AppContext): Promise<TenantResponse> {
  const started = begin(ctx, 'auth.login', `ip:${req.remoteAddress ?? '-'}`);
  if ('limited' in started) return started.limited;
  const { reply } = started;
  const q = readQuery(req.url);
  const read = req.method === 'POST' ? readBody(req, ctx.parts.limits) : null;
  if (read && !read.ok) return reply.error(read.status, 'invalid_request', read.description);
  if (!q.ok) return reply.error(400, 'invalid_request', q.description);
  const params = read?.ok ? read.params : q.params;
  const next = params.next ?? q.params.next ?? '';
  if (!/^\/authorize(\?|$)/.test(next))
    return reply.error(400, 'invalid_request', 'next must be an authorization request of this tenant');
  const page = (status: number, message: string, headers: Record<string, string> = {}) =>
    reply.raw(status, { ...htmlHeaders, ...headers }, sessionLoginPage('/u/login', next, message));
  if (req.method !== 'POST') return page(200, '');
  const { username, password } = params;
  if (!username || !password) return page(400, 'Enter your email address and password.');
  const result = checkLogin(ctx, DATABASE_CONNECTION, username, password, req.remoteAddress);
  if (!result.ok)
    return result.blocked ? page(429, LOGIN_BLOCKED, result.headers) : page(401, 'Wrong email or password.');
  return reply.raw(302, { location: next, ...openSession(ctx, result.user) });
}

// Helpers

async function passwordChecked(
  req: TenantRequest,
  ctx: AppContext,
  s: Step,
  username: string,
  password: string,
  form: (message: string) => string,
): Promise<TenantResponse> {
  const result = checkLogin(ctx, s.tx.connection, username, password, req.remoteAddress);
  if (result.ok) return afterPassword(ctx, s.reply, s.id, s.tx, result.user);
  return result.blocked
    ? refuse(s, 429, 'too_many_attempts', LOGIN_BLOCKED, form, result.headers)
    : refuse(s, 401, 'invalid_grant', 'Wrong email or password.', form);
}
