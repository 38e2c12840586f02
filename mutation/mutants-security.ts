// Faulty and benign variants of the OAuth 2.0 / OIDC security rules the named flows rest on
// (auth.sec.* clauses): each breaks one rule a security review looks for first, from the
// reference tenant's named parts (securityRules, verifyPkce, authStore) or an HTTP wrap that
// rewrites what the tenant answered. Each mutant carries the probe that shows it alive.
import { createHash } from 'node:crypto';
import { SignJWT, UnsecuredJWT, createLocalJWKSet, decodeJwt, generateKeyPair, jwtVerify } from 'jose';
import { DEV_AUTH } from './suite.ts';
import { isTokenRequest, type Req, type Res, type Wrap } from './exchange.ts';
import { isObject } from '../lib/values.ts';
import { mapResponse } from './faults.ts';
import { viaParts, viaWrap, type Variant } from './variant.ts';
import {
  authorize,
  passwordTokens,
  pkcePassedWhen,
  postExchange,
  publicCode,
  publicExchange,
  refresh,
  VERIFIER,
} from './mutants-flows.ts';
import { clientCredentials, type ProbeClient } from './probes.ts';

const A = DEV_AUTH;
const isUserinfo = (r: Req): boolean => r.method === 'GET' && /^\/userinfo\/?$/.test(r.path);
const isLogout = (r: Req): boolean => r.method === 'GET' && /^\/v2\/logout\/?$/.test(r.path);

