// Faulty and benign variants of the named flows (§4.3; auth.flow.* clauses): each fault sits
// where a real tenant could get a flow wrong — a verifier not checked, a revocation that does
// nothing, a redirect to any URI. Built from the tenant's named parts (authStore, verifyPkce,
// checkPassword) or an HTTP wrap; each mutant carries the probe that shows it alive.
import { createHash } from 'node:crypto';
import type { PkceCheck, TenantParts } from '../reference/src/index.ts';
import { DEV_AUTH } from './suite.ts';
import { isTokenRequest, jsonRes, textRes, type Req, type Res, type Wrap } from './exchange.ts';
import { isObject } from '../lib/values.ts';
import { mapResponse } from './faults.ts';
import { viaParts, viaWrap, type Variant } from './variant.ts';
import { byManagementClient } from './mutants-auth.ts';
import { clientCredentials, type ProbeClient, type Seen } from './probes.ts';

const A = DEV_AUTH;
/** The seeded custom resource server's identifier: an audience any client-credentials request may name. */
const DEV_RS_IDENTIFIER = 'https://api.conformance.test/';
const grant = (r: Req, type: string): boolean => isTokenRequest(r) && isObject(r.body) && r.body.grant_type === type;
const oauthError = (status: number, error: string, description: string): Res =>
  jsonRes(status, { error, error_description: description });
const isGet = (r: Req, path: RegExp): boolean => r.method === 'GET' && path.test(r.path);

