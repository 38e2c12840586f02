// A curl command that reproduces an exchange. The bearer token is never printed: the command
// reads it from $IDM_ACCESS_TOKEN, and everything else passes through the redactor.
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
      const scheme = /^(\w+)\s/.exec(value)?.[1] ?? 'Bearer';
      // A forged or malformed credential is part of the case; a real one comes from the env.
      parts.push(
        '-H',
        scheme.toLowerCase() === 'bearer'
          ? `"Authorization: Bearer $IDM_ACCESS_TOKEN"`
          : shellQuote(`Authorization: ${scheme} <redacted>`),
      );
      continue;
    }
    parts.push('-H', shellQuote(`${name}: ${redactor.text(value)}`));
  }
  if (req.body !== undefined) parts.push('--data-raw', shellQuote(redactor.text(req.body)));
  return parts.join(' ');
}

export function shellQuote(s: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s)) return s;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
