// §5.2 "Client ID and secret", Basic: the header, id and secret form-encoded first (RFC 6749
// §2.3.1 form-encodes them before Base64).
import { cc, ID_ALONE, type MethodRequest, type TokenMethod } from './method.ts';
import { test } from '@playwright/test';
import { skipClauses } from '../../declare.ts';
import { runSkip } from '../../skip-record.ts';

/** `Basic base64(urlencode(id):urlencode(secret))`; `encode: false` leaves them raw (a different credential when they need encoding). */
export function basicAuthorization(id: string, secret: string, encode = true): string {
  const e = (s: string): string => (encode ? encodeURIComponent(s).replace(/%20/g, '+') : s);
  return `Basic ${Buffer.from(`${e(id)}:${e(secret)}`).toString('base64')}`;
}

/** Whether an id/secret changes under form-encoding (the RFC 6749 §2.3.1 case is then exercised). */
export function needsFormEncoding(s: string): boolean {
  return encodeURIComponent(s) !== s;
}

export const BASIC: TokenMethod = {
  id: 'client-secret-basic',
  name: 'Client ID and secret, Basic',
  clause: 'auth.method.client-secret-basic',
  refusedClause: 'auth.method.client-secret-basic',
  acceptClauses: ['auth.method.client-secret-basic.form-encoded'],
  needs: runSkip(
    { setting: 'IDM_BASIC_CLIENT_ID' },
    'needs a client_secret_basic client: set IDM_BASIC_CLIENT_ID and IDM_BASIC_CLIENT_SECRET',
  ),
  clients: (cfg) => (cfg.auth.basic ? [{ id: cfg.auth.basic.id, secret: cfg.auth.basic.secret }] : []),
  async request(cfg, c, fault): Promise<MethodRequest> {
    if (fault === ID_ALONE.id) return { data: { ...cc(cfg), client_id: c.id }, headers: {} };
    const id = fault === 'wrong-id' ? `${c.id}-unknown` : c.id;
    const secret = fault === 'wrong-secret' ? `${c.secret}-wrong` : (c.secret as string);
    return { data: cc(cfg), headers: { authorization: basicAuthorization(id, secret) } };
  },
  faults: [
    { id: 'wrong-secret', what: 'a wrong secret in the Basic header' },
    { id: 'wrong-id', what: 'a wrong client id in the Basic header' },
    ID_ALONE,
  ],
  describe: () => 'Authorization: Basic',
  async besides({ check, enc, c, ex }) {
    // RFC 6749 §2.3.1: id and secret are form-encoded before Base64; judged where that changes them.
    if (!needsFormEncoding(c.id) && !needsFormEncoding(c.secret ?? '')) {
      skipClauses(
        test.info(),
        runSkip(
          { setting: 'IDM_BASIC_CLIENT_SECRET' },
          `not exercised: neither the Basic client's id nor its secret has a character form-encoding changes (RFC 6749 §2.3.1); a secret with one (":", "+", "%", a space) exercises it`,
        ),
        'auth.method.client-secret-basic.form-encoded',
      );
      return;
    }
    const ok = ex.answer.issued !== null;
    check.that(
      'auth.method.client-secret-basic.form-encoded',
      ok,
      `a Basic header with the form-encoded id and secret (RFC 6749 §2.3.1) ${ok ? `answered ${ex.status} with a token` : `answered ${ex.status}`}${enc.note}`,
      ex,
    );
  },
};
