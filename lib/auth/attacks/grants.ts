// Credentials of the grants made up in the shape of a genuine one: what a tenant that never
// checks them would take (a simulator that accepts any refresh token, any one-time code).
import { randomInt } from 'node:crypto';
import { JWT_ATTACKS } from './jwt.ts';
import { isJwt } from '../jwt-read.ts';

/** The passwordless one-time-code grant as tenants of this kind take it (the spec shows no payload). */
export const PASSWORDLESS_OTP_GRANT = 'http://auth0.com/oauth/grant-type/passwordless/otp';

const URL_SAFE = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/**
 * A value the tenant never issued, in the genuine one's shape: a JWT becomes its claims unsigned
 * (alg none), anything else the same length in the same alphabet (never the genuine value).
 */
export async function madeUpLike(genuine: string): Promise<string> {
  if (isJwt(genuine)) {
    const unsigned = JWT_ATTACKS.find((a) => a.id === 'unsigned-none');
    const made = unsigned ? await unsigned.make(genuine, { published: null, other: null }) : null;
    if (typeof made === 'string') return made;
  }
  const alphabet = [...new Set(genuine)].every((ch) => URL_SAFE.includes(ch)) ? URL_SAFE : `${URL_SAFE}.~`;
  let out = genuine;
  while (out === genuine) out = Array.from(genuine, () => alphabet[randomInt(alphabet.length)]).join('');
  return out;
}

/** A one-time code of the genuine one's length (digits where it is digits), never the genuine one. */
export function madeUpCode(genuine: string | null, length = 6): string {
  const n = genuine?.length ?? length;
  const digits = genuine === null || /^\d+$/.test(genuine);
  const alphabet = digits ? '0123456789' : URL_SAFE;
  let out = genuine ?? '';
  while (out === (genuine ?? '') || out === '')
    out = Array.from({ length: n }, () => alphabet[randomInt(alphabet.length)]).join('');
  return out;
}
