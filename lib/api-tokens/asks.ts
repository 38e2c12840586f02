// The tokens a settings row asks for (lib/api-tokens/rows.ts), each with what it needs of the run's
// configuration and of the tenant before the row writes.
import { readFileSync } from 'node:fs';
import { notOfferedSkip, separateAuthUrl, type Config } from '../config.ts';
import { describeAnswer } from '../answer-words.ts';
import { tokenPost } from '../auth/encoding.ts';
import { codeRequest, newState } from '../auth/pkce.ts';
import { onLiveCredentials } from '../auth/live-credential.ts';
import { runSkip, tenantSkip, type SkipRecord } from '../skip-record.ts';
import type { Twin } from '../twin-gate.ts';
import type { Lifetime } from './conditions.ts';
import type { ApiToken } from './requests.ts';
import { ISSUED, type Room } from './rows.ts';

export interface Ask<T = ApiToken> {
  /** What the run's configuration must hold: the run's record where it does not. */
  needs?(cfg: Config): SkipRecord | null;
  /** What the tenant must show before the row writes (a request of its own), or why not. */
  ready?(r: Room): Promise<SkipRecord | null>;
  send(r: Room): Promise<Asked<T>>;
}

/** A token answer (with its own twin where the ask makes one), a refusal at the login itself, or nothing to judge. */
export type Asked<T = ApiToken> = { t: T; twin?: Twin } | { refusedAtLogin: string } | { skip: SkipRecord };

/** What an ask may need of the configuration: whether it holds, what to set (the first setting named: the cause). */
const NEEDED: Record<string, [(c: Config) => unknown, string]> = {
  mtls: [
    (c) => c.auth.mtls,
    'an mTLS client behind the edge: set IDM_MTLS_CLIENT_ID, IDM_MTLS_API_KEY and IDM_MTLS_CERT_FILE',
  ],
  ungranted: [
    (c) => c.ungranted,
    'a client holding no grant for the API: set IDM_UNGRANTED_CLIENT_ID and IDM_UNGRANTED_CLIENT_SECRET',
  ],
  post: [(c) => c.auth.post, 'a confidential client: set IDM_POST_CLIENT_ID and IDM_POST_CLIENT_SECRET'],
  user: [(c) => c.auth.user, 'a test user: set IDM_TEST_USERNAME and IDM_TEST_PASSWORD'],
  web: [
    (c) => c.auth.publicClientId && c.auth.redirectUri,
    'a public client and its redirect URI: set IDM_PUBLIC_CLIENT_ID and IDM_REDIRECT_URI',
  ],
  public: [(c) => c.auth.publicClientId, 'a public client for its code flow: set IDM_PUBLIC_CLIENT_ID'],
  redirect: [(c) => c.auth.redirectUri, 'the redirect URI of the public client: set IDM_REDIRECT_URI'],
};

/** The first of `needed` the configuration lacks, as the run's record. */
function lacking(cfg: Config, ...needed: string[]): SkipRecord | null {
  const gap = needed.map((n) => NEEDED[n]!).find(([holds]) => !holds(cfg));
  return gap ? runSkip({ setting: /IDM_\w+/.exec(gap[1])![0] }, `needs ${gap[1]}`) : null;
}

/** No user flow reaches an API held by another tenant than the authentication API's. */
function userFlows(cfg: Config): SkipRecord | null {
  return separateAuthUrl(cfg) === null
    ? null
    : tenantSkip(
        {},
        `not applicable: the authentication API (${cfg.auth.url}) is another server than the tenant holding the resource server`,
      );
}

/** Client credentials of IDM_API_CLIENT_ID (else the management client), with a DPoP proof or a scope. */
export function clientCredentials(o: { dpop?: boolean; scope?: (r: Room) => string } = {}): Ask {
  return {
    send: async (r) => ({ t: await r.tokens.clientCredentials(r.who, { dpop: o.dpop, scope: o.scope?.(r) }) }),
  };
}

/** The mTLS client through the edge with its certificate; its own token for the API shown before the setting. */
export const mtlsClient: Ask = {
  needs: (cfg) => lacking(cfg, 'mtls'),
  ready: async (r) => {
    const before = await r.tokens.clientCredentials({ mtls: r.cfg.auth.mtls!, certificate: true });
    return before.access !== null
      ? null
      : runSkip(
          { setting: 'IDM_MTLS_CLIENT_ID' },
          `the mTLS client obtains no token for the API (${before.ex.status}): give it a grant for ${r.rs.identifier}`,
        );
  },
  send: async (r) => ({ t: await r.tokens.clientCredentials({ mtls: r.cfg.auth.mtls!, certificate: true }) }),
};

/** The mTLS client's certificate, as the binding must name it. */
export const mtlsCertificate = (r: Room): string => readFileSync(r.cfg.auth.mtls!.certFile, 'utf8');

