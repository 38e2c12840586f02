// §4.3: POST parameters of the authentication API are sent as JSON. A target that refuses JSON
// where it takes the same request as a form deviates once (auth.api.post-json) and every other
// clause is judged with the form, so that one root cause is one failure. Found once per worker
// through the grant the tenant offers (which: lib/README.md); the probe's answers are kept, so
// the tests that need that very grant do not send it again.
import type { Config } from '../config.ts';
import type { ApiClient, Exchange, SendOptions } from '../http.ts';
import { oneLoginAtATime } from './one-login.ts';
import { isSkipRecord, type SkipRecord } from '../skip-record.ts';

/** A grant a client authenticates with at the token endpoint, in the order the probe tries them. */
export type OfferedGrant = 'client_credentials' | 'password' | 'authorization_code';

/** The flow clause that judges each grant: the one a failure of the grant itself belongs to. */
export const GRANT_CLAUSE: Record<OfferedGrant, string> = {
  client_credentials: 'auth.flow.client-credentials',
  password: 'auth.flow.password',
  authorization_code: 'auth.flow.code.confidential',
};

/**
 * A fresh authorization code of a real login of the test user for `clientId` (the code flow
 * through the login walk, with PKCE): the exchange's own parameters (grant_type, code,
 * redirect_uri, code_verifier), or why there is none (the record its request is skipped with).
 */
export type CodeLogin = (clientId: string) => Promise<Record<string, string> | SkipRecord>;

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
   * obtained a token; when none did, client credentials (its clause says why), or where that is
   * declared not offered, the last grant tried.
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
 * its client authentication kept, the grant's own parameters put in (RFC 6749 §4.3.2, §4.1.3),
 * the client-credentials `audience` left out. The code exchange takes a fresh code of `clientId`
 * from `login` (a code is exchanged once); a login that gave none is its record.
 */
export async function overGrant(
  data: Record<string, unknown>,
  cfg: Config,
  grant: OfferedGrant,
  code?: { login: CodeLogin; clientId: string },
): Promise<Record<string, unknown> | SkipRecord> {
  const user = cfg.auth.user;
  if (grant === 'client_credentials' || data.grant_type !== 'client_credentials') return data;
  // The management API's audience is what a client asks for itself; a user's login asks for OpenID scopes.
  const { audience: _clientAudience, grant_type: _cc, ...auth } = data;
  if (grant === 'password')
    return user
      ? { ...auth, grant_type: 'password', username: user.username, password: user.password, scope: 'openid' }
      : data;
  if (!code) return data;
  const exchange = await code.login(code.clientId);
  return isSkipRecord(exchange) ? exchange : { ...auth, ...exchange };
}

/**
 * JSON unless JSON is refused where the same request as a form obtains a token; `login` gives
 * the code exchange its codes where neither client credentials nor the password grant is offered.
 */
export function authEncoding(cfg: Config, anon: ApiClient, login?: CodeLogin): Promise<AuthEncoding> {
  let e = found.get(cfg.auth.tokenUrl);
  if (!e) {
    e = probe(cfg, anon, login);
    found.set(cfg.auth.tokenUrl, e);
  }
  return e;
}

/** Said beside a way to authenticate judged over another grant than client credentials: why. */
export function grantNote(enc: AuthEncoding): string {
  if (enc.grant === 'password')
    return ' (over the password grant: client credentials gave no token, see auth.flow.client-credentials)';
  if (enc.grant === 'authorization_code')
    return ' (over the code exchange of a login: neither client credentials nor the password grant gave a token, see auth.flow.client-credentials and auth.flow.password)';
  return '';
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

async function probe(cfg: Config, anon: ApiClient, login?: CodeLogin): Promise<AuthEncoding> {
  const cc = probeGrant(cfg);
  if (!cc) return JSON_ENCODING;
  const { notOffered } = cfg.auth;
  // A grant declared not offered is not asked for: its clause is skipped as the tenant's.
  const clientCredentials = notOffered.has('client-credentials') ? null : await tryGrant(cfg, anon, async () => cc);
  const taken = (a: ProbeAnswers): 'json' | 'form' | null =>
    a.json.answer.issued !== null ? 'json' : a.form && a.form.answer.issued !== null ? 'form' : null;
  const found = (grant: OfferedGrant, a: ProbeAnswers, encoding: 'json' | 'form'): AuthEncoding => ({
    encoding,
    note: encoding === 'form' ? FORM_NOTE : '',
    grant,
    probe: a,
    clientCredentials,
  });
  const byCc = clientCredentials && taken(clientCredentials);
  if (clientCredentials && byCc) return found('client_credentials', clientCredentials, byCc);
  // None taken: the last grant tried is the one whose clause says why.
  let last: { grant: OfferedGrant; probe: ProbeAnswers | null } = {
    grant: 'client_credentials',
    probe: clientCredentials,
  };
  for (const grant of ['password', 'authorization_code'] as const) {
    if (grant === 'password' && (notOffered.has('password') || !cfg.auth.user)) continue;
    if (grant === 'authorization_code' && (!login || !cfg.auth.redirectUri)) continue;
    const code = login && { login, clientId: cc.client_id as string };
    // Each try its own request: a code of the exchange is good once.
    const answers = await tryGrant(cfg, anon, () => overGrant(cc, cfg, grant, code));
    // A login that gave no code (not driven, refused) leaves the code exchange the grant: every
    // request over it then stops with that login's record, never a refusal of a grant not offered.
    if (answers === null) {
      if (grant === 'authorization_code' && clientCredentials === null) last = { grant, probe: null };
      continue;
    }
    const by = taken(answers);
    if (by) return found(grant, answers, by);
    if (clientCredentials === null) last = { grant, probe: answers };
  }
  return { ...JSON_ENCODING, ...last, clientCredentials };
}

/** The grant as JSON, and as a form where JSON gave no token; null when no request could be made (no code). */
async function tryGrant(
  cfg: Config,
  anon: ApiClient,
  make: () => Promise<Record<string, unknown> | SkipRecord>,
): Promise<ProbeAnswers | null> {
  const send = async (encoding: 'json' | 'form') => {
    // The probe runs inside whichever test asked first: a login that cannot be made stops nothing.
    const data = await make().catch(() => null);
    return data === null || isSkipRecord(data) ? null : tokenPost(anon, { encoding }, cfg, data);
  };
  const json = await send('json');
  if (json === null) return null;
  return { json, form: json.answer.issued !== null ? null : await send('form') };
}

function answerIn(enc: AuthEncoding, a: ProbeAnswers | null): Exchange | null {
  if (!a) return null;
  return enc.encoding === 'form' ? (a.form ?? a.json) : a.json;
}