export const FLOW_MUTANTS: Variant[] = [
  {
    id: 'flow-token-content-type-refused',
    kind: 'mutant',
    clause: 'auth.flow.code.pkce',
    fault: 'form-refused',
    description:
      'the token endpoint refuses every request as a wrong content type (400 invalid_request), whatever the grant or encoding: the code exchange is never accepted, so no flow refusal may pass',
    options: viaWrap(
      (next) => async (req) =>
        isTokenRequest(req) && !byManagementClient(req)
          ? oauthError(400, 'invalid_request', 'The request body has an unsupported content type')
          : next(req),
    ),
    probe: async (c) => (await clientCredentials(c, 'post', { audience: DEV_RS_IDENTIFIER })).status,
  },
  {
    id: 'flow-client-credentials-no-token-type',
    kind: 'mutant',
    clause: 'auth.flow.client-credentials',
    fault: 'response-schema',
    description: 'the client-credentials answer has no token_type (RFC 6749 §5.1 requires it)',
    options: viaWrap(
      mapResponse(
        (r) => grant(r, 'client_credentials'),
        (res) => {
          if (isObject(res.body)) delete res.body.token_type;
        },
      ),
    ),
    probe: async (c) => 'token_type' in (await clientCredentials(c, 'post', { audience: DEV_RS_IDENTIFIER })).body,
  },
  {
    id: 'flow-password-grant-refused',
    kind: 'mutant',
    clause: 'auth.flow.password',
    fault: 'over-strict',
    description:
      "the resource-owner password grant refuses the test user's right credentials (403 unauthorized_client)",
    options: viaWrap(
      refuseWhen(
        (r) => grant(r, 'password') && isObject(r.body) && r.body.username === A.IDM_TEST_USERNAME,
        403,
        'unauthorized_client',
        'Grant type password not allowed for the client.',
      ),
    ),
    probe: async (c) => (await passwordTokens(c, 'openid')).status,
  },
  {
    id: 'flow-password-any-password',
    kind: 'mutant',
    clause: 'auth.flow.password.wrong-password',
    fault: 'auth-bypass',
    description: 'any password logs the test user in',
    options: viaParts((d) => ({
      checkPassword: (connection, username, password) =>
        d.checkPassword(connection, username, password) ??
        (username === A.IDM_TEST_USERNAME ? d.checkPassword(connection, username, A.IDM_TEST_PASSWORD) : undefined),
    })),
    probe: async (c) => (await passwordTokens(c, 'openid', `${A.IDM_TEST_PASSWORD}-not`)).status,
  },
  {
    id: 'flow-userinfo-without-sub',
    kind: 'mutant',
    clause: 'auth.flow.userinfo',
    fault: 'response-schema',
    description: 'user info answers the claims without sub (OIDC Core §5.3.2 requires it)',
    options: viaWrap(
      mapResponse(
        (r) => isGet(r, /^\/userinfo\/?$/),
        (res) => {
          if (isObject(res.body)) delete res.body.sub;
        },
      ),
    ),
    probe: async (c) => {
      const t = (await passwordTokens(c, 'openid profile')).body;
      return (
        'sub' in (await c.request('GET', '/userinfo', { headers: { authorization: `Bearer ${t.access_token}` } })).body
      );
    },
  },
  {
    id: 'flow-refresh-token-unknown',
    kind: 'mutant',
    clause: 'auth.flow.refresh',
    fault: 'not-persisted',
    description: 'refresh tokens are issued but never stored, so none can be used',
    options: viaParts((d) => ({ authStore: { ...d.authStore, getRefreshToken: () => undefined } })),
    probe: async (c) =>
      (await refresh(c, (await passwordTokens(c, 'openid offline_access')).body.refresh_token)).status,
  },
  {
    id: 'flow-revoke-refused',
    kind: 'mutant',
    clause: 'auth.flow.revoke',
    fault: 'wrong-status',
    description: 'revoking a valid refresh token with the client ID and secret answers 400 (RFC 7009 §2.2: 200)',
    options: viaWrap(
      refuseWhen(
        (r) => r.method === 'POST' && /^\/oauth\/revoke\/?$/.test(r.path),
        400,
        'unsupported_token_type',
        'The token could not be revoked.',
      ),
    ),
    probe: async (c) => (await revoke(c, (await passwordTokens(c, 'openid offline_access')).body.refresh_token)).status,
  },
  {
    id: 'flow-revoke-does-nothing',
    kind: 'mutant',
    clause: 'auth.flow.revoke.effective',
    fault: 'not-persisted',
    description: 'revocation answers 200 but the refresh token keeps working',
    options: viaParts((d) => ({ authStore: { ...d.authStore, revokeRefreshToken: () => {} } })),
    probe: async (c) => {
      const rt = (await passwordTokens(c, 'openid offline_access')).body.refresh_token;
      await revoke(c, rt);
      return (await refresh(c, rt)).status;
    },
  },
  {
    id: 'flow-pkce-wrong-verifier-accepted',
    kind: 'mutant',
    clause: 'auth.flow.code.pkce.wrong-verifier',
    fault: 'auth-bypass',
    description: 'PKCE verifier not checked: any code_verifier redeems a code issued for a challenge',
    options: viaParts((d) => ({ verifyPkce: pkcePassedWhen(d, (_stored, verifier) => verifier !== undefined) })),
    probe: async (c) =>
      (await publicExchange(c, await publicCode(c), { code_verifier: 'a-verifier-that-matches-nothing-0123456789abc' }))
        .status,
  },
  {
    id: 'flow-pkce-missing-verifier-accepted',
    kind: 'mutant',
    clause: 'auth.flow.code.pkce.missing-verifier',
    fault: 'missing-validation',
    description: 'a code issued for a challenge is redeemed without any code_verifier',
    options: viaParts((d) => ({ verifyPkce: pkcePassedWhen(d, (_stored, verifier) => verifier === undefined) })),
    probe: async (c) => (await publicExchange(c, await publicCode(c), {})).status,
  },
  {
    id: 'flow-code-state-dropped',
    kind: 'mutant',
    clause: 'auth.flow.code.pkce',
    fault: 'response-schema',
    description: 'the redirect with the authorization code drops the state the client sent (RFC 6749 §4.1.2)',
    options: viaWrap(
      mapLocation((loc) => {
        if (!loc.searchParams.has('code')) return null;
        loc.searchParams.delete('state');
        return loc;
      }),
    ),
    probe: async (c) =>
      (
        await authorize(c, {
          response_type: 'code',
          client_id: A.IDM_PUBLIC_CLIENT_ID,
          code_challenge: CHALLENGE,
          code_challenge_method: 'S256',
        })
      )?.searchParams.get('state') ?? null,
  },
  {
    id: 'flow-confidential-code-needs-verifier',
    kind: 'mutant',
    clause: 'auth.flow.code.confidential',
    fault: 'over-strict',
    description:
      "a confidential client's code exchange with its secret and no code_verifier is refused (PKCE forced on every client)",
    options: viaWrap(
      refuseWhen(
        (r) =>
          grant(r, 'authorization_code') &&
          isObject(r.body) &&
          r.body.client_secret !== undefined &&
          r.body.code_verifier === undefined,
        400,
        'invalid_grant',
        'code_verifier is required.',
      ),
    ),
    probe: async (c) => (await postExchange(c, {})).status,
  },
  {
    id: 'flow-code-reusable',
    kind: 'mutant',
    clause: 'auth.flow.code.single-use',
    fault: 'not-persisted',
    description: 'an authorization code is never consumed: the same code is exchanged again and again',
    options: viaParts((d) => ({ authStore: { ...d.authStore, deleteCode: () => {} } })),
    probe: async (c) => {
      const code = await publicCode(c);
      await publicExchange(c, code, { code_verifier: VERIFIER });
      return (await publicExchange(c, code, { code_verifier: VERIFIER })).status;
    },
  },
  {
    id: 'flow-implicit-token-in-query',
    kind: 'mutant',
    clause: 'auth.flow.implicit',
    fault: 'response-schema',
    description: 'the implicit grant puts the access token in the query instead of the fragment (RFC 6749 §4.2.2)',
    options: viaWrap(
      mapLocation((loc) => {
        if (!loc.hash.includes('access_token=')) return null;
        loc.search = loc.hash.slice(1);
        loc.hash = '';
        return loc;
      }),
    ),
    probe: async (c) =>
      (await authorize(c, { response_type: 'token', client_id: A.IDM_PUBLIC_CLIENT_ID }))?.searchParams.has(
        'access_token',
      ) ?? null,
  },
  {
    id: 'flow-implicit-no-tokens',
    kind: 'mutant',
    clause: 'auth.flow.implicit',
    fault: 'response-schema',
    description:
      'the implicit grant redirects with the state alone: no access_token, token_type or id_token in the fragment (one cause: the ID-token rules of that login are skipped naming auth.flow.implicit)',
    options: viaWrap(
      mapLocation((loc) => {
        const fragment = new URLSearchParams(loc.hash.slice(1));
        if (!fragment.has('access_token') && !fragment.has('id_token')) return null;
        const state = fragment.get('state');
        loc.hash = state === null ? '' : new URLSearchParams({ state }).toString();
        return loc;
      }),
    ),
    probe: async (c) =>
      (await authorize(c, { response_type: 'token', client_id: A.IDM_PUBLIC_CLIENT_ID }))?.hash.includes(
        'access_token',
      ) ?? null,
  },
  {
    id: 'flow-implicit-any-redirect-uri',
    kind: 'mutant',
    clause: 'auth.flow.implicit.redirect-uri',
    fault: 'auth-bypass',
    description:
      'the authorization request redirects to whatever redirect_uri it is given (the token goes to an unregistered URI)',
    options: viaWrap(anyRedirectUri()),
    probe: async (c) =>
      (
        await authorize(c, {
          response_type: 'token',
          client_id: A.IDM_PUBLIC_CLIENT_ID,
          redirect_uri: 'https://unregistered.conformance.test/callback',
        })
      )?.host ?? null,
  },
];

