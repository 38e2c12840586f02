// Faulty and benign variants of the authentication API (§4.3, §5.2, §7.3, §8), built from the
// reference tenant's named parts (authenticateClient, verifyClientAssertion, checkMtlsEdge,
// loginLimiter, authError, jtiCache) or an HTTP wrap; reference/ itself is never edited. Each
// mutant carries its probe: a few requests whose answers differ from the reference tenant's.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SignJWT, UnsecuredJWT, decodeJwt, generateKeyPair, importPKCS8 } from 'jose';
import type { ClientAuthInput, LoginLimiter, TenantParts, TenantResponse } from '../reference/src/index.ts';
import { jsonRes, type Req } from './exchange.ts';
import { isObject } from '../lib/values.ts';
import { compose, mapResponse } from './faults.ts';
import type { ProbeClient, Seen } from './probes.ts';
import { DEV_AUTH } from './suite.ts';
import { viaParts, viaWrap, type Variant } from './variant.ts';

const A = DEV_AUTH;
const MGMT_AUDIENCE = '/api/v2/';
const isToken = (r: Req): boolean => r.method === 'POST' && /^\/oauth\/token\/?$/.test(r.path);
const isUserinfo = (r: Req): boolean => r.method === 'GET' && /^\/userinfo\/?$/.test(r.path);
const isSaml = (r: Req): boolean => r.method === 'POST' && /^\/login\/callback\/?$/.test(r.path);
const isAuthorize = (r: Req): boolean => r.method === 'GET' && /^\/authorize\/?$/.test(r.path);
/** Authentication-API routes (everything that is not the management API or the dev outbox). */
const isAuthApi = (r: Req): boolean => !r.path.startsWith('/api/v2/') && !r.path.startsWith('/dev/');

/** The management clients' own token requests (§5.1): left alone, so the management half still runs. */
const MANAGEMENT_CLIENTS = ['conformance-full', 'conformance-limited'];
export function byManagementClient(r: Req): boolean {
  const id = isObject(r.body) ? r.body.client_id : undefined;
  const basic = /^Basic\s+(\S+)/i.exec(r.headers.authorization ?? '')?.[1];
  const basicId = basic
    ? decodeURIComponent(Buffer.from(basic, 'base64').toString('utf8').split(':')[0] ?? '')
    : undefined;
  return MANAGEMENT_CLIENTS.includes(String(id ?? basicId ?? ''));
}

// --- probe helpers ---------------------------------------------------------------------------

const status = async (p: Promise<Seen>): Promise<number> => (await p).status;
const tokenReq = (c: ProbeClient, body: Record<string, string>, headers: Record<string, string> = {}) =>
  c.request('POST', '/oauth/token', { body, headers });
const cc = (o: Record<string, string> = {}): Record<string, string> => ({
  grant_type: 'client_credentials',
  audience: MGMT_AUDIENCE,
  ...o,
});
const post = (secret: string = A.IDM_POST_CLIENT_SECRET) =>
  cc({ client_id: A.IDM_POST_CLIENT_ID, client_secret: secret });
const basic = (id: string, secret: string, encode = true): string => {
  const e = (s: string) => (encode ? encodeURIComponent(s).replace(/%20/g, '+') : s);
  return `Basic ${Buffer.from(`${e(id)}:${e(secret)}`).toString('base64')}`;
};
const pem = (file: string): string => encodeURIComponent(readFileSync(file, 'utf8'));
const mtlsHeaders = (o: { apiKey?: string; cert?: string; verified?: string } = {}): Record<string, string> => ({
  'cname-api-key': o.apiKey ?? A.IDM_MTLS_API_KEY,
  'client-certificate': o.cert ?? pem(A.IDM_MTLS_CERT_FILE),
  'client-certificate-ca-verified': o.verified ?? 'SUCCESS',
});

