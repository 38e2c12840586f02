// The ways to authenticate of §5.2, one row each: its clauses, the settings that configure it,
// how a client of it authenticates a request, and its named faults — each a wrong variant the
// tenant must refuse. The rows drive the methods spec (specs/authentication/methods/
// client-authentication.spec.ts: one test per method and fault), the §5.2 line of the report
// (reporters/auth-methods.ts) and the OpenAPI security schemes. Adding a method is a row here,
// its clauses and settings, and the reference tenant's side.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Config, MtlsClient } from '../config.ts';
import type { NamedFlow } from '../settings/declarations.ts';
import type { Exchange } from '../http.ts';
import {
  ASSERTION_FAULTS,
  assertionBody,
  basicAuthorization,
  clientAssertion,
  FOREIGN_CERT_FILE,
  mtlsHeaders,
  needsFormEncoding,
  type AssertionFault,
  type EdgeHeaders,
} from './target.ts';
import { probeAnswer, type AuthEncoding } from './encoding.ts';
import { sameNamesFreshKey } from './near-certificate.ts';
import { issued } from './acceptance.ts';
import type { Checks } from '../checks.ts';

/** One way to authenticate as the report and the OpenAPI document name it. */
export interface AuthMethod {
  name: string;
  /** The clause of the accepted case; the method's other clauses start with it. */
  clause: string;
}

/** What a client of a method sends: the body and the headers that authenticate it. */
export interface MethodRequest {
  data: Record<string, unknown>;
  headers: Record<string, string>;
  /** The assertion's jti, when the method signs one (its replay is recorded). */
  jti?: string;
}

/** A configured client of a method, as the method authenticates it. */
export interface MethodClient {
  id: string;
  /** The mTLS client, for the headers the edge forwards. */
  mtls?: MtlsClient;
  secret?: string;
}

export interface MethodFault {
  id: string;
  /** "a wrong client secret": what is wrong, for the test title and the evidence. */
  what: string;
  /** The clause the refusal is judged under, when not the method's refusal clause. */
  clause?: string;
  /** Which clients it is sent for (default: every configured client of the method). */
  for?(c: MethodClient, cfg: Config): boolean;
  /** Why it is not sent at all, when the configuration leaves it out (null: it is sent). */
  unset?(cfg: Config): string | null;
}

/** A way to authenticate at the token endpoint (the client-credentials grant). */
export interface TokenMethod extends AuthMethod {
  /** Its value in IDM_NOT_OFFERED. */
  id: NamedFlow;
  /** The clause the faults' refusals are judged under. */
  refusedClause: string;
  /** More clauses the accepted case records (the form-encoded Basic header, the assertion's replay). */
  acceptClauses: readonly string[];
  /** The skip reason when no client of it is configured: the settings to set. */
  needs: string;
  clients(cfg: Config): MethodClient[];
  request(cfg: Config, c: MethodClient, fault?: string): Promise<MethodRequest>;
  faults: readonly MethodFault[];
  /** The answer the encoding probe got to this very request (lib/auth/encoding.ts), not sent again. */
  known?(enc: AuthEncoding, c: MethodClient): Exchange | null;
  /** How the accepted case is described in its evidence. */
  describe(cfg: Config, c: MethodClient): string;
  /** What the accepted case also records, beside its answer. */
  besides?(o: {
    cfg: Config;
    check: Checks;
    enc: AuthEncoding;
    c: MethodClient;
    req: MethodRequest;
    ex: Exchange;
    send(r: MethodRequest): Promise<Exchange>;
  }): Promise<void>;
}

const cc = (cfg: Config): Record<string, unknown> => ({ grant_type: 'client_credentials', audience: cfg.audience });

/** A confidential client sending its client ID alone (§5.2: that way is for public applications). */
const ID_ALONE: MethodFault = {
  id: 'id-alone',
  what: 'its client ID alone (a confidential client)',
  clause: 'auth.method.client-id-only.confidential-refused',
};