export const FLOW_BENIGN: Variant[] = [
  {
    id: 'benign-flow-refusals-403',
    kind: 'benign',
    clause: 'auth.flow.refusals',
    fault: 'spec-silent',
    description:
      'a refused grant (revoked refresh token, wrong verifier, reused code, wrong password) is answered 403 invalid_grant instead of 400',
    options: viaWrap(
      mapResponse(isTokenRequest, (res) => {
        if (res.status === 400 && isObject(res.body) && res.body.error === 'invalid_grant') res.status = 403;
      }),
    ),
  },
  {
    id: 'benign-flow-passwordless-empty-answer',
    kind: 'benign',
    clause: 'auth.flow.passwordless.email',
    fault: 'spec-silent',
    description: 'passwordless start answers 200 with an empty object',
    options: viaWrap(
      mapResponse(
        (r) => r.method === 'POST' && /^\/passwordless\/start\/?$/.test(r.path),
        (res) => (res.status === 200 ? jsonRes(200, {}) : res),
      ),
    ),
  },
  {
    id: 'benign-flow-logout-page',
    kind: 'benign',
    clause: 'auth.flow.logout',
    fault: 'spec-silent',
    description: 'logout answers 200 with a page instead of redirecting to the return URL',
    options: viaWrap(
      mapResponse(
        (r) => isGet(r, /^\/v2\/logout\/?$/),
        (res) =>
          res.status === 302
            ? { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: undefined }
            : res,
      ),
    ),
  },
  {
    id: 'benign-flow-authorize-text-page',
    kind: 'benign',
    // The spec says nothing of a page for the user; §7.3's error object (auth.error.object) is the API's.
    clause: null,
    fault: 'spec-silent',
    description:
      "the authorization endpoint's errors it does not redirect (no client_id, an unknown client, an unregistered redirect_uri) are a text/plain page for the user, as a Go provider's are (RFC 6749 §4.1.2.1 names no form)",
    options: viaWrap(
      mapResponse(
        (r) => isGet(r, /^\/authorize\/?$/),
        (res) => (res.status === 400 ? textRes(400, 'auth request is invalid') : res),
      ),
    ),
  },
  {
    id: 'benign-flow-wsfed-404',
    kind: 'benign',
    clause: 'auth.flow.wsfed',
    fault: 'spec-silent',
    description: 'WS-Federation answers 404 with an error object instead of 403 endpoint_disabled',
    options: viaWrap(
      mapResponse(
        (r) => /^\/wsfed(\/|$)/.test(r.path),
        () => oauthError(404, 'not_found', 'WS-Federation is not served here'),
      ),
    ),
  },
];

