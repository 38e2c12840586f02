// The tokens a settings row asks for (lib/api-tokens/rows.ts): who asks, by which grant, and what
// each needs — of the run's configuration (the run's record where it lacks it), and of the tenant
// before the row writes (a precondition it must show first). The user's asks go through the
// authentication API: where that is another server than the tenant holding the resource server, no
// user flow reaches the API and they are not applicable.
import { readFileSync } from 'node:fs';
import type { Config } from '../config.ts';
import { notOfferedSkip, separateAuthUrl } from '../config.ts';
import { classify } from '../answer-class.ts';
import { describeAnswer } from '../answer-words.ts';
import { newState } from '../auth/pkce.ts';
import { onLiveCredentials } from '../auth/live-credential.ts';
import { runSkip, tenantSkip, type SkipRecord } from '../skip-record.ts';
import type { Twin } from '../twin-gate.ts';
import type { Lifetime } from './conditions.ts';
import type { ApiToken, PublicCode, UserGrant } from './requests.ts';
import { ISSUED, type Room } from './room.ts';

export interface Ask<T = ApiToken> {
  /** What the run's configuration must hold: the run's record where it does not. */
  needs?(cfg: Config): SkipRecord | null;
  /** What the tenant must show before the row writes (a request of its own), or why not. */
  ready?(r: Room): Promise<SkipRecord | null>;
  send(r: Room): Promise<Asked<T>>;
}

/** A token answer (with its own twin where the ask makes one), a refusal at the login itself, or nothing to judge. */
export type Asked<T = ApiToken> = { t: T; twin?: Twin } | { refusedAtLogin: string } | { skip: SkipRecord };

/** Client credentials of IDM_API_CLIENT_ID (else the management client), with a DPoP proof or a scope. */
export function clientCredentials(o: { dpop?: boolean; scope?: (r: Room) => string } = {}): Ask {
  return {
    send: async (r) => ({ t: await r.tokens.clientCredentials(r.who, { dpop: o.dpop, scope: o.scope?.(r) }) }),
  };
}

/** The mTLS client through the edge with its certificate; its own token for the API shown before the setting. */
export const mtlsClient: Ask = {
  needs: (cfg) =>
    cfg.auth.mtls
      ? null
      : runSkip(
          { setting: 'IDM_MTLS_CLIENT_ID' },
          'needs an mTLS client behind the edge: set IDM_MTLS_CLIENT_ID, IDM_MTLS_API_KEY and IDM_MTLS_CERT_FILE',
        ),
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

/** A client holding no grant for the API, its credentials shown live: its refusal says something of the grant alone. */
export const ungrantedClient: Ask = {
  needs: (cfg) =>
    cfg.ungranted
      ? null
      : runSkip(
          { setting: 'IDM_UNGRANTED_CLIENT_ID' },
          'needs a client holding no grant for the API: set IDM_UNGRANTED_CLIENT_ID and IDM_UNGRANTED_CLIENT_SECRET',
        ),
  ready: async (r) =>
    (await r.tokens.credentialsLive(r.cfg.ungranted!, r.limitedToken))
      ? null
      : runSkip(
          { setting: 'IDM_UNGRANTED_CLIENT_ID' },
          `the credentials of ${r.cfg.ungranted!.id} obtained no token for the management API (IDM_AUDIENCE) either: its refusal would say nothing of the grant`,
        ),
  send: async (r) => ({ t: await r.tokens.clientCredentials({ secret: r.cfg.ungranted! }) }),
};

const SCOPE = 'openid offline_access';

/** No user flow reaches an API held by another tenant than the authentication API's. */
function userFlows(cfg: Config): SkipRecord | null {
  const other = separateAuthUrl(cfg);
  return other === null
    ? null
    : tenantSkip(
        {},
        `not applicable: the authentication API (${cfg.auth.url}) is another server than the tenant holding the resource server`,
      );
}

function userGrantNeeds(cfg: Config): SkipRecord | null {
  if (!cfg.auth.post)
    return runSkip(
      { setting: 'IDM_POST_CLIENT_ID' },
      'needs a confidential client: set IDM_POST_CLIENT_ID and IDM_POST_CLIENT_SECRET',
    );
  if (!cfg.auth.user)
    return runSkip({ setting: 'IDM_TEST_USERNAME' }, 'needs a test user: set IDM_TEST_USERNAME and IDM_TEST_PASSWORD');
  return cfg.auth.redirectUri === null ? notOfferedSkip(cfg, 'password') : null;
}

/**
 * The test user's grant for the API through the confidential (Post) client: the password grant
 * where the tenant offers it, else the code flow through the hosted login; a password grant that
 * gives no token at the first ask (a tenant that stopped offering it undeclared) gives way to the
 * code flow too, for this test's every grant, so no row leans on a grant the tenant may not have.
 */
export const userGrant: Ask = {
  needs: (cfg) => userFlows(cfg) ?? userGrantNeeds(cfg),
  async send(r) {
    const post = r.cfg.auth.post!;
    const grant = async (byCode: boolean): Promise<UserGrant> =>
      byCode
        ? r.tokens.codeFlow(r.flows!, post, SCOPE)
        : { t: await r.tokens.password(r.flows!, post, SCOPE), refusedAtLogin: null };
    let byCode = r.memo.get('byCode') as boolean | undefined;
    let g: UserGrant;
    if (byCode === undefined) {
      byCode = notOfferedSkip(r.cfg, 'password') !== null;
      g = await grant(byCode);
      if (!byCode && !g.t?.access && r.cfg.auth.redirectUri !== null) g = await grant((byCode = true));
      r.memo.set('byCode', byCode);
    } else g = await grant(byCode);
    return g.t ? { t: g.t } : { refusedAtLogin: g.refusedAtLogin ?? '' };
  },
};

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
    send: async (r) => ({ t: await r.tokens.refresh(r.flows!, r.cfg.auth.post!, r.token(id)!.refresh!) }),
  };
}