export const SECURITY_MUTANTS: Variant[] = [
  {
    id: 'sec-redirect-uri-prefix',
    kind: 'mutant',
    fast: true,
    clause: 'auth.sec.redirect-uri.exact',
    fault: 'auth-bypass',
    description: 'a redirect_uri that only starts with a registered one is accepted and redirected to',
    options: viaParts((d) => ({
      securityRules: {
        ...d.securityRules,
        redirectUriRegistered: (registered, asked) => registered.some((r) => asked.startsWith(r)),
      },
    })),
    probe: async (c) =>
      (
        await authorize(c, {
          response_type: 'code',
          client_id: A.IDM_POST_CLIENT_ID,
          redirect_uri: `${A.IDM_REDIRECT_URI}/extra`,
        })
      )?.pathname ?? null,
  },
  {
    id: 'sec-id-token-foreign-key',
    kind: 'mutant',
    fast: true,
    clause: 'auth.sec.id-token.valid',
    fault: 'auth-bypass',
    description: "ID tokens in token answers are signed by a key that is not in the tenant's jwks_uri (same kid)",
    options: viaWrap(rewriteIdToken(resignWithForeignKey)),
    probe: async (c) => idTokenAlg(c),
  },
  {
    id: 'sec-id-token-alg-none',
    kind: 'mutant',
    clause: 'auth.sec.id-token.valid',
    fault: 'auth-bypass',
    description: 'ID tokens in token answers are unsigned (alg none), claims unchanged',
    options: viaWrap(rewriteIdToken(async (t) => new UnsecuredJWT(decodeJwt(t)).encode())),
    probe: async (c) => idTokenAlg(c),
  },
  {
    id: 'sec-id-token-nonce-dropped',
    kind: 'mutant',
    clause: 'auth.sec.id-token.valid',
    fault: 'missing-validation',
    description: "the code flow's ID token leaves out the nonce of the authorization request (signed by the tenant)",
    options: viaParts((d) => ({
      authStore: {
        ...d.authStore,
        getCode: (code) => {
          const grant = d.authStore.getCode(code);
          if (grant === undefined) return undefined;
          const { nonce: _dropped, ...rest } = grant;
          return rest;
        },
      },
    })),
    probe: async (c) => {
      const code = await publicCode(c, { nonce: 'probe-nonce', scope: 'openid' });
      const t = await publicExchange(c, code, { code_verifier: VERIFIER });
      return decodeJwt(String(t.body.id_token)).nonce ?? null;
    },
  },
  ...idTokenClaimMutants(),
  {
    id: 'sec-userinfo-other-sub',
    kind: 'mutant',
    clause: 'auth.sec.userinfo.sub',
    fault: 'response-schema',
    description: "user info answers with another user's sub",
    options: viaWrap(
      mapResponse(isUserinfo, (res) => {
        if (res.status === 200 && isObject(res.body)) res.body.sub = 'auth0|another-user';
      }),
    ),
    probe: async (c) => {
      const t = (await passwordTokens(c, 'openid')).body;
      return (await c.request('GET', '/userinfo', { headers: { authorization: `Bearer ${t.access_token}` } })).body.sub;
    },
  },
  {
    id: 'sec-refresh-widens',
    kind: 'mutant',
    clause: 'auth.sec.refresh.no-widening',
    fault: 'auth-bypass',
    description: 'a refresh asking for more scope than was granted is answered with the wider scope',
    options: viaParts((d) => ({
      securityRules: {
        ...d.securityRules,
        refreshScope: (original, asked) =>
          asked === undefined ? { ok: true, scope: original } : { ok: true, scope: asked },
      },
    })),
    probe: async (c) => {
      const rt = (await passwordTokens(c, 'openid offline_access')).body.refresh_token;
      return (await refresh(c, rt, 'openid offline_access email')).status;
    },
  },
  {
    id: 'sec-token-cacheable',
    kind: 'mutant',
    clause: 'auth.sec.token.no-store',
    fault: 'response-schema',
    description: 'token answers carry no Cache-Control (nor Pragma): a cache may keep the tokens',
    options: viaWrap(
      mapResponse(isTokenRequest, (res) => {
        delete res.headers['cache-control'];
        delete res.headers.pragma;
      }),
    ),
    probe: async (c) => (await passwordTokens(c, 'openid')).headers['cache-control'] ?? null,
  },
  {
    id: 'sec-token-cacheable-client-credentials',
    kind: 'mutant',
    clause: 'auth.sec.token.no-store',
    fault: 'response-schema',
    fast: true,
    description:
      'client-credentials token answers alone carry no Cache-Control (nor Pragma); every other grant says no-store',
    options: viaWrap(
      mapResponse(
        (r) => isTokenRequest(r) && isObject(r.body) && r.body.grant_type === 'client_credentials',
        (res) => {
          delete res.headers['cache-control'];
          delete res.headers.pragma;
        },
      ),
    ),
    probe: async (c) => (await clientCredentials(c, 'post')).headers['cache-control'] ?? null,
  },
  {
    id: 'sec-pkce-downgrade',
    kind: 'mutant',
    clause: 'auth.sec.pkce.no-downgrade',
    fault: 'auth-bypass',
    description: 'a code issued without code_challenge is redeemed although the token request brings a code_verifier',
    options: viaParts((d) => ({ verifyPkce: pkcePassedWhen(d, (stored) => stored === undefined) })),
    probe: async (c) => (await postExchange(c, { code_verifier: VERIFIER })).status,
  },
  {
    id: 'sec-code-downgrade-and-no-redirect-uri',
    kind: 'mutant',
    clause: 'auth.sec.pkce.no-downgrade',
    fault: 'auth-bypass',
    // Issue 40, item 4: the downgrade spends the code, so the exchange without redirect_uri met a
    // dead code and was credited as refused; each is judged on a live code now, and both fail.
    description:
      "as a Python framework's server: a code issued without code_challenge is redeemed with a code_verifier, and a code is redeemed without the redirect_uri its request carried (auth.sec.code.redirect-uri-required too)",
    options: viaParts((d) => ({
      verifyPkce: pkcePassedWhen(d, (stored) => stored === undefined),
      securityRules: {
        ...d.securityRules,
        codeBindingFault: (grant, clientId, redirectUri) =>
          d.securityRules.codeBindingFault(grant, clientId, redirectUri ?? grant.redirectUri),
      },
    })),
    probe: async (c) => [
      (await postExchange(c, { code_verifier: VERIFIER })).status,
      (await postExchange(c, { redirect_uri: undefined })).status,
    ],
  },
  {
    id: 'sec-code-any-client',
    kind: 'mutant',
    clause: 'auth.sec.code.bound-client',
    fault: 'auth-bypass',
    description: 'an authorization code is redeemed by any client, not only the one it was issued to',
    options: viaParts((d) => ({
      securityRules: {
        ...d.securityRules,
        codeBindingFault: (grant, _client, redirectUri) =>
          d.securityRules.codeBindingFault(grant, grant.clientId, redirectUri),
      },
    })),
    probe: async (c) => (await postExchange(c, { client_id: A.IDM_PUBLIC_CLIENT_ID, client_secret: undefined })).status,
  },
  {
    id: 'sec-code-any-redirect-uri',
    kind: 'mutant',
    clause: 'auth.sec.code.bound-redirect-uri',
    fault: 'missing-validation',
    description:
      'an authorization code is redeemed with a redirect_uri other than the one of its authorization request',
    // Another redirect_uri only: one left out is still refused (that is attack-code-without-redirect-uri's
    // fault), which the suite sees now that each wrong exchange meets a live code (issue 40, item 4).
    options: viaParts((d) => ({
      securityRules: {
        ...d.securityRules,
        codeBindingFault: (grant, clientId, redirectUri) =>
          d.securityRules.codeBindingFault(grant, clientId, redirectUri === undefined ? undefined : grant.redirectUri),
      },
    })),
    probe: async (c) => (await postExchange(c, { redirect_uri: `${A.IDM_REDIRECT_URI}/other` })).status,
  },
  {
    id: 'sec-logout-prefix-return',
    kind: 'mutant',
    clause: 'auth.sec.logout.registered-only',
    fault: 'auth-bypass',
    description: 'logout redirects to any return URL that starts with a registered one (an open redirector)',
    options: viaParts((d) => ({
      securityRules: {
        ...d.securityRules,
        logoutReturnAllowed: (allowed, returnTo) => allowed.some((a) => returnTo.startsWith(a)),
      },
    })),
    probe: async (c) =>
      (
        await c.request('GET', '/v2/logout', {
          query: { client_id: A.IDM_PUBLIC_CLIENT_ID, returnTo: `${A.IDM_LOGOUT_RETURN_TO}/extra` },
        })
      ).status,
  },
];