// Wraps

function refuseWhen(pred: (r: Req) => boolean, status: number, error: string, description: string): Wrap {
  return (next) => async (req) => (pred(req) ? oauthError(status, error, description) : next(req));
}

/**
 * Rewrites the Location of redirects; `fn` returns null to leave one alone. Every other part of
 * the answer is passed on as it came (mapResponse would re-serialise bodies, and HTML is not JSON).
 */
function mapLocation(fn: (loc: URL) => URL | null): Wrap {
  return (next) => async (req) => {
    const res = await next(req);
    const raw = res.headers.location;
    if (res.status < 300 || res.status >= 400 || !raw) return res;
    const loc = fn(new URL(raw));
    return loc ? { ...res, headers: { ...res.headers, location: loc.toString() } } : res;
  };
}

/**
 * The tenant sees the registered redirect URI in place of any other, and the final redirect
 * goes back to the one the request named (matched by the client's state).
 */
function anyRedirectUri(): Wrap {
  const asked = new Map<string, string>();
  return (next) => async (req) => {
    if (isGet(req, /^\/authorize\/?$/)) {
      const q = new URLSearchParams(req.query);
      const uri = q.get('redirect_uri');
      const state = q.get('state');
      if (uri && state && uri !== A.IDM_REDIRECT_URI) {
        asked.set(state, uri);
        q.set('redirect_uri', A.IDM_REDIRECT_URI);
        return next({ ...req, query: q.toString() });
      }
      return next(req);
    }
    const res = await next(req);
    const raw = res.headers.location;
    if (raw?.startsWith(A.IDM_REDIRECT_URI)) {
      const loc = new URL(raw);
      const state = loc.searchParams.get('state') ?? new URLSearchParams(loc.hash.slice(1)).get('state');
      const uri = state === null ? undefined : asked.get(state);
      if (uri) res.headers.location = uri + raw.slice(A.IDM_REDIRECT_URI.length);
    }
    return res;
  };
}

