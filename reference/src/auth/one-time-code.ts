// The passwordless OTP grant's code check (TenantParts.verifyOneTimeCode): the code must be the
// one POST /passwordless/start last sent to that recipient on that connection, for the client
// now redeeming it, still live (oneTimeCodeLifetimeSeconds) and unused. Brute force is bounded:
// after oneTimeCodeAttemptsMax wrong codes for a recipient the code sent to it dies as well.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { OneTimeCodeCheck, TenantParts } from '../types.ts';

/** §4.3 "passwordless (connection sms or email)": the token endpoint's grant that redeems the code. */
export const PASSWORDLESS_OTP_GRANT = 'http://auth0.com/oauth/grant-type/passwordless/otp';

const REFUSED = 'Wrong, expired or already used one-time code';

const digest = (s: string) => createHash('sha256').update(s).digest();

export function oneTimeCodeVerifier(parts: () => TenantParts): OneTimeCodeCheck {
  return ({ connection, recipient, clientId, code }) => {
    const { authStore, limits } = parts();
    const sent = authStore.getSentCode(connection, recipient);
    if (sent === undefined) return { ok: false, description: REFUSED };
    if (sent.clientId === clientId && timingSafeEqual(digest(sent.code), digest(code))) {
      authStore.deleteSentCode(connection, recipient);
      return { ok: true };
    }
    // Another client presenting the code counts as a wrong guess too: the code was not sent for it.
    const failedAttempts = sent.failedAttempts + 1;
    if (failedAttempts >= limits.oneTimeCodeAttemptsMax) authStore.deleteSentCode(connection, recipient);
    else authStore.saveSentCode(connection, recipient, { ...sent, failedAttempts });
    return { ok: false, description: REFUSED };
  };
}
