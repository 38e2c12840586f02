// Token requests for the resource server's API (its identifier as the audience): client
// credentials at the token endpoint of the tenant that holds the resource server, with a DPoP
// proof or through the mTLS edge where a row asks; a user's grant and its refresh through the
// authentication API. Every token obtained is masked from then on; each answer is read once.
import type { ClientCredentials, Config, MtlsClient } from '../config.ts';
import type { ApiClient, Exchange } from '../http.ts';
import type { Flows } from '../auth/flow-types.ts';
import { mtlsHeaders } from '../auth/methods/mtls.ts';
import { tokenPost } from '../auth/encoding.ts';
import { codeRequest } from '../auth/pkce.ts';
import { isObject } from '../values.ts';
import { dpopKey } from './dpop.ts';
import { encryptionKeys } from './keys.ts';
import { readToken, type ReadToken } from './read.ts';

export interface ApiToken {
  ex: Exchange;
  access: string | null;
  refresh: string | null;
  tokenType: string | null;
  /** The access token as read (decrypted where it was encrypted to the run's key); null without one. */
  read: ReadToken | null;
  /** The tenant asked for a server nonce first (RFC 9449 §8) and the proof was sent again with it. */
  nonceAsked: boolean;
  /** What was asked, in a few words, for messages. */
  what: string;
  /** The audience asked for: the API's identifier. */
  audience: string;
}

/** Who asks: a client with its secret, or the mTLS client through the edge (§5.2). */
export type Asker = { secret: ClientCredentials } | { mtls: MtlsClient; certificate: boolean };

export interface AskOptions {
  scope?: string;
  /** Send a DPoP proof (RFC 9449 §4). */
  dpop?: boolean;
}

/** A public client's code for the API (PKCE), to be exchanged with or without a DPoP proof. */
export interface PublicCode {
  clientId: string;
  code: string;
  verifier: string;
}

/** A user's grant for the API: its token answer, or where the login itself refused it. */
export interface UserGrant {
  t: ApiToken | null;
  /** The login sent the browser back without a code (the tenant's refusal, one line), or null. */
  refusedAtLogin: string | null;
}

export class ApiTokens {
  constructor(
    private readonly cfg: Config,
    private readonly anon: ApiClient,
    /** The API's identifier: the audience of every request here. */
    readonly audience: string,
    private readonly secret: (v: string | null | undefined) => void,
  ) {}

  /** Client credentials for the API at the token endpoint of its tenant (§5.1's, IDM_TOKEN_PATH). */
  async clientCredentials(who: Asker, o: AskOptions = {}): Promise<ApiToken> {
    const url = this.cfg.tokenUrl;
    const id = 'secret' in who ? who.secret.id : who.mtls.id;
    const data = {
      grant_type: 'client_credentials',
      client_id: id,
      ...('secret' in who ? { client_secret: who.secret.secret } : {}),
      audience: this.audience,
      ...(o.scope ? { scope: o.scope } : {}),
    };
    const edge = 'mtls' in who ? mtlsHeaders(who.mtls, who.certificate ? {} : { certFile: null }) : {};
    const what = `client credentials of ${id} for ${this.audience}${o.scope ? ` (scope ${o.scope})` : ''}${o.dpop ? ' with a DPoP proof' : ''}${'mtls' in who ? (who.certificate ? ' through the edge with its certificate' : ' through the edge without a certificate') : ''}`;
    const send = async (nonce?: string) =>
      this.anon.send('POST', url, {
        data,
        encoding: 'form',
        headers: { ...edge, ...(o.dpop ? { dpop: await (await dpopKey()).proof('POST', url, nonce) } : {}) },
      });
    let ex = await send();
    const nonce = o.dpop ? nonceAsked(ex) : null;
    if (nonce) ex = await send(nonce);
    return this.answer(ex, what, nonce !== null);
  }

  /**
   * The test user's token for the API through the password grant of the confidential (Post)
   * client, at the authentication API (flows.token masks it and holds it to the token answer).
   */
  async password(flows: Flows, client: ClientCredentials, scope: string): Promise<ApiToken> {
    const user = this.cfg.auth.user!;
    const t = await flows.token({
      grant_type: 'password',
      client_id: client.id,
      client_secret: client.secret,
      username: user.username,
      password: user.password,
      audience: this.audience,
      scope,
    });
    return this.answer(t.ex, `the password grant of ${client.id} for ${this.audience} (scope ${scope})`, false);
  }