type AssertionCase = 'valid' | 'wrong-aud' | 'expired' | 'iss-not-sub' | 'no-sub' | 'foreign-key' | 'alg-none';
async function assertion(c: ProbeClient, kind: AssertionCase, jti = randomUUID()): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const id = A.IDM_PKJWT_CLIENT_ID;
  const claims: Record<string, unknown> = {
    iss: id,
    sub: kind === 'iss-not-sub' ? `${id}-other` : id,
    aud: kind === 'wrong-aud' ? 'https://another-tenant.example.test/' : `${c.origin}/oauth/token`,
    iat: kind === 'expired' ? now - 1200 : now,
    exp: kind === 'expired' ? now - 600 : now + 120,
    jti,
  };
  if (kind === 'no-sub') delete claims.sub;
  if (kind === 'alg-none') return new UnsecuredJWT(claims).encode();
  const key =
    kind === 'foreign-key'
      ? (await generateKeyPair('RS256')).privateKey
      : await importPKCS8(readFileSync(A.IDM_PKJWT_KEY_FILE, 'utf8'), 'RS256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256' }).sign(key);
}
export const withAssertion = async (c: ProbeClient, kind: AssertionCase) =>
  tokenReq(
    c,
    cc({
      client_id: A.IDM_PKJWT_CLIENT_ID,
      client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
      client_assertion: await assertion(c, kind),
    }),
  );
const passwordGrant = (c: ProbeClient, username: string, password: string) =>
  tokenReq(c, {
    grant_type: 'password',
    client_id: A.IDM_POST_CLIENT_ID,
    client_secret: A.IDM_POST_CLIENT_SECRET,
    username,
    password,
    scope: 'openid',
    realm: A.IDM_TEST_CONNECTION,
  });
/** The SAML callback with a form-encoded SAMLResponse that is not a SAML document. */
const samlCallback = (c: ProbeClient) =>
  c.request('POST', '/login/callback', {
    query: { connection: A.IDM_SAML_CONNECTION },
    body: { SAMLResponse: 'bm90LXNhbWw=' },
    form: true,
  });
const errorShape = (s: Seen) => ({
  status: s.status,
  members: isObject(s.body) ? Object.keys(s.body).sort() : typeof s.body,
});

// --- part builders ---------------------------------------------------------------------------

/** The client authenticator, accepting instead a refusal that `when` picks (the named client). */
/** The shape of the error answered to a Post client with a wrong secret. */
const wrongSecretError = async (c: ProbeClient) => errorShape(await tokenReq(c, post('wrong-secret')));

function clientAuthAccepts(when: (input: ClientAuthInput, refusal: { error: string; description: string }) => boolean) {
  return viaParts((d: TenantParts) => ({
    authenticateClient: async (input) => {
      const v = await d.authenticateClient(input);
      if (v.ok || !v.client || !when(input, v)) return v;
      return { ok: true as const, client: v.client, method: v.client.tokenEndpointAuthMethod ?? 'client_secret_post' };
    },
  }));
}

/** The authentication API's error builder, with its answer rewritten. */
export function authErrorRewritten(fn: (body: Record<string, unknown>, res: TenantResponse) => TenantResponse | void) {
  return viaParts((d: TenantParts) => ({
    authError: (s, e, desc, h) => {
      const res = d.authError(s, e, desc, h);
      const body = JSON.parse(res.body.toString('utf8')) as Record<string, unknown>;
      const out = fn(body, res);
      return out ?? { ...res, body: Buffer.from(JSON.stringify(body)) };
    },
  }));
}

const assertionBypass = (reason: string) =>
  viaParts((d: TenantParts) => ({
    verifyClientAssertion: async (a, client, expected) => {
      const v = await d.verifyClientAssertion(a, client, expected);
      if (v.ok || v.reason !== reason) return v;
      const claims = decodeJwt(a);
      return {
        ok: true,
        claims: {
          ...claims,
          iss: client.clientId,
          sub: client.clientId,
          jti: String(claims.jti ?? randomUUID()),
          exp: Number(claims.exp ?? 0),
        },
      };
    },
  }));

const mtlsBypass = (reason: string) =>
  viaParts((d: TenantParts) => ({
    checkMtlsEdge: (headers, client, apiKey) => {
      const v = d.checkMtlsEdge(headers, client, apiKey);
      return v.ok || v.reason !== reason ? v : { ok: true, x5tS256: 'bypassed' };
    },
  }));

