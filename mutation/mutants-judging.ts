// The reference tenant as the servers issue 30 was tried on behaved, each killed by its own
// clause alone (item 8): no client-credentials grant on the authentication API (the rest judged
// through the password grant; benign, with neither that nor the password grant, declared, the
// rest judged through the code exchange of real logins), token-endpoint errors that are no OAuth
// error objects, a SAML callback that answers 500, an unreadable authorization request sent to
// the login page, no revocation endpoint (benign when declared in IDM_NOT_OFFERED); and issue 47's
// simulator, whose token answers and error objects both deviate, each failing its own clause. Built from the tenant's named
// parts and HTTP wraps; reference/ is never edited.
import { type ClientConfig, defaultClients, type TenantParts } from '../reference/src/index.ts';
import { isObject } from '../lib/values.ts';
import { htmlRes, isTokenRequest, jsonRes, type Req, type Wrap } from './exchange.ts';
import { compose, mapResponse } from './faults.ts';
import { authErrorRewritten, byManagementClient } from './mutants-auth.ts';
import { EXPIRES_IN_DOUBLED } from './mutants-settings.ts';
import { DEV_AUTH } from './suite.ts';
import { viaParts, viaWrap, type Variant } from './variant.ts';
import { clientCredentials, type ProbeClient } from './probes.ts';

const A = DEV_AUTH;
/** The management clients: they keep client credentials, the Management API's own grant (§5.1). */
const MANAGEMENT_CLIENTS = ['conformance-full', 'conformance-limited'];
const isAuthorize = (r: Req): boolean => r.method === 'GET' && /^\/authorize\/?$/.test(r.path);
const isRevoke = (r: Req): boolean => /^\/oauth\/revoke\/?$/.test(r.path);
const isDiscovery = (r: Req): boolean => r.method === 'GET' && r.path === '/.well-known/openid-configuration';
const isSaml = (r: Req): boolean => r.method === 'POST' && /^\/login\/callback\/?$/.test(r.path);

/** The Post client's client-credentials request, as the authentication API's own client sends it. */
const postClientCredentials = (c: ProbeClient) => clientCredentials(c, 'post', { audience: '/api/v2/' });

/** The revocation endpoint and discovery's word for it: absent from both. */
const NO_REVOCATION: Wrap = compose(
  (next) => async (req) =>
    isRevoke(req) ? jsonRes(404, { error: 'not_found', error_description: 'Not Found' }) : next(req),
  mapResponse(isDiscovery, (res) => {
    if (!isObject(res.body)) return;
    delete res.body.revocation_endpoint;
    delete res.body.revocation_endpoint_auth_methods_supported;
    if (isObject(res.body.mtls_endpoint_aliases)) delete res.body.mtls_endpoint_aliases.revocation_endpoint;
  }),
);

const revocationProbe = async (c: ProbeClient) => {
  const doc = await c.request('GET', '/.well-known/openid-configuration');
  const revoked = await c.request('POST', '/oauth/revoke', {
    body: { client_id: A.IDM_POST_CLIENT_ID, client_secret: A.IDM_POST_CLIENT_SECRET, token: 'unknown' },
  });
  return { listed: isObject(doc.body) && 'revocation_endpoint' in doc.body, status: revoked.status };
};

/** Authentication-API error objects whose code is `code`, not `error`. */
const errorAsCode = authErrorRewritten((b) => {
  b.code = b.error;
  delete b.error;
});

const errorMembers = (s: { body: unknown }) => (isObject(s.body) ? Object.keys(s.body).sort() : null);

