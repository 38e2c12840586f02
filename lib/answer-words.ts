// The one account of an answer in words, for messages and observations of both halves: built from
// the exchange's data (status, Location, content type, the JSON members), so it never says
// "undefined" of an answer without a body and names the content type where no JSON came back.
import type { Exchange } from './http.ts';
import { isObject, short } from './values.ts';
import { passes, PASSES } from './answer-class.ts';

/** Status, where a redirect pointed (no query), then the error code, the JSON members, or what the body was. */
export function describeAnswer(ex: Exchange): string {
  const location = ex.status >= 300 && ex.status < 400 ? ex.headers.location : undefined;
  const to = location ? ` to ${location.split(/[?#]/)[0]}` : '';
  return `${ex.status}${to}${describeBody(ex)}`;
}

/** The body in a few words: its error code or members when JSON, else its content type and start, or none. */
export function describeBody(ex: Exchange): string {
  if (isObject(ex.body))
    return typeof ex.body.error === 'string'
      ? ` ${ex.body.error}`
      : ` with members ${Object.keys(ex.body).sort().join(', ') || '(none)'}`;
  if (ex.text === '') return ' without a body';
  const type = ex.headers['content-type']?.split(';')[0]?.trim();
  return ` ${type ? `as ${type}` : 'without a Content-Type'}: ${short(ex.text)}`;
}

/** Why a token request meant to be accepted issued none (RFC 6749 §5.1), in one line; a 404 is an absent endpoint, never a refusal. */
export function notIssuedCause(ex: Exchange): string {
  if (ex.status === 404) return `endpoint not found at ${new URL(ex.request.url).pathname}`;
  if (passes(ex.answer, PASSES.success)) return `answered ${ex.status} without an access_token and a token_type`;
  return `answered ${ex.status}${ex.answer.error === null ? '' : ` ${ex.answer.error}`}`;
}