const POST: TokenMethod = {
  id: 'client-secret-post',
  name: 'Client ID and secret, Post',
  clause: 'auth.method.client-secret-post',
  refusedClause: 'auth.method.client-secret-post',
  acceptClauses: [],
  needs: 'needs a client_secret_post client: set IDM_POST_CLIENT_ID and IDM_POST_CLIENT_SECRET',
  clients: (cfg) => (cfg.auth.post ? [{ id: cfg.auth.post.id, secret: cfg.auth.post.secret }] : []),
  async request(cfg, c, fault) {
    if (fault === ID_ALONE.id) return { data: { ...cc(cfg), client_id: c.id }, headers: {} };
    const secret = fault === 'wrong-secret' ? `${c.secret}-wrong` : c.secret;
    return { data: { ...cc(cfg), client_id: c.id, client_secret: secret }, headers: {} };
  },
  faults: [{ id: 'wrong-secret', what: 'a wrong client secret' }, ID_ALONE],
  known: (enc) => probeAnswer(enc),
  describe: () => 'client_id and client_secret in the body',
};

const BASIC: TokenMethod = {
  id: 'client-secret-basic',
  name: 'Client ID and secret, Basic',
  clause: 'auth.method.client-secret-basic',
  refusedClause: 'auth.method.client-secret-basic',
  acceptClauses: ['auth.method.client-secret-basic.form-encoded'],
  needs: 'needs a client_secret_basic client: set IDM_BASIC_CLIENT_ID and IDM_BASIC_CLIENT_SECRET',
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
    if (!needsFormEncoding(c.id) && !needsFormEncoding(c.secret ?? '')) return;
    const ok = issued(ex);
    check.that(
      'auth.method.client-secret-basic.form-encoded',
      ok,
      `a Basic header with the form-encoded id and secret (RFC 6749 §2.3.1) ${ok ? `answered ${ex.status} with a token` : `answered ${ex.status}`}${enc.note}`,
      ex,
    );
  },
};

const ASSERTION: TokenMethod = {
  id: 'client-assertion',
  name: 'Client ID and client assertion',
  clause: 'auth.method.client-assertion',
  refusedClause: 'auth.method.client-assertion.refused',
  acceptClauses: ['auth.method.client-assertion.replay', 'auth.method.param-names'],
  needs: 'needs a private_key_jwt client: set IDM_PKJWT_CLIENT_ID and IDM_PKJWT_KEY_FILE',
  clients: (cfg) => (cfg.auth.pkjwt ? [{ id: cfg.auth.pkjwt.id }] : []),
  async request(cfg, _c, fault, jti = randomUUID()) {
    const assertion = await clientAssertion(cfg, fault as AssertionFault | undefined, jti);
    return { data: assertionBody(cfg, assertion), headers: {}, jti };
  },
  faults: (Object.entries(ASSERTION_FAULTS) as Array<[AssertionFault, string]>).map(([id, what]) => ({
    id,
    what: `a client assertion ${what}`,
  })),
  describe: (cfg) =>
    `a signed client assertion (aud ${cfg.auth.assertionAudience}, ${cfg.auth.targetsFrom.assertionAudience})`,
  async besides({ cfg, check, enc, req, ex, send }) {
    check.observe(
      'auth.method.param-names',
      `client_id, client_assertion_type and client_assertion in a ${enc.encoding === 'json' ? 'JSON' : 'form'} body answered ${ex.status}`,
    );
    if (!issued(ex)) return;
    // Whether a used jti may be used again is left open (RFC 7523 §3 lets the server refuse it).
    const again = await send(await replayOf(cfg, req));
    check.observe(
      'auth.method.client-assertion.replay',
      `a second assertion with the same jti answered ${again.status}${issued(again) ? ' with a token (replay accepted)' : ''}`,
      again,
    );
  },
};

