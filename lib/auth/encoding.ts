// §4.3: POST parameters of the authentication API are sent as JSON. A target that refuses
// JSON where it takes the same request as a form deviates once (auth.api.post-json says so);
// every other clause is then judged with the form, and its evidence says so, so that one
// root cause is one failure. Found once per worker with the confidential (Post) client, through
// the grant the tenant offers (issue 30, item 7): client credentials, else the password grant of
// the test user — a tenant without the first fails its own clause only, and the encoding, the
// ways to authenticate and what needs a token answer are judged through the second. The probe's
// answers are kept, so the tests that need that very grant (the Post method's accepted case,
// the JSON-versus-form convention, the client-credentials flow) do not send it again.
import type { Config } from '../config.ts';
import type { ApiClient, Exchange, SendOptions } from '../http.ts';
import { issued } from './acceptance.ts';
import { oneLoginAtATime } from './one-login.ts';

/** A grant a client authenticates with at the token endpoint, in the order the probe tries them. */
export type OfferedGrant = 'client_credentials' | 'password';

/** A grant's answers: as JSON, and as a form when JSON gave no token. */
export interface ProbeAnswers {
  json: Exchange;
  form: Exchange | null;
}

export interface AuthEncoding {
  encoding: 'json' | 'form';
  /** Added to the evidence of every check judged with the form; empty for JSON. */
  note: string;
  /**
   * The grant the encoding and the ways to authenticate are judged through: the first that
   * obtained a token; client credentials when none did (its clause says why).
   */
  grant: OfferedGrant;
  /** The answers of `grant` (null when no Post client is configured). */
  probe: ProbeAnswers | null;
  /** The answers to the client-credentials grant, judged by its own clause (auth.flow.client-credentials). */
  clientCredentials: ProbeAnswers | null;
}

const JSON_ENCODING: AuthEncoding = {
  encoding: 'json',
  note: '',
  grant: 'client_credentials',
  probe: null,
  clientCredentials: null,
};
const FORM_NOTE = ' (sent as form: the target refuses JSON, see auth.api.post-json)';
const found = new Map<string, Promise<AuthEncoding>>();

/** The body of the probe: a client-credentials request of the Post client. */
export function probeGrant(cfg: Config): Record<string, string> | null {
  const c = cfg.auth.post;
  return c
    ? { grant_type: 'client_credentials', client_id: c.id, client_secret: c.secret, audience: cfg.audience }
    : null;
}

/**
 * A way to authenticate's request (built over client credentials) sent over `grant` instead:
 * its client authentication kept, the grant's own parameters put in (RFC 6749 §4.3.2), the
 * client-credentials `audience` left out.
 */
export function overGrant(data: Record<string, unknown>, cfg: Config, grant: OfferedGrant): Record<string, unknown> {
  const user = cfg.auth.user;
  if (grant !== 'password' || data.grant_type !== 'client_credentials' || !user) return data;
  // The management API's audience is what a client asks for itself; a user's login asks for OpenID scopes.
  const { audience: _clientAudience, ...auth } = data;
  return { ...auth, grant_type: 'password', username: user.username, password: user.password, scope: 'openid' };
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

/** Said beside a way to authenticate judged over the password grant: why not over client credentials. */
export function grantNote(enc: AuthEncoding): string {
  return enc.grant === 'password'
    ? ' (over the password grant: client credentials gave no token, see auth.flow.client-credentials)'
    : '';
}

/** The answer to the Post client's request over the probe's grant in the accepted encoding: the probe's own. */
export function probeAnswer(enc: AuthEncoding): Exchange | null {
  return answerIn(enc, enc.probe);
}

/** The answer to the Post client's client-credentials grant in the run's encoding. */
export function clientCredentialsAnswer(enc: AuthEncoding): Exchange | null {
  return answerIn(enc, enc.clientCredentials);
}

/**
 * POST to the authentication API's token endpoint with the encoding the target accepts. A login
 * (the password grant) never overlaps another of the same user (lib/auth/one-login.ts).
 */
export function tokenPost(
  client: ApiClient,
  enc: Pick<AuthEncoding, 'encoding'>,
  cfg: Config,
  data: Record<string, unknown>,
  o: Omit<SendOptions, 'data' | 'encoding'> = {},
): Promise<Exchange> {
  const send = () => client.send('POST', cfg.auth.tokenUrl, { ...o, data, encoding: enc.encoding });
  return data.grant_type === 'password' && typeof data.username === 'string'
    ? oneLoginAtATime(cfg.auth.url, data.username, send)
    : send();
}

// Helpers

async function probe(cfg: Config, anon: ApiClient): Promise<AuthEncoding> {
  const cc = probeGrant(cfg);
  if (!cc) return JSON_ENCODING;
  const clientCredentials = await tryGrant(cfg, anon, cc);
  const taken = (a: ProbeAnswers): 'json' | 'form' | null =>
    issued(a.json) ? 'json' : a.form && issued(a.form) ? 'form' : null;
  const found = (grant: OfferedGrant, a: ProbeAnswers, encoding: 'json' | 'form'): AuthEncoding => ({
    encoding,
    note: encoding === 'form' ? FORM_NOTE : '',
    grant,
    probe: a,
    clientCredentials,
  });
  const byCc = taken(clientCredentials);
  if (byCc) return found('client_credentials', clientCredentials, byCc);
  const password = overGrant(cc, cfg, 'password');
  if (password !== cc && !cfg.auth.notOffered.has('password')) {
    const answers = await tryGrant(cfg, anon, password);
    const byPassword = taken(answers);
    if (byPassword) return found('password', answers, byPassword);
  }
  return { ...JSON_ENCODING, probe: clientCredentials, clientCredentials };
}

async function tryGrant(cfg: Config, anon: ApiClient, data: Record<string, unknown>): Promise<ProbeAnswers> {
  const send = (encoding: 'json' | 'form') => tokenPost(anon, { encoding }, cfg, data);
  const json = await send('json');
  return { json, form: issued(json) ? null : await send('form') };
}

function answerIn(enc: AuthEncoding, a: ProbeAnswers | null): Exchange | null {
  if (!a) return null;
  return enc.encoding === 'form' ? (a.form ?? a.json) : a.json;
}
