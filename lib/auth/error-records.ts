// §7.3 over a whole run: "on error the API returns an error object; most of these carry an
// error code and an error description". Each authentication-API error a test meets is
// recorded as an `auth-error` annotation; the reporter counts them all in one place
// (reporters/auth-errors.ts) and judges the majority on auth.error.code-and-description.
import type { TestInfo } from '@playwright/test';
import type { Exchange } from '../http.ts';
import { isObject } from '../values.ts';

/** Member names that carry an error code / a description (the spec shows neither; these are the usual ones). */
const CODE_MEMBERS = ['error', 'code', 'error_code', 'errorCode'] as const;
/** Inside a nested error object, its name is its code too. */
const NESTED_CODE_MEMBERS = [...CODE_MEMBERS, 'name', 'type'] as const;
const DESCRIPTION_MEMBERS = [
  'error_description',
  'description',
  'message',
  'error_message',
  'errorDescription',
] as const;

export interface AuthErrorSeen {
  /** METHOD /path */
  at: string;
  status: number;
  object: boolean;
  members: string[];
  /** The error code when a code member holds a non-empty string. */
  code: string | null;
  description: boolean;
  /** The answer's media type (Content-Type without parameters), null without one: why no object was read. */
  type: string | null;
}

export function describeAuthError(ex: Exchange): AuthErrorSeen {
  const body = ex.body;
  const obj = isObject(body);
  // An error object nested under `error` ({"error": {"name", "message"}}) still carries a code and
  // a description (§7.3 names no fields); that it is no OAuth error is auth.error.oauth-error's to say.
  const nested = obj && isObject(body.error) ? body.error : null;
  const str = (o: Record<string, unknown> | null, k: string): string | null =>
    o !== null && typeof o[k] === 'string' && (o[k] as string).trim() !== '' ? (o[k] as string) : null;
  const code =
    CODE_MEMBERS.map((k) => str(obj ? body : null, k)).find((v) => v !== null) ??
    NESTED_CODE_MEMBERS.map((k) => str(nested, k)).find((v) => v !== null) ??
    null;
  return {
    at: `${ex.request.method} ${new URL(ex.request.url).pathname}`,
    status: ex.status,
    object: obj,
    members: obj ? Object.keys(body).sort() : [],
    code,
    description: DESCRIPTION_MEMBERS.some((k) => str(obj ? body : null, k) !== null || str(nested, k) !== null),
    type: ex.headers['content-type']?.split(';')[0]?.trim().toLowerCase() || null,
  };
}

/**
 * Whether an answer is an API answer §7.3 speaks of: not the 404 of an endpoint that does not
 * exist, not a page shown to a person (its class's rule, lib/answer-class.ts `page-for-user`).
 */
function isApiError(ex: Exchange): boolean {
  return ex.status >= 400 && ex.status !== 404 && ex.answer.rule !== 'page-for-user';
}

/** Records an authentication-API error answer (status >= 400) for the run-wide §7.3 judgement. */
export function recordAuthError(info: TestInfo, ex: Exchange): AuthErrorSeen | null {
  if (!isApiError(ex)) return null;
  const seen = describeAuthError(ex);
  info.annotations.push({ type: 'auth-error', description: JSON.stringify(seen) });
  return seen;
}