/**
 * A client holding no grant for the API, its credentials shown live so that its refusal says
 * something of the grant alone: the limited client's took a token at the global setup; any other
 * is asked once for a token for the management API.
 */
export const ungrantedClient: Ask = {
  needs: (cfg) => lacking(cfg, 'ungranted'),
  ready: async (r) => {
    const who = r.cfg.ungranted!;
    if (who.id === r.cfg.limited?.id && r.limitedToken) return null;
    const data = {
      grant_type: 'client_credentials',
      client_id: who.id,
      client_secret: who.secret,
      audience: r.cfg.audience,
    };
    const ex = await r.anon.send('POST', r.cfg.tokenUrl, { data, encoding: 'form' });
    return (await r.tokens.answer(ex, `client credentials of ${who.id} for the management API`)).access !== null
      ? null
      : runSkip(
          { setting: 'IDM_UNGRANTED_CLIENT_ID' },
          `the credentials of ${who.id} obtained no token for the management API (IDM_AUDIENCE) either: its refusal would say nothing of the grant`,
        );
  },
  send: async (r) => ({ t: await r.tokens.clientCredentials({ secret: r.cfg.ungranted! }) }),
};

const SCOPE = 'openid offline_access';

/**
 * The test user's grant for the API through the confidential (Post) client: the password grant
 * where the tenant offers it, else the code flow through the hosted login; a password grant that
 * gives no token at the first ask (a tenant that stopped offering it undeclared) gives way to the
 * code flow too, for this test's every grant, so no row leans on a grant the tenant may not have.
 */
export const userGrant: Ask = {
  needs: (cfg) =>
    userFlows(cfg) ??
    lacking(cfg, 'post', 'user') ??
    (cfg.auth.redirectUri === null ? notOfferedSkip(cfg, 'password') : null),
  async send(r) {
    let byCode = r.memo.get('byCode') as boolean | undefined;
    if (byCode !== undefined) return userToken(r, byCode);
    byCode = notOfferedSkip(r.cfg, 'password') !== null;
    let g = await userToken(r, byCode);
    if (!byCode && !('t' in g && g.t.access) && r.cfg.auth.redirectUri !== null)
      g = await userToken(r, (byCode = true));
    r.memo.set('byCode', byCode);
    return g;
  },
};

/**
 * The test user's token for the API by the password grant, or by the code flow (the hosted login
 * in the browser, offline_access asked with prompt=consent, then the exchange with the secret),
 * where an error sent to the redirect URI is the login's own refusal.
 */
async function userToken(r: Room, byCode: boolean): Promise<Asked> {
  const { post, user, redirectUri } = r.cfg.auth;
  const { audience } = r.tokens;
  const [flows, id, secret] = [r.flows!, post!.id, post!.secret];
  if (!byCode) {
    const t = await flows.token({
      grant_type: 'password',
      client_id: id,
      client_secret: secret,
      username: user!.username,
      password: user!.password,
      audience,
      scope: SCOPE,
    });
    return { t: await r.tokens.answer(t.ex, `the password grant of ${id} for ${audience} (scope ${SCOPE})`) };
  }
  const { params, pair } = codeRequest(id, redirectUri!, SCOPE, { audience });
  const out = await flows.authorize(await flows.endpoint('authorize'), params, [redirectUri!]);
  const what = `the code flow of ${id} for ${audience} (scope ${SCOPE})`;
  const code = out.params.code;
  if (!code) return { refusedAtLogin: `${what}: ${out.params.error ?? out.problem ?? out.stoppedAt ?? 'no code'}` };
  const data = { redirect_uri: redirectUri!, client_id: id, client_secret: secret, code_verifier: pair.verifier };
  const t = await flows.token({ grant_type: 'authorization_code', code, ...data });
  return { t: await r.tokens.answer(t.ex, what) };
}

/** A refresh of the token row `id` obtained: its access token follows the settings of this moment. */
export function refreshOf(id: string): Ask {
  return {
    needs: userGrant.needs,
    ready: async (r) =>
      r.token(id)?.refresh
        ? null
        : tenantSkip(
            { clause: 'rs.settings.allow_offline_access' },
            `not judged: the user's grant gave no refresh token (rs.settings.allow_offline_access)`,
          ),
    async send(r) {
      const { id: client, secret } = r.cfg.auth.post!;
      const data = { client_id: client, client_secret: secret, refresh_token: r.token(id)!.refresh };
      const t = await r.flows!.token({ grant_type: 'refresh_token', ...data });
      return { t: await r.tokens.answer(t.ex, `a refresh by ${client} of a token for ${r.tokens.audience}`) };
    },
  };
}

/**
 * §2.1: a token for the API through the implicit flow (the public client, the hosted login), with
 * token_lifetime_for_web as the state of the moment holds it (§2.2 gives no way to write it, and a
 * lower token_lifetime written earlier may have clamped it).
 */
