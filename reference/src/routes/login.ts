// The login pages after /authorize (reference/README.md "Login profiles"):
//   /u/login             the one page: email address and password (GET only with a login origin);
//   /u/login/identifier  identifier-first, page 1: the email address;
//   /u/login/password    identifier-first, page 2: the password;
//   /u/mfa/otp           the challenge profile's one-time code, which no code passes.
// Every password goes through checkLogin, so the §8 repeat-login limit and its 429 are the
// same on every page. A form post that is refused gets its page again with a role=alert
// message; a JSON post (§4.3) the error object.
import type { TenantRequest, TenantResponse } from '../types.ts';
import type { AppContext } from '../context.ts';
import { afterPassword, openStep, pageUrl, refuse, type Step } from '../auth/login-flow.ts';
import { htmlHeaders, identifierPage, loginPage, otpPage, passwordPage } from '../auth/login-pages.ts';
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
