// The passwordless OTP grant's code check (TenantParts.verifyOneTimeCode): the code must be one
// POST /passwordless/start sent to that recipient on that connection, for the client now
// redeeming it, still live (oneTimeCodeLifetimeSeconds) and unused. Every live code counts (a
// second start does not void the first: runs in parallel may start for one recipient). Brute
// force is bounded: oneTimeCodeAttemptsMax wrong codes for a recipient without a right one
// between them kill every code sent to it.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { OneTimeCodeCheck, TenantParts } from '../types.ts';

/** §4.3 "passwordless (connection sms or email)": the token endpoint's grant that redeems the code. */
export const PASSWORDLESS_OTP_GRANT = 'http://auth0.com/oauth/grant-type/passwordless/otp';

const REFUSED = 'Wrong, expired or already used one-time code';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function oneTimeCodeVerifier(parts: () => TenantParts): OneTimeCodeCheck {
  return ({ connection, recipient, clientId, code }) => {
    const { authStore, limits } = parts();
    const state = authStore.getSentCodes(connection, recipient);
    if (state === undefined) return { ok: false, description: REFUSED };
    const given = digest(code);
    const match = state.codes.findIndex((s) => s.clientId === clientId && timingSafeEqual(digest(s.code), given));
    if (match >= 0) {
      authStore.setSentCodes(connection, recipient, {
        codes: state.codes.filter((_, i) => i !== match),
        failedAttempts: 0,
      });
      return { ok: true };
    }
    // Another client presenting a code counts as a wrong guess too: it was not sent for that client.
    const failedAttempts = state.failedAttempts + 1;
    const dead = failedAttempts >= limits.oneTimeCodeAttemptsMax;
    authStore.setSentCodes(
      connection,
      recipient,
      dead ? { codes: [], failedAttempts: 0 } : { ...state, failedAttempts },
    );
    return { ok: false, description: REFUSED };
  };
}
