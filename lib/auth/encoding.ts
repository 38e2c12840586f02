// §4.3: POST parameters of the authentication API are sent as JSON. A target that refuses
// JSON where it takes the same request as a form deviates once (auth.api.post-json says so);
// every other clause is then judged with the form, and its evidence says so, so that one
// root cause is one failure. Found once per worker with the confidential (Post) client; the
// probe's answers are kept, so the tests that need that very grant (the Post method's accepted
// case, the JSON-versus-form convention, the client-credentials flow) do not send it again.
import type { Config } from '../config.ts';
import type { ApiClient, Exchange, SendOptions } from '../http.ts';
import { issued } from './acceptance.ts';

export interface AuthEncoding {
  encoding: 'json' | 'form';
  /** Added to the evidence of every check judged with the form; empty for JSON. */
  note: string;
  /**
   * The probe's answers to the Post client's client-credentials grant: as JSON, and as a form
   * when JSON gave no token (null when no Post client is configured).
   */
  probe: { json: Exchange; form: Exchange | null } | null;
}

const JSON_ENCODING: AuthEncoding = { encoding: 'json', note: '', probe: null };
const FORM_NOTE = ' (sent as form: the target refuses JSON, see auth.api.post-json)';
const found = new Map<string, Promise<AuthEncoding>>();

/** The body of the probe: a client-credentials request of the Post client. */
export function probeGrant(cfg: Config): Record<string, string> | null {
  const c = cfg.auth.post;
  return c
    ? { grant_type: 'client_credentials', client_id: c.id, client_secret: c.secret, audience: cfg.audience }
    : null;
}

/** JSON unless JSON is refused where the same request as a form obtains a token. */
export function authEncoding(cfg: Config, anon: ApiClient): Promise<AuthEncoding> {
  let e = found.get(cfg.auth.tokenUrl);
  if (!e) {
    e = probe(cfg, anon);
    found.set(cfg.auth.tokenUrl, e);
  }
  return e;
}

async function probe(cfg: Config, anon: ApiClient): Promise<AuthEncoding> {
  const data = probeGrant(cfg);
  if (!data) return JSON_ENCODING;
  const json = await anon.send('POST', cfg.auth.tokenUrl, { data });
  if (issued(json)) return { ...JSON_ENCODING, probe: { json, form: null } };
  const form = await anon.send('POST', cfg.auth.tokenUrl, { data, encoding: 'form' });
  return issued(form)
    ? { encoding: 'form', note: FORM_NOTE, probe: { json, form } }
    : { ...JSON_ENCODING, probe: { json, form } };
}

/** The answer to the Post client's client-credentials grant (probeGrant) in the accepted encoding: the probe's own. */
export function probeAnswer(enc: AuthEncoding): Exchange | null {
  return enc.probe ? (enc.encoding === 'form' ? enc.probe.form : enc.probe.json) : null;
}

/** POST to the authentication API with the encoding the target accepts. */
export function authPost(
  client: ApiClient,
  enc: AuthEncoding,
  url: string,
  data: Record<string, unknown>,
  o: Omit<SendOptions, 'data' | 'encoding'> = {},
): Promise<Exchange> {
  return client.send('POST', url, { ...o, data, encoding: enc.encoding });
}