const MTLS: TokenMethod = {
  id: 'mtls',
  name: 'mTLS through the edge',
  clause: 'auth.method.mtls',
  refusedClause: 'auth.method.mtls.refused',
  acceptClauses: [],
  needs:
    'needs an mTLS client: set IDM_MTLS_CLIENT_ID, IDM_MTLS_API_KEY and IDM_MTLS_CERT_FILE (and IDM_MTLS_CA_CLIENT_ID, IDM_MTLS_CA_CERT_FILE for CA verification)',
  clients: (cfg) =>
    [cfg.auth.mtls, cfg.auth.mtlsCa].filter((m): m is MtlsClient => m !== null).map((m) => ({ id: m.id, mtls: m })),
  async request(cfg, c, fault) {
    const m = c.mtls as MtlsClient;
    const edge: Record<string, EdgeHeaders> = {
      'wrong-api-key': { apiKey: `${m.apiKey}-wrong` },
      'no-api-key': { apiKey: null },
      'no-certificate': { certFile: null },
      'another-certificate': { certFile: FOREIGN_CERT_FILE },
      // Same subject and issuer, another key: only the binding to the key tells it from the registered one.
      'fresh-key': { certPem: fault === 'fresh-key' ? sameNamesFreshKey(readFileSync(m.certFile, 'utf8')).pem : '' },
      'ca-failed': { verified: 'FAILED: unable to get local issuer certificate' },
      'ca-missing': { verified: null },
    };
    return {
      data: { ...cc(cfg), client_id: c.id },
      headers: mtlsHeaders(m, fault === undefined ? {} : (edge[fault] ?? {})),
    };
  },
  faults: [
    { id: 'wrong-api-key', what: 'a wrong cname-api-key' },
    { id: 'no-api-key', what: 'no cname-api-key' },
    { id: 'no-certificate', what: 'no client-certificate' },
    { id: 'another-certificate', what: 'another certificate' },
    {
      id: 'fresh-key',
      what: 'a certificate with the registered subject and issuer over a freshly generated key',
      clause: 'auth.method.mtls.key-bound',
      for: (c, cfg) => c.id === cfg.auth.mtls?.id,
      unset: (cfg) =>
        cfg.auth.mtls
          ? null
          : 'needs the self-signed mTLS client: set IDM_MTLS_CLIENT_ID, IDM_MTLS_API_KEY and IDM_MTLS_CERT_FILE',
    },
    {
      id: 'ca-failed',
      what: 'client-certificate-ca-verified FAILED',
      for: (c, cfg) => c.id === cfg.auth.mtlsCa?.id,
    },
    { id: 'ca-missing', what: 'no client-certificate-ca-verified', for: (c, cfg) => c.id === cfg.auth.mtlsCa?.id },
  ],
  describe: (_cfg, c) => `${c.id} with the registered certificate, its API key and SUCCESS`,
};

/** The ways to authenticate at the token endpoint, in the order §5.2 lists them. */
export const TOKEN_METHODS: readonly TokenMethod[] = [POST, BASIC, ASSERTION, MTLS];

/** Every way of §5.2, as the report lists them (the two that authenticate elsewhere included). */
export const AUTH_METHODS: readonly AuthMethod[] = [
  POST,
  BASIC,
  ASSERTION,
  { name: 'Client ID only (public application)', clause: 'auth.method.client-id-only' },
  MTLS,
  { name: 'OAuth2 access token (Bearer)', clause: 'auth.method.bearer' },
];

// Helpers

/** The same assertion request again, with the accepted one's jti. */
function replayOf(cfg: Config, req: MethodRequest): Promise<MethodRequest> {
  return (ASSERTION.request as (cfg: Config, c: MethodClient, f?: string, jti?: string) => Promise<MethodRequest>)(
    cfg,
    { id: '' },
    undefined,
    req.jti,
  );
}