export const SECURITY_BENIGN: Variant[] = [
  {
    id: 'benign-sec-token-cache-control-list',
    kind: 'benign',
    clause: 'auth.sec.token.pragma',
    fault: 'spec-silent',
    description: 'token answers say Cache-Control: private, no-cache, no-store, max-age=0 and carry no Pragma',
    options: viaWrap(
      mapResponse(isTokenRequest, (res) => {
        if (res.headers['cache-control'] !== undefined)
          res.headers['cache-control'] = 'private, no-cache, no-store, max-age=0';
        delete res.headers.pragma;
      }),
    ),
    probe: async (c) => (await passwordTokens(c, 'openid')).headers['cache-control'] ?? null,
  },
  {
    id: 'benign-sec-refresh-keeps-scope',
    kind: 'benign',
    clause: 'auth.sec.refresh.narrowing',
    fault: 'spec-silent',
    description: 'a refresh asking for fewer scopes is answered with the original scope (narrowing not offered)',
    options: viaParts((d) => ({
      securityRules: {
        ...d.securityRules,
        refreshScope: (original, asked) => {
          const scoped = d.securityRules.refreshScope(original, asked);
          return scoped.ok ? { ok: true, scope: original } : scoped;
        },
      },
    })),
    probe: async (c) => {
      const rt = (await passwordTokens(c, 'openid offline_access')).body.refresh_token;
      return (await refresh(c, rt, 'openid')).body.scope;
    },
  },
  {
    id: 'benign-sec-unregistered-redirect-page',
    kind: 'benign',
    clause: 'auth.sec.redirect-uri.answer',
    fault: 'spec-silent',
    description: 'an authorization request with an unregistered redirect URI is answered with an HTML error page',
    options: viaWrap(
      mapResponse(
        (r) => r.method === 'GET' && /^\/authorize\/?$/.test(r.path),
        (res): Res | undefined =>
          res.status === 400 && isObject(res.body) && /redirect_uri/.test(String(res.body.error_description))
            ? { status: 400, headers: { 'content-type': 'text/html; charset=utf-8' }, body: undefined }
            : undefined,
      ),
    ),
    probe: async (c) =>
      (
        await c.request('GET', '/authorize', {
          query: {
            response_type: 'code',
            client_id: A.IDM_POST_CLIENT_ID,
            redirect_uri: `${A.IDM_REDIRECT_URI}/extra`,
          },
        })
      ).headers['content-type'] ?? null,
  },
  {
    id: 'benign-sec-logout-unregistered-page',
    kind: 'benign',
    clause: 'auth.sec.logout.unregistered-answer',
    fault: 'spec-silent',
    description: 'logout with an unregistered return URL logs out and shows a page (200) instead of an error',
    options: viaWrap(
      mapResponse(isLogout, (res): Res | undefined =>
        res.status === 400
          ? { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: undefined }
          : undefined,
      ),
    ),
    probe: async (c) =>
      (
        await c.request('GET', '/v2/logout', {
          query: { client_id: A.IDM_PUBLIC_CLIENT_ID, returnTo: 'https://attacker.test/logged-out' },
        })
      ).status,
  },
];