/** A login limiter that never counts a failure (the per-account limit of §8 missing). */
const NO_LOGIN_LIMIT: LoginLimiter = {
  check: (_k, nowMs) => ({ allowed: true, limit: 5, remaining: 5, reset: Math.ceil(nowMs / 1000), retryAfter: 0 }),
  failed: () => {},
  succeeded: () => {},
};

/** A missing per-account login limit behind an endpoint limit of 2 requests per second (§8). */
const UNLIMITED_BEHIND_RATE_LIMIT: Omit<Variant, 'id' | 'description'> = {
  kind: 'mutant',
  clause: 'ratelimit.login-attempts',
  fault: 'rate-limit',
  slow: true,
  options: () => ({ parts: () => ({ loginLimiter: NO_LOGIN_LIMIT }), rateLimit: { capacity: 2, refillPerSecond: 2 } }),
  probe: async (c) => {
    for (let i = 0; i < 6; i++) await passwordGrant(c, A.IDM_LOCKOUT_USERNAME, `wrong-${i}`);
    await new Promise((r) => setTimeout(r, 1500)); // past the endpoint's own limit
    return status(passwordGrant(c, A.IDM_LOCKOUT_USERNAME, A.IDM_LOCKOUT_PASSWORD));
  },
};

export const AUTH_MUTANTS: Variant[] = [
  // §4.3 conventions
  {
    id: 'auth-token-json-refused',
    kind: 'mutant',
    clause: 'auth.api.post-json',
    fault: 'form-refused',
    description: 'the token endpoint accepts only form bodies: a JSON body is refused with 415',
    options: viaWrap(
      (next) => async (req) =>
        isToken(req) && !req.form
          ? jsonRes(415, {
              error: 'invalid_request',
              error_description: 'Content-Type must be application/x-www-form-urlencoded',
            })
          : next(req),
    ),
    probe: (c) => status(tokenReq(c, post())),
  },
  {
    id: 'auth-content-type-refused',
    kind: 'mutant',
    clause: 'auth.method.client-secret-post',
    fault: 'form-refused',
    description:
      'every authentication-API POST is refused as an unsupported content type (415), JSON and form alike: no accepted case, so no refusal may pass',
    options: viaWrap(
      (next) => async (req) =>
        req.method === 'POST' && isAuthApi(req) && !/^\/u\/login\/?$/.test(req.path) && !byManagementClient(req)
          ? jsonRes(415, { error: 'invalid_request', error_description: 'Unsupported Content-Type' })
          : next(req),
    ),
    probe: async (c) => [
      await status(tokenReq(c, post())),
      await status(c.request('POST', '/oauth/token', { body: post(), form: true })),
    ],
  },
  {
    id: 'auth-ratelimit-headers-dropped',
    kind: 'mutant',
    clause: 'ratelimit.auth-api.headers',
    fault: 'rate-limit',
    description:
      'no authentication-API answer reports the limit state: X-RateLimit-* dropped outside the management API',
    options: viaWrap(
      mapResponse(isAuthApi, (res) => {
        for (const h of Object.keys(res.headers)) if (h.startsWith('x-ratelimit-')) delete res.headers[h];
      }),
    ),
    probe: async (c) => (await tokenReq(c, post())).headers['x-ratelimit-limit'] ?? null,
  },
  {
    id: 'auth-get-query-ignored',
    kind: 'mutant',
    clause: 'auth.api.get-query',
    fault: 'path-handling',
    description: 'GET /authorize ignores its query string: every authorization request is refused as missing client_id',
    options: viaWrap(
      (next) => async (req) =>
        isAuthorize(req) ? next({ ...req, query: '', raw: { ...req.raw, url: req.path } }) : next(req),
    ),
    probe: (c) =>
      status(
        c.request('GET', '/authorize', {
          query: {
            response_type: 'code',
            client_id: A.IDM_PUBLIC_CLIENT_ID,
            redirect_uri: A.IDM_REDIRECT_URI,
            code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
            code_challenge_method: 'S256',
          },
        }),
      ),
  },
  {
    id: 'auth-saml-form-refused',
    kind: 'mutant',
    clause: 'auth.api.saml-exception',
    fault: 'form-refused',
    description: 'the SAML IdP-initiated callback refuses its form-encoded SAMLResponse with 415',
    options: viaWrap(
      (next) => async (req) =>
        isSaml(req) && req.form
          ? jsonRes(415, { error: 'invalid_request', error_description: 'Unsupported Media Type' })
          : next(req),
    ),
    probe: (c) => status(samlCallback(c)),
  },
  {
    id: 'auth-saml-invalid-500',
    kind: 'mutant',
    // A 5xx is §7.3's service fault, judged once there (the callback still read the form).
    clause: 'auth.error.client-fault-4xx',
    fault: 'wrong-status',
    description: 'an invalid SAMLResponse crashes the callback: 500',
    options: viaWrap(mapResponse(isSaml, (res) => void (res.status >= 400 && res.status < 500 && (res.status = 500)))),
    probe: (c) => status(samlCallback(c)),
  },
  // §5.2 client ID and secret
  {
    id: 'auth-post-refused',
    kind: 'mutant',
    clause: 'auth.method.client-secret-post',
    fault: 'over-strict',
    description: 'the client_secret_post client is refused with its right secret',
    options: viaParts((d) => ({
      authenticateClient: async (input) => {
        const v = await d.authenticateClient(input);
        return v.ok && v.client.clientId === A.IDM_POST_CLIENT_ID
          ? { ok: false, status: 401, error: 'invalid_client', description: 'Client authentication failed' }
          : v;
      },
    })),
    probe: (c) => status(tokenReq(c, post())),
  },
  {
    id: 'auth-post-wrong-secret-accepted',
    kind: 'mutant',
    clause: 'auth.method.client-secret-post',
    fault: 'auth-bypass',
    description: 'a wrong client secret in the body is accepted',
    options: clientAuthAccepts(
      (input) => input.params.client_secret !== undefined && input.headers.authorization === undefined,
    ),
    probe: (c) => status(tokenReq(c, post('wrong-secret'))),
  },
  {
    id: 'auth-basic-ignored',
    kind: 'mutant',
    clause: 'auth.method.client-secret-basic',
    fault: 'auth-bypass',
    description: 'the Authorization: Basic header is ignored (the client is then unauthenticated)',
    options: viaParts((d) => ({
      authenticateClient: (input) => {
        const { authorization, ...headers } = input.headers;
        return d.authenticateClient(/^basic /i.test(authorization ?? '') ? { ...input, headers } : input);
      },
    })),
    probe: (c) => status(tokenReq(c, cc(), { authorization: basic(A.IDM_BASIC_CLIENT_ID, A.IDM_BASIC_CLIENT_SECRET) })),
  },
  {
    id: 'auth-basic-wrong-secret-accepted',
    kind: 'mutant',
    clause: 'auth.method.client-secret-basic',
    fault: 'auth-bypass',
    description: 'Basic with a wrong secret is accepted',
    options: clientAuthAccepts((input) => /^basic /i.test(input.headers.authorization ?? '')),
    probe: (c) => status(tokenReq(c, cc(), { authorization: basic(A.IDM_BASIC_CLIENT_ID, 'wrong-secret') })),
  },
  {
    id: 'auth-basic-not-form-decoded',
    kind: 'mutant',
    clause: 'auth.method.client-secret-basic.form-encoded',
    fault: 'missing-validation',
    description:
      'the Basic credential is not form-decoded (RFC 6749 §2.3.1): a secret that needs encoding no longer matches',
    options: viaWrap((next) => async (req) => {
      const m = /^basic\s+(.+)$/i.exec(req.headers.authorization ?? '');
      if (!isToken(req) || !m) return next(req);
      // Encoding the decoded parts once more makes the tenant's single decode yield the encoded text.
      const [id, secret] = Buffer.from(m[1]!, 'base64').toString('utf8').split(':') as [string, string];
      const again = `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret ?? '')}`).toString('base64')}`;
      return next({
        ...req,
        headers: { ...req.headers, authorization: again },
        raw: { ...req.raw, headers: { ...req.raw.headers, authorization: again } },
      });
    }),
    probe: (c) => status(tokenReq(c, cc(), { authorization: basic(A.IDM_BASIC_CLIENT_ID, A.IDM_BASIC_CLIENT_SECRET) })),
  },
  {
    id: 'auth-confidential-client-id-only-accepted',
    kind: 'mutant',
    clause: 'auth.method.client-id-only.confidential-refused',
    fault: 'auth-bypass',
    description: 'a confidential client sending its client ID alone is authenticated',
    options: clientAuthAccepts(
      (input) =>
        input.params.client_secret === undefined &&
        input.params.client_assertion === undefined &&
        input.headers.authorization === undefined &&
        input.headers['cname-api-key'] === undefined,
    ),
    probe: (c) => status(tokenReq(c, cc({ client_id: A.IDM_POST_CLIENT_ID }))),
  },
  // §5.2 client assertion
  {
    id: 'auth-assertion-refused',
    kind: 'mutant',
    clause: 'auth.method.client-assertion',
    fault: 'over-strict',
    description: 'every client assertion is refused, valid ones too',
    options: viaParts(() => ({
      verifyClientAssertion: async () => ({ ok: false, reason: 'signature', description: 'invalid signature' }),
    })),
    probe: async (c) => status(withAssertion(c, 'valid')),
  },
  ...(
    [
      ['foreign-key', 'signature', 'signed by an unregistered key'],
      ['expired', 'expired', 'expired'],
      ['wrong-aud', 'audience', 'for another audience'],
      ['iss-not-sub', 'subject', 'whose sub differs from iss (or is missing)'],
      ['alg-none', 'algorithm', 'unsigned (alg none)'],
    ] as const
  ).map(
    ([kind, reason, what]): Variant => ({
      id: `auth-assertion-${kind}-accepted`,
      kind: 'mutant',
      clause: 'auth.method.client-assertion.refused',
      fault: 'auth-bypass',
      description: `a client assertion ${what} is accepted`,
      options: assertionBypass(reason),
      probe: async (c) => status(withAssertion(c, kind)),
    }),
  ),
  // §5.2 mTLS
  {
    id: 'auth-mtls-refused',
    kind: 'mutant',
    clause: 'auth.method.mtls',
    fault: 'over-strict',
    description: 'the mTLS edge headers never authenticate (the API key is always "wrong")',
    options: viaParts(() => ({
      checkMtlsEdge: () => ({ ok: false, reason: 'api-key', description: 'Invalid cname-api-key' }),
    })),
    probe: (c) => status(tokenReq(c, cc({ client_id: A.IDM_MTLS_CLIENT_ID }), mtlsHeaders())),
  },
  {
    id: 'auth-mtls-api-key-unchecked',
    kind: 'mutant',
    clause: 'auth.method.mtls.refused',
    fault: 'auth-bypass',
    description: 'the custom-domain API key (cname-api-key) is not checked',
    options: mtlsBypass('api-key'),
    probe: (c) => status(tokenReq(c, cc({ client_id: A.IDM_MTLS_CLIENT_ID }), mtlsHeaders({ apiKey: 'wrong-key' }))),
  },
  {
    id: 'auth-mtls-failed-accepted',
    kind: 'mutant',
    clause: 'auth.method.mtls.refused',
    fault: 'auth-bypass',
    description: 'client-certificate-ca-verified FAILED is accepted for the client that needs CA verification',
    options: mtlsBypass('ca-not-verified'),
    probe: (c) =>
      status(
        tokenReq(
          c,
          cc({ client_id: A.IDM_MTLS_CA_CLIENT_ID }),
          mtlsHeaders({ cert: pem(A.IDM_MTLS_CA_CERT_FILE), verified: 'FAILED: self signed' }),
        ),
      ),
  },
  {
    id: 'auth-mtls-certificate-unchecked',
    kind: 'mutant',
    clause: 'auth.method.mtls.refused',
    fault: 'auth-bypass',
    description: 'another certificate than the registered one is accepted',
    options: mtlsBypass('certificate-mismatch'),
    probe: (c) =>
      status(tokenReq(c, cc({ client_id: A.IDM_MTLS_CLIENT_ID }), mtlsHeaders({ cert: pem(A.IDM_MTLS_CA_CERT_FILE) }))),
  },
  {
    id: 'auth-token-answer-without-type',
    kind: 'mutant',
    clause: 'auth.token.answer',
    fault: 'response-schema',
    description: 'token answers of the authentication-API clients lose token_type (RFC 6749 §5.1 requires it)',
    options: viaWrap(
      mapResponse(
        (r) =>
          isToken(r) && isObject(r.body) && r.body.client_id !== undefined && r.body.client_id !== 'conformance-full',
        (res) => {
          if (res.status === 200 && isObject(res.body)) delete res.body.token_type;
        },
      ),
    ),
    probe: async (c) => {
      const s = await tokenReq(c, post());
      return isObject(s.body) ? Object.keys(s.body).sort() : s.status;
    },
  },
  // §5.2 bearer
  {
    id: 'auth-userinfo-without-token-200',
    kind: 'mutant',
    clause: 'auth.method.bearer',
    fault: 'auth-bypass',
    description: 'user info without a token is answered 200 with a profile',
    options: viaWrap(
      (next) => async (req) =>
        isUserinfo(req) && !req.headers.authorization ? jsonRes(200, { sub: 'auth0|anonymous' }) : next(req),
    ),
    probe: (c) => status(c.request('GET', '/userinfo')),
  },
  // §7.3 errors
  {
    id: 'auth-error-without-error-member',
    kind: 'mutant',
    clause: 'auth.error.oauth-error',
    fault: 'response-schema',
    description: 'authentication-API error objects lose their error member (only error_description is left)',
    options: authErrorRewritten((b) => void delete b.error),
    probe: wrongSecretError,
  },
  {
    id: 'auth-error-without-description',
    kind: 'mutant',
    clause: 'auth.error.code-and-description',
    // Judged over the run's error objects (no test declares it): the tests that draw most of them.
    grep: ['auth.error.object', 'auth.method.client-secret-post'],
    fault: 'response-schema',
    description: 'authentication-API error objects carry the error code only, no description',
    options: authErrorRewritten((b) => void delete b.error_description),
    probe: wrongSecretError,
  },
  {
    id: 'auth-error-not-an-object',
    kind: 'mutant',
    clause: 'auth.error.object',
    fault: 'response-schema',
    description: 'authentication-API errors are plain text, not an error object',
    options: authErrorRewritten((b, res) => ({
      ...res,
      headers: { ...res.headers, 'content-type': 'text/plain; charset=utf-8' },
      body: Buffer.from(String(b.error_description ?? 'error')),
    })),
    probe: wrongSecretError,
  },
  {
    id: 'auth-client-error-500',
    kind: 'mutant',
    clause: 'auth.error.client-fault-4xx',
    fault: 'wrong-status',
    description: 'a refused client authentication at the token endpoint is answered 500',
    options: viaWrap(mapResponse(isToken, (res) => void (res.status === 401 && (res.status = 500)))),
    probe: (c) => status(tokenReq(c, post('wrong-secret'))),
  },
  {
    id: 'auth-429-message-silent',
    kind: 'mutant',
    clause: 'auth.error.429',
    fault: 'rate-limit',
    description: "the token endpoint's 429 neither carries the X-RateLimit-* headers nor points at them",
    options: viaWrap(
      mapResponse(isToken, (res) => {
        if (res.status !== 429) return;
        for (const h of Object.keys(res.headers)) if (h.startsWith('x-ratelimit-')) delete res.headers[h];
        return jsonRes(429, { error: 'too_many_requests', error_description: 'Slow down.' }, res.headers);
      }),
    ),
    probe: async (c) => {
      // The lockout user's block answers 429 on the token endpoint without a burst.
      for (let i = 0; i < 6; i++) await passwordGrant(c, A.IDM_LOCKOUT_USERNAME, `wrong-${i}`);
      const s = await passwordGrant(c, A.IDM_LOCKOUT_USERNAME, 'wrong-last');
      return { status: s.status, limit: s.headers['x-ratelimit-limit'] ?? null };
    },
  },
  // §8 repeat login attempts
  {
    id: 'auth-login-attempts-unlimited',
    kind: 'mutant',
    clause: 'ratelimit.login-attempts',
    fault: 'rate-limit',
    description: 'failed logins are never counted: the lockout user is never blocked',
    options: viaParts(() => ({ loginLimiter: NO_LOGIN_LIMIT })),
    probe: async (c) => {
      for (let i = 0; i < 6; i++) await passwordGrant(c, A.IDM_LOCKOUT_USERNAME, `wrong-${i}`);
      return status(passwordGrant(c, A.IDM_LOCKOUT_USERNAME, A.IDM_LOCKOUT_PASSWORD));
    },
  },
  // The same fault behind an endpoint limit of 2 requests per second, whose 429s must not be
  // taken for the per-account block: through the password grant, and through the login page.
  {
    ...UNLIMITED_BEHIND_RATE_LIMIT,
    id: 'auth-login-attempts-unlimited-rate-limited',
    description:
      'failed logins are never counted, behind an endpoint limit of 2 requests per second: its 429s are not the per-account block',
  },
  {
    ...UNLIMITED_BEHIND_RATE_LIMIT,
    id: 'auth-login-attempts-unlimited-login-page-rate-limited',
    description:
      'the same through the hosted login page (the password grant declared not offered), behind an endpoint limit of 2 requests per second',
    env: { IDM_NOT_OFFERED: 'password' },
  },
];

/** Client-authentication refusals at the token endpoint (the 4xx where RFC 6749 §5.2 says invalid_client). */
const isClientAuthError = (res: { status: number; body: unknown }): boolean =>
  res.status === 401 && isObject(res.body) && res.body.error === 'invalid_client';

export const AUTH_BENIGN: Variant[] = [
  {
    id: 'auth-client-error-403',
    kind: 'benign',
    clause: 'auth.method.client-auth-status',
    fault: 'spec-silent',
    description: 'refused client authentications answer 403 instead of 401 (any 4xx conforms)',
    options: viaWrap(mapResponse(isToken, (res) => void (isClientAuthError(res) && (res.status = 403)))),
  },
  {
    id: 'auth-client-error-400',
    kind: 'benign',
    clause: 'auth.method.client-auth-status',
    fault: 'spec-silent',
    description: 'refused client authentications answer 400 (as RFC 6749 §5.2 allows) instead of 401',
    options: viaWrap(mapResponse(isToken, (res) => void (isClientAuthError(res) && (res.status = 400)))),
  },
  {
    id: 'auth-client-error-access-denied',
    kind: 'benign',
    clause: 'auth.error.fields',
    fault: 'spec-silent',
    description:
      'refused client authentications carry access_denied instead of invalid_client (the codes are not shown)',
    options: viaWrap(
      mapResponse(
        isToken,
        (res) => void (isClientAuthError(res) && ((res.body as Record<string, unknown>).error = 'access_denied')),
      ),
    ),
  },
  {
    id: 'auth-extra-members',
    kind: 'benign',
    clause: 'auth.error.fields',
    fault: 'spec-silent',
    description: 'error objects and token answers carry extra members (error_uri, request_id)',
    // Only JSON objects are touched; HTML pages and redirects pass through byte for byte.
    options: viaWrap((next) => async (req) => {
      const res = await next(req);
      if (!isAuthApi(req) || !isObject(res.body)) return res;
      const extra =
        res.status >= 400
          ? { error_uri: 'https://docs.example.test/errors', request_id: 'req-1' }
          : { request_id: 'req-1' };
      return { status: res.status, headers: { ...res.headers }, body: { ...res.body, ...extra } };
    }),
  },
  {
    id: 'auth-assertion-replay-accepted',
    kind: 'benign',
    clause: 'auth.method.client-assertion.replay',
    fault: 'spec-silent',
    description: 'a client assertion whose jti was used before is accepted again (the spec is silent on replay)',
    options: viaParts(() => ({ jtiCache: { consume: () => true } })),
  },
  {
    id: 'auth-userinfo-error-400',
    kind: 'benign',
    clause: 'auth.method.bearer.status',
    fault: 'spec-silent',
    description: 'user info refuses a missing or invalid token with 400 instead of 401 (the spec says 4xx)',
    options: viaWrap(compose(mapResponse(isUserinfo, (res) => void (res.status === 401 && (res.status = 400))))),
  },
];