export const JUDGING_MUTANTS: Variant[] = [
  {
    id: 'judging-no-client-credentials',
    kind: 'mutant',
    fast: true,
    clause: 'auth.flow.client-credentials',
    grep: ['auth.flow.client-credentials', 'auth.api.post-json', 'auth.method.client-secret-post'],
    fault: 'over-strict',
    description:
      "the authentication API's clients may not use the client-credentials grant (403 unauthorized_client), the password grant instead; the management clients keep it",
    options: viaParts((d: TenantParts) => ({
      authenticateClient: async (input) => {
        const v = await d.authenticateClient(input);
        if (!v.ok || MANAGEMENT_CLIENTS.includes(v.client.clientId)) return v;
        const grants = (v.client.grantTypes ?? ['client_credentials']).filter((g) => g !== 'client_credentials');
        return { ...v, client: { ...v.client, grantTypes: [...new Set([...grants, 'password', 'refresh_token'])] } };
      },
    })),
    probe: async (c) => (await postClientCredentials(c)).status,
  },
  {
    id: 'judging-token-errors-not-oauth',
    kind: 'mutant',
    fast: true,
    clause: 'auth.error.oauth-error',
    fault: 'response-schema',
    description:
      'token-endpoint errors of the authentication API are {"error": {"name", "message", "stack"}}, not OAuth error objects (RFC 6749 §5.2)',
    options: viaWrap(
      mapResponse(
        (r) => isTokenRequest(r) && !byManagementClient(r),
        (res) => {
          if (res.status < 400 || !isObject(res.body) || typeof res.body.error !== 'string') return;
          const name = res.body.error.replace(/(^|_)([a-z])/g, (_m, _u, c: string) => c.toUpperCase());
          const message = String(res.body.error_description ?? res.body.error);
          // The same answer, headers and all (its X-RateLimit-*), with the body in the other shape.
          res.body = {
            error: {
              name: `${name}Error`,
              message,
              stack: `${name}Error: ${message}\n    at token (/srv/oauth.js:1:1)`,
            },
          };
        },
      ),
    ),
    probe: async (c) => {
      const wrong = await clientCredentials(c, 'post', { client_secret: 'not-the-secret', audience: '/api/v2/' });
      return isObject(wrong.body) ? typeof wrong.body.error : null;
    },
  },
  {
    id: 'judging-saml-callback-500',
    kind: 'mutant',
    fast: true,
    // A 5xx is never "the form was read": auth.api.saml-exception is skipped naming the fault, which §7.3 judges.
    clause: 'auth.error.client-fault-4xx',
    grep: ['auth.api.saml-exception'],
    fault: 'wrong-status',
    description: 'the SAML callback crashes on every POST: 500 with an HTML error page',
    options: viaWrap(
      (next) => async (req) =>
        isSaml(req) ? htmlRes(500, '<!doctype html><title>Internal Server Error</title><h1>500</h1>') : next(req),
    ),
    probe: async (c) =>
      (
        await c.request('POST', '/login/callback', {
          query: { connection: A.IDM_SAML_CONNECTION },
          body: { SAMLResponse: 'bm90LXNhbWw=' },
          form: true,
        })
      ).status,
  },
  {
    id: 'judging-authorize-bare-to-login',
    kind: 'mutant',
    fast: true,
    clause: 'auth.api.get-query',
    fault: 'path-handling',
    description:
      'GET /authorize without any parameter is redirected (302) to /login, a login page of the public client: not a refusal',
    options: viaWrap((next) => async (req) => {
      if (isAuthorize(req) && req.query === '')
        return { status: 302, headers: { location: '/login' }, body: undefined };
      if (req.method !== 'GET' || !/^\/login\/?$/.test(req.path)) return next(req);
      const query = new URLSearchParams({
        response_type: 'code',
        client_id: A.IDM_PUBLIC_CLIENT_ID,
        redirect_uri: A.IDM_REDIRECT_URI,
        scope: 'openid',
        code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
        code_challenge_method: 'S256',
      }).toString();
      return next({ ...req, path: '/authorize', query, raw: { ...req.raw, url: `/authorize?${query}` } });
    }),
    probe: async (c) => {
      const bare = await c.request('GET', '/authorize');
      return { status: bare.status, location: bare.headers.location ?? null };
    },
  },
  {
    id: 'judging-no-revocation',
    kind: 'mutant',
    fast: true,
    clause: 'auth.flow.revoke',
    fault: 'path-handling',
    description:
      'no revocation endpoint (404) and none in discovery, not declared in IDM_NOT_OFFERED: its own clause fails once, naming IDM_REVOKE_PATH and IDM_NOT_OFFERED',
    options: viaWrap(NO_REVOCATION),
    probe: revocationProbe,
  },
  {
    // Issue 47, item 3: a rule judged on every answer of its kind fails on its own and hides no other.
    id: 'judging-expires-in-and-error-as-code',
    kind: 'mutant',
    fast: true,
    clause: 'auth.error.oauth-error',
    grep: ['ratelimit.login-attempts'],
    fault: 'response-schema',
    description:
      "as a simulator of the service: every token answer states expires_in twice its access token's lifetime (auth.token.expires-in too), and authentication-API error objects name their error under `code`, without the `error` member RFC 6749 §5.2 asks",
    options: (ctx) => ({ ...viaWrap(EXPIRES_IN_DOUBLED)(), ...errorAsCode(ctx) }),
    probe: async (c) => [
      (await postClientCredentials(c)).body.expires_in,
      errorMembers(await clientCredentials(c, 'post', { client_secret: 'not-the-secret', audience: '/api/v2/' })),
    ],
  },
];

/**
 * The authentication API's confidential clients with neither client credentials nor the password
 * grant: the code flow only, each at the registered redirect URI (the management clients keep
 * theirs; the public client is left as it is).
 */
const codeFlowOnly = (): ClientConfig[] =>
  defaultClients().map((c) =>
    MANAGEMENT_CLIENTS.includes(c.clientId) || c.tokenEndpointAuthMethod === 'none'
      ? c
      : {
          ...c,
          grantTypes: ['authorization_code', 'refresh_token'],
          redirectUris: [...new Set([...(c.redirectUris ?? []), A.IDM_REDIRECT_URI])],
        },
  );

export const JUDGING_BENIGN: Variant[] = [
  {
    id: 'judging-code-flow-only-declared',
    kind: 'benign',
    clause: null,
    grep: [
      'auth.flow.client-credentials',
      'auth.api.post-json',
      'auth.method.client-secret-post',
      'auth.method.client-secret-basic',
      'auth.method.client-assertion',
      'auth.method.mtls',
    ],
    fault: 'spec-silent',
    description:
      "the authentication API's confidential clients offer neither client credentials nor the password grant, only the code flow, declared with IDM_NOT_OFFERED=client-credentials,password: the encoding and the ways to authenticate are judged through the code exchange of real logins",
    env: { IDM_NOT_OFFERED: 'client-credentials,password' },
    options: () => ({ clients: codeFlowOnly() }),
    probe: async (c) => ({
      clientCredentials: (await postClientCredentials(c)).status,
      password: (
        await c.request('POST', '/oauth/token', {
          body: {
            grant_type: 'password',
            client_id: A.IDM_POST_CLIENT_ID,
            client_secret: A.IDM_POST_CLIENT_SECRET,
            username: A.IDM_TEST_USERNAME,
            password: A.IDM_TEST_PASSWORD,
            scope: 'openid',
          },
        })
      ).status,
    }),
  },
  {
    id: 'judging-no-revocation-declared',
    kind: 'benign',
    fast: true,
    clause: null,
    grep: ['auth.flow.revoke'],
    fault: 'spec-silent',
    description: 'no revocation endpoint, declared with IDM_NOT_OFFERED=revoke: the tenant does not offer the flow',
    env: { IDM_NOT_OFFERED: 'revoke' },
    options: viaWrap(NO_REVOCATION),
    probe: revocationProbe,
  },
];