  /**
   * The test user's token for the API through the code flow of the confidential (Post) client:
   * the hosted login in the browser (offline_access asked with prompt=consent), then the exchange
   * with its secret. A refusal at the login (an error sent to the redirect URI) is `refusedAtLogin`.
   */
  async codeFlow(flows: Flows, client: ClientCredentials, scope: string): Promise<UserGrant> {
    const redirectUri = this.cfg.auth.redirectUri!;
    const { params, pair } = codeRequest(client.id, redirectUri, scope, { audience: this.audience });
    const out = await flows.authorize(await flows.endpoint('authorize'), params, [redirectUri]);
    const what = `the code flow of ${client.id} for ${this.audience} (scope ${scope})`;
    const code = out.params.code;
    if (!code)
      return { t: null, refusedAtLogin: `${what}: ${out.params.error ?? out.problem ?? out.stoppedAt ?? 'no code'}` };
    const t = await flows.token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: client.id,
      client_secret: client.secret,
      code_verifier: pair.verifier,
    });
    return { t: await this.answer(t.ex, what, false), refusedAtLogin: null };
  }

  /**
   * The test user's code for the API through the public client's code flow (PKCE; the client
   * authenticates by its ID alone, §5.2), or why the login gave none — `notDriven` where the page
   * was the suite's to drive and it could not (never the tenant's).
   */
  async publicCode(flows: Flows, clientId: string): Promise<PublicCode | { problem: string; notDriven: boolean }> {
    const redirectUri = this.cfg.auth.redirectUri!;
    const { params, pair, state } = codeRequest(clientId, redirectUri, 'openid', { audience: this.audience });
    const out = await flows.walk(await flows.endpoint('authorize'), params, [redirectUri]);
    const code = out.params.state === state ? out.params.code : undefined;
    if (code) return { clientId, code, verifier: pair.verifier };
    const why = out.notDriven ?? out.params.error ?? out.problem ?? out.stoppedAt ?? 'no code';
    return { problem: `the code flow of ${clientId} for ${this.audience}: ${why}`, notDriven: !!out.notDriven };
  }

  /** A public client's code exchanged for the API, with a DPoP proof (RFC 9449 §4) or without one. */
  async exchangePublic(flows: Flows, c: PublicCode, o: { dpop: boolean }): Promise<ApiToken> {
    const url = this.cfg.auth.tokenUrl;
    const data = {
      grant_type: 'authorization_code',
      client_id: c.clientId,
      code: c.code,
      redirect_uri: this.cfg.auth.redirectUri!,
      code_verifier: c.verifier,
    };
    const enc = await flows.encoding();
    const send = async (nonce?: string) =>
      tokenPost(this.anon, enc, this.cfg, data, {
        headers: o.dpop ? { dpop: await (await dpopKey()).proof('POST', url, nonce) } : {},
      });
    let ex = await send();
    const nonce = o.dpop ? nonceAsked(ex) : null;
    if (nonce) ex = await send(nonce);
    const what = `the code of ${c.clientId} (a public client) for ${this.audience} exchanged ${o.dpop ? 'with' : 'without'} a DPoP proof`;
    return this.answer(ex, what, nonce !== null);
  }

  /** A refresh of a token for the API: the new access token follows the settings of this moment. */
  async refresh(flows: Flows, client: ClientCredentials, refreshToken: string): Promise<ApiToken> {
    const t = await flows.token({
      grant_type: 'refresh_token',
      client_id: client.id,
      client_secret: client.secret,
      refresh_token: refreshToken,
    });
    return this.answer(t.ex, `a refresh by ${client.id} of a token for ${this.audience}`, false);
  }

  /**
   * Whether a client's credentials are live, so that a refusal of its token for the API says
   * something of the API's setting and nothing of its secret: the limited client's took a token at
   * the global setup (`limitedToken`); any other is asked once for a token for the management API.
   */
  async credentialsLive(who: ClientCredentials, limitedToken: string | null): Promise<boolean> {
    if (who.id === this.cfg.limited?.id && limitedToken) return true;
    const ex = await this.anon.send('POST', this.cfg.tokenUrl, {
      data: {
        grant_type: 'client_credentials',
        client_id: who.id,
        client_secret: who.secret,
        audience: this.cfg.audience,
      },
      encoding: 'form',
    });
    return (await this.answer(ex, `client credentials of ${who.id} for the management API`, false)).access !== null;
  }

  /** An access token met outside a token answer (the implicit flow's fragment), read the same way. */
  async readAccess(token: string): Promise<ReadToken> {
    this.secret(token);
    return readToken(token, (await encryptionKeys()).privateKey);
  }

  private async answer(ex: Exchange, what: string, asked: boolean): Promise<ApiToken> {
    const body = isObject(ex.body) ? ex.body : {};
    const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
    const access = ex.status >= 200 && ex.status < 300 ? str(body.access_token) : null;
    const refresh = ex.status >= 200 && ex.status < 300 ? str(body.refresh_token) : null;
    this.secret(access);
    this.secret(refresh);
    return {
      ex,
      access,
      refresh,
      tokenType: str(body.token_type),
      read: access ? await readToken(access, (await encryptionKeys()).privateKey) : null,
      nonceAsked: asked,
      what,
      audience: this.audience,
    };
  }
}

// Helpers

/** RFC 9449 §8: a 400 (or 401) use_dpop_nonce carrying the nonce to use in a DPoP-Nonce header. */
function nonceAsked(ex: Exchange): string | null {
  const error = isObject(ex.body) ? ex.body.error : undefined;
  const nonce = ex.headers['dpop-nonce'];
  return (ex.status === 400 || ex.status === 401) && error === 'use_dpop_nonce' && nonce ? nonce : null;
}