/**
 * §2.1: a token for the API through the implicit flow (the public client, the hosted login), with
 * token_lifetime_for_web as the state of the moment holds it (§2.2 gives no way to write it, and a
 * lower token_lifetime written earlier may have clamped it).
 */
export const implicitFlow: Ask<Lifetime> = {
  needs: (cfg) =>
    userFlows(cfg) ??
    notOfferedSkip(cfg, 'implicit') ??
    (cfg.auth.publicClientId && cfg.auth.redirectUri
      ? null
      : runSkip(
          { setting: 'IDM_PUBLIC_CLIENT_ID' },
          'needs a public client and its redirect URI: set IDM_PUBLIC_CLIENT_ID and IDM_REDIRECT_URI',
        )),
  async send(r) {
    const now = await r.rs.read();
    // A fault is no state: mgmt.error.server-fault's, never a resource server without the field.
    const fault = r.gate.faultedFor(now, [], 'PATCH {} reading token_lifetime_for_web');
    if (fault) return { skip: fault };
    const web = (now.body as { token_lifetime_for_web?: unknown } | undefined)?.token_lifetime_for_web;
    if (typeof web !== 'number')
      return { skip: tenantSkip({}, 'not applicable: the resource server shows no token_lifetime_for_web') };
    const { publicClientId: client, redirectUri } = r.cfg.auth;
    const out = await r.flows!.walk(
      await r.flows!.endpoint('authorize'),
      {
        response_type: 'token',
        client_id: client!,
        redirect_uri: redirectUri!,
        scope: 'openid',
        state: newState(),
        audience: r.tokens.audience,
      },
      [redirectUri!],
    );
    const access = out.params.access_token;
    const what = `the implicit flow of ${client} for ${r.tokens.audience}`;
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

/**
 * The public client's code for the API exchanged without a DPoP proof (RFC 9449 §5), its twin the
 * same login's code exchanged with one — each on a live code (its exchange with the proof after it,
 * else a fresh login's: lib/auth/live-credential.ts). A token issued without the proof fails
 * whatever its twin did, and a fault is the fault clause's.
 */
export const publicCodeWithoutProof: Ask = {
  needs: (cfg) =>
    userFlows(cfg) ??
    (!cfg.auth.publicClientId
      ? runSkip(
          { setting: 'IDM_PUBLIC_CLIENT_ID' },
          'needs a public client for its code flow: set IDM_PUBLIC_CLIENT_ID',
        )
      : !cfg.auth.redirectUri
        ? runSkip({ setting: 'IDM_REDIRECT_URI' }, 'needs the redirect URI of the public client: set IDM_REDIRECT_URI')
        : !cfg.auth.user
          ? runSkip({ setting: 'IDM_TEST_USERNAME' }, 'needs a test user: set IDM_TEST_USERNAME and IDM_TEST_PASSWORD')
          : null),
  async send(r) {
    let notCode: { problem: string; notDriven: boolean } | null = null;
    const fresh = async (): Promise<PublicCode | null> => {
      const c = await r.tokens.publicCode(r.flows!, r.cfg.auth.publicClientId!);
      if ('code' in c) return c;
      notCode = c;
      return null;
    };
    const first = await fresh();
    const live = first
      ? await onLiveCredentials<PublicCode, ApiToken>({
          first,
          fresh,
          genuine: (c) => r.tokens.exchangePublic(r.flows!, c, { dpop: true }),
          attempts: [{ id: 'without', send: (c) => r.tokens.exchangePublic(r.flows!, c, { dpop: false }) }],
        })
      : null;
    const without = live?.answers.get('without');
    if (without && (live?.twinCredential != null || classify(without.ex).class !== 'refused'))
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
