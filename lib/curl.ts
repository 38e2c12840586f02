// A curl command that reproduces an exchange. A bearer credential the suite forged is the case
// and no secret: it is printed as sent. One the tenant issued is read from an environment
// variable the command names (lib/credential-origin.ts); any other credential scheme (Basic) is
// masked, and everything else passes through the redactor.
import { shownAs } from './credential-origin.ts';
import type { Redactor } from './redact.ts';

export interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** The exact bytes sent, when there was a body. */
  body?: string;
}

export function renderCurl(req: CurlRequest, redactor: Redactor): string {
  const parts = ['curl', '-sS', '-i', '-X', req.method.toUpperCase(), shellQuote(redactor.text(req.url))];
  for (const [name, value] of Object.entries(req.headers)) {
    if (name.toLowerCase() === 'authorization') {
      parts.push('-H', authorizationArg(value));
      continue;
    }
    parts.push('-H', shellQuote(`${name}: ${redactor.text(value)}`));
  }
  if (req.body !== undefined) parts.push('--data-raw', shellQuote(redactor.text(req.body)));
  return parts.join(' ');
}

/** The forged credential a request's reproduction prints as sent, or null: the reporter's second net spares it. */
export function forgedCredential(req: CurlRequest): string | null {
  const bearer = bearerOf(req.headers);
  if (bearer === null) return null;
  const shown = shownAs(bearer.credential);
  return 'sent' in shown ? shown.sent : null;
}

export function shellQuote(s: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

// Helpers

function authorizationArg(value: string): string {
  const bearer = bearerOf({ authorization: value });
  if (bearer === null) return shellQuote(`Authorization: ${/^(\S+)\s/.exec(value)?.[1] ?? 'Bearer'} <redacted>`);
  const shown = shownAs(bearer.credential);
  return 'sent' in shown
    ? shellQuote(`Authorization: ${bearer.scheme} ${shown.sent}`)
    : `"Authorization: ${bearer.scheme} $${shown.env}"`;
}

/** The Bearer scheme (as written) and its credential, or null for another scheme or none. */
function bearerOf(headers: Record<string, string>): { scheme: string; credential: string } | null {
  const value = Object.entries(headers).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
  const m = value === undefined ? null : /^(bearer)\s+(.*)$/is.exec(value);
  return m ? { scheme: m[1]!, credential: m[2]! } : null;
}