/**
 * One ID-token claim got wrong, the token still signed by the tenant (the idTokenClaims part):
 * each proves one rule of the validation on the real flows. The probe reads the claim back.
 */
function idTokenClaimMutants(): Variant[] {
  type Seen = { claims: Record<string, unknown>; accessToken: string; origin: string };
  const cases: {
    id: string;
    description: string;
    change: (c: Record<string, unknown>) => void;
    /** What the probe reports: true where the reference tenant's token is right. */
    right: (s: Seen) => boolean;
  }[] = [
    {
      id: 'sec-id-token-other-audience',
      right: (s) => s.claims.aud === A.IDM_PUBLIC_CLIENT_ID,
      description: 'ID tokens name another audience than the client they are issued to',
      change: (c) => {
        c.aud = 'another-client';
      },
    },
    {
      id: 'sec-id-token-other-issuer',
      right: (s) => s.claims.iss === `${s.origin}/`,
      description: 'ID tokens name an issuer other than the one of the discovery document',
      change: (c) => {
        c.iss = `${String(c.iss)}other/`;
      },
    },
    {
      id: 'sec-id-token-expired',
      right: (s) => Number(s.claims.exp) > Date.now() / 1000,
      description: 'ID tokens are issued already expired (exp an hour ago)',
      change: (c) => {
        c.iat = Number(c.iat) - 7200;
        c.exp = Number(c.iat) + 3600;
      },
    },
    {
      id: 'sec-id-token-at-hash-wrong',
      right: (s) =>
        s.claims.at_hash === createHash('sha256').update(s.accessToken).digest().subarray(0, 16).toString('base64url'),
      description: 'the at_hash of an ID token issued beside an access token does not match it',
      change: (c) => {
        if (c.at_hash !== undefined) c.at_hash = 'AAAAAAAAAAAAAAAAAAAAAA';
      },
    },
  ];
  return cases.map(({ id, description, change, right }) => ({
    id,
    kind: 'mutant',
    clause: 'auth.sec.id-token.valid',
    fault: 'response-schema',
    description,
    options: viaParts((d) => ({
      idTokenClaims: (input) => {
        const claims = d.idTokenClaims(input);
        change(claims);
        return claims;
      },
    })),
    probe: async (c) => {
      const loc = await authorize(c, {
        response_type: 'id_token token',
        client_id: A.IDM_PUBLIC_CLIENT_ID,
        nonce: 'n',
      });
      const fragment = new URLSearchParams(loc?.hash.slice(1) ?? '');
      const idToken = fragment.get('id_token');
      if (!idToken) return null;
      return right({ claims: decodeJwt(idToken), accessToken: fragment.get('access_token') ?? '', origin: c.origin });
    },
  }));
}

// Wraps

/** Replaces the id_token of every token answer with `fn` of it. */
function rewriteIdToken(fn: (idToken: string) => Promise<string>): Wrap {
  return (next) => async (req) => {
    const res = await next(req);
    if (!isTokenRequest(req) || !isObject(res.body) || typeof res.body.id_token !== 'string') return res;
    return { ...res, body: { ...res.body, id_token: await fn(res.body.id_token) } };
  };
}

let foreignKey: ReturnType<typeof generateKeyPair> | null = null;

/** The same claims and header, signed by a key the tenant never published. */
async function resignWithForeignKey(idToken: string): Promise<string> {
  const { privateKey } = await (foreignKey ??= generateKeyPair('RS256'));
  const header = JSON.parse(Buffer.from(idToken.split('.')[0] ?? '', 'base64url').toString('utf8'));
  return new SignJWT(decodeJwt(idToken)).setProtectedHeader(header).sign(privateKey);
}

// Probe steps

/** The alg and whether the signature part is present, of the password grant's ID token. */
async function idTokenAlg(c: ProbeClient): Promise<string> {
  const idToken = String((await passwordTokens(c, 'openid')).body.id_token);
  const [h, , sig] = idToken.split('.');
  const header = JSON.parse(Buffer.from(h ?? '', 'base64url').toString('utf8')) as { alg?: string };
  // The foreign key's signature differs in every run; its length alone says nothing, so: verify.
  const jwks = (await c.request('GET', '/.well-known/jwks.json')).body;
  const verified = await jwtVerify(idToken, createLocalJWKSet(jwks)).then(
    () => 'verified',
    () => 'not verified',
  );
  return `${header.alg} ${sig ? 'signed' : 'unsigned'} ${verified}`;
}