/** The tenant's PKCE check, passed whenever `when` holds of the stored challenge and the verifier sent. */
export function pkcePassedWhen(d: TenantParts, when: (...a: Parameters<PkceCheck>) => boolean): PkceCheck {
  return (stored, verifier) => (when(stored, verifier) ? { ok: true } : d.verifyPkce(stored, verifier));
}

// Probe steps (plain HTTP: the login form posted as an API caller would)

export const VERIFIER = 'probe-verifier-0123456789-abcdefghijklmnopqrstuvwxyz';
// RFC 7636 §4.2 S256: BASE64URL(SHA256(ASCII(code_verifier))).
const CHALLENGE = createHash('sha256').update(VERIFIER).digest('base64url');

export function token(c: ProbeClient, body: Record<string, unknown>): Promise<Seen> {
  return c.request('POST', '/oauth/token', { body });
}

export function passwordTokens(c: ProbeClient, scope: string, password: string = A.IDM_TEST_PASSWORD): Promise<Seen> {
  return token(c, {
    grant_type: 'password',
    client_id: A.IDM_POST_CLIENT_ID,
    client_secret: A.IDM_POST_CLIENT_SECRET,
    username: A.IDM_TEST_USERNAME,
    password,
    scope,
  });
}

export function refresh(c: ProbeClient, rt: unknown, scope?: string): Promise<Seen> {
  return token(c, {
    grant_type: 'refresh_token',
    client_id: A.IDM_POST_CLIENT_ID,
    client_secret: A.IDM_POST_CLIENT_SECRET,
    refresh_token: rt,
    ...(scope ? { scope } : {}),
  });
}

function revoke(c: ProbeClient, rt: unknown): Promise<Seen> {
  return c.request('POST', '/oauth/revoke', {
    body: { client_id: A.IDM_POST_CLIENT_ID, client_secret: A.IDM_POST_CLIENT_SECRET, token: rt },
  });
}

/** GET /authorize, then the login form posted; the redirect it ends with. */
export async function authorize(c: ProbeClient, params: Record<string, string>): Promise<URL | null> {
  const page = await c.request('GET', '/authorize', {
    query: { redirect_uri: A.IDM_REDIRECT_URI, scope: 'openid', state: 'probe-state', ...params },
  });
  const tx = /name="state" value="([^"]+)"/.exec(String(page.body))?.[1];
  const done = tx
    ? await c.request('POST', '/u/login', {
        body: { state: tx, username: A.IDM_TEST_USERNAME, password: A.IDM_TEST_PASSWORD },
      })
    : page;
  return done.headers.location ? new URL(done.headers.location) : null;
}

export async function publicCode(c: ProbeClient, extra: Record<string, string> = {}): Promise<string | null> {
  const loc = await authorize(c, {
    ...extra,
    response_type: 'code',
    client_id: A.IDM_PUBLIC_CLIENT_ID,
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
  });
  return loc?.searchParams.get('code') ?? null;
}

/** The confidential client's code (no PKCE) exchanged with `change` applied to the right exchange. */
export async function postExchange(c: ProbeClient, change: Record<string, unknown>): Promise<Seen> {
  const loc = await authorize(c, { response_type: 'code', client_id: A.IDM_POST_CLIENT_ID });
  return token(c, {
    grant_type: 'authorization_code',
    client_id: A.IDM_POST_CLIENT_ID,
    client_secret: A.IDM_POST_CLIENT_SECRET,
    code: loc?.searchParams.get('code'),
    redirect_uri: A.IDM_REDIRECT_URI,
    ...change,
  });
}

/** The public client's code exchanged at the token endpoint, with `extra` (its verifier, an audience proof…). */
export function publicExchange(c: ProbeClient, code: string | null, extra: Record<string, string>): Promise<Seen> {
  return token(c, {
    grant_type: 'authorization_code',
    client_id: A.IDM_PUBLIC_CLIENT_ID,
    code,
    redirect_uri: A.IDM_REDIRECT_URI,
    ...extra,
  });
}
