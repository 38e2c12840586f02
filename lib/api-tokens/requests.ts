// Token requests for the resource server's API (its identifier as the audience): client
// credentials at the token endpoint of the tenant that holds the resource server, with a DPoP
// proof (resent once with the nonce the tenant asks, RFC 9449 §8) or through the mTLS edge; every
// token obtained is masked from then on, and each answer is read once. The user's grants are the
// asks' (lib/api-tokens/asks.ts), read here.
import type { ClientCredentials, Config, MtlsClient } from '../config.ts';
import type { ApiClient, Exchange } from '../http.ts';
import { mtlsHeaders } from '../auth/methods/mtls.ts';
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

export class ApiTokens {
  constructor(
    private readonly cfg: Config,
    private readonly anon: ApiClient,
    /** The API's identifier: the audience of every request here. */
    readonly audience: string,
    private readonly secret: (v: string | null | undefined) => void,
  ) {}

  /** Client credentials for the API at the token endpoint of its tenant (§5.1's, IDM_TOKEN_PATH). */
  async clientCredentials(who: Asker, o: { scope?: string; dpop?: boolean } = {}): Promise<ApiToken> {
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
    return this.sent(this.cfg.tokenUrl, what, o.dpop === true, (headers) =>
      this.anon.send('POST', this.cfg.tokenUrl, { data, encoding: 'form', headers: { ...edge, ...headers } }),
    );
  }

  /**
   * A request with a DPoP proof for `url` where `dpop` (RFC 9449 §4), sent again once with the
   * nonce the tenant asks for (§8: a 400 or 401 use_dpop_nonce carrying DPoP-Nonce), and read.
   */
  async sent(
    url: string,
    what: string,
    dpop: boolean,
    send: (headers: Record<string, string>) => Promise<Exchange>,
  ): Promise<ApiToken> {
    const proof = async (nonce?: string) =>
      dpop ? { dpop: await (await dpopKey()).proof('POST', url, nonce) } : ({} as Record<string, string>);
    let ex = await send(await proof());
    const nonce = ex.headers['dpop-nonce'];
    const asked = dpop && ex.answer.error === 'use_dpop_nonce' && !!nonce;
    if (asked) ex = await send(await proof(nonce));
    return this.answer(ex, what, asked);
  }

  /** An access token met outside a token answer (the implicit flow's fragment), read the same way. */
  async readAccess(token: string): Promise<ReadToken> {
    this.secret(token);
    return readToken(token, (await encryptionKeys()).privateKey);
  }

  /** A token answer read once: its tokens masked from then on. */
  async answer(ex: Exchange, what: string, nonceAsked = false): Promise<ApiToken> {
    const body = isObject(ex.body) ? ex.body : {};
    const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
    const access = ex.answer.accessToken;
    const refresh = access ? str(body.refresh_token) : null;
    this.secret(access);
    this.secret(refresh);
    return {
      ex,
      access,
      refresh,
      tokenType: str(body.token_type),
      read: access ? await this.readAccess(access) : null,
      nonceAsked,
      what,
      audience: this.audience,
    };
  }
}