export const implicitFlow: Ask<Lifetime> = {
  needs: (cfg) => userFlows(cfg) ?? notOfferedSkip(cfg, 'implicit') ?? lacking(cfg, 'web'),
  async send(r) {
    const now = await r.rs.read();
    // A fault is no state: mgmt.error.server-fault's, never a resource server without the field.
    const fault = r.gate.faultedFor(now, [], 'PATCH {} reading token_lifetime_for_web');
    if (fault) return { skip: fault };
    const web = (now.body as { token_lifetime_for_web?: unknown } | undefined)?.token_lifetime_for_web;
    if (typeof web !== 'number')
      return { skip: tenantSkip({}, 'not applicable: the resource server shows no token_lifetime_for_web') };
    const { publicClientId: client, redirectUri } = r.cfg.auth;
    const { audience } = r.tokens;
    const params = { response_type: 'token', client_id: client!, redirect_uri: redirectUri!, scope: 'openid' };
    const out = await r.flows!.walk(await r.flows!.endpoint('authorize'), { ...params, state: newState(), audience }, [
      redirectUri!,
    ]);
    const access = out.params.access_token;
    const what = `the implicit flow of ${client} for ${audience}`;
    if (access)
      return { t: { what, read: await r.tokens.readAccess(access), expiresIn: out.params.expires_in, seconds: web } };
    const why =
      out.notDriven ??
      out.problem ??
      `the browser came back without an access token (${out.stoppedAt ?? 'no redirect'})`;
    return {
      skip: out.notDriven
        ? runSkip({ page: out.stoppedAt ?? undefined }, `login not driven: ${why}`)
        : tenantSkip({ answer: 'refused' }, `not judged: the implicit flow for the API gave no token: ${why}`),
    };
  },
};

/** A login's code for the API through the public client's code flow (PKCE; the client authenticates by its ID alone, §5.2). */
interface PublicCode {
  code: string;
  verifier: string;
}

/**
 * The public client's code for the API exchanged without a DPoP proof (RFC 9449 §5), its twin the
 * same login's code exchanged with one — each on a live code (its exchange with the proof after it,
 * else a fresh login's: lib/auth/live-credential.ts). A token issued without the proof fails
 * whatever its twin did, and a fault is the fault clause's.
 */
export const publicCodeWithoutProof: Ask = {
  needs: (cfg) => userFlows(cfg) ?? lacking(cfg, 'public', 'redirect', 'user'),
  async send(r) {
    const { publicClientId: client, redirectUri, tokenUrl } = r.cfg.auth;
    const { audience } = r.tokens;
    let notCode: { problem: string; notDriven: boolean } | null = null;
    const fresh = async (): Promise<PublicCode | null> => {
      const { params, pair, state } = codeRequest(client!, redirectUri!, 'openid', { audience });
      const out = await r.flows!.walk(await r.flows!.endpoint('authorize'), params, [redirectUri!]);
      const code = out.params.state === state ? out.params.code : undefined;
      if (code) return { code, verifier: pair.verifier };
      const why = out.notDriven ?? out.params.error ?? out.problem ?? out.stoppedAt ?? 'no code';
      notCode = { problem: `the code flow of ${client} for ${audience}: ${why}`, notDriven: !!out.notDriven };
      return null;
    };
    const exchange = async (c: PublicCode, dpop: boolean) => {
      const data = { grant_type: 'authorization_code', client_id: client!, code: c.code, redirect_uri: redirectUri! };
      const enc = await r.flows!.encoding();
      const what = `the code of ${client} (a public client) for ${audience} exchanged ${dpop ? 'with' : 'without'} a DPoP proof`;
      return r.tokens.sent(tokenUrl, what, dpop, (headers) =>
        tokenPost(r.anon, enc, r.cfg, { ...data, code_verifier: c.verifier }, { headers }),
      );
    };
    const first = await fresh();
    const live = first
      ? await onLiveCredentials<PublicCode, ApiToken>({
          first,
          fresh,
          genuine: (c) => exchange(c, true),
          attempts: [{ id: 'without', send: (c) => exchange(c, false) }],
        })
      : null;
    const without = live?.answers.get('without');
    if (without && (live?.twinCredential != null || without.ex.answer.class !== 'refused'))
      return { t: without, twin: r.gate.given(ISSUED, true, '') };
    const withProof = live?.twin ?? null;
    const fault = withProof && r.gate.faultedFor(withProof.ex, [], withProof.what);
    if (fault) return { skip: fault };
    const why = notCode as { problem: string; notDriven: boolean } | null;
    return {
      skip: why?.notDriven
        ? runSkip({}, why.problem)
        : tenantSkip(
            { answer: 'refused' },
            `not judged: the public client's code for the API gave no token with a proof beside it (${why?.problem ?? (withProof ? describeAnswer(withProof.ex) : 'no code')})`,
          ),
    };
  },
};
