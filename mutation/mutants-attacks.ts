// Faulty and benign variants for the attack catalogue (lib/auth/attacks/): one per attack class,
// each the classic mistake behind it — a verifier that takes alg none, keys HMAC with the
// published public key, trusts a key the token carries or names, or skips an empty signature;
// a refresh token or one-time code taken unchecked, a refresh token any client may use, a code
// exchanged without its redirect_uri, an error redirect that drops the state, a 429 whose
// headers say the budget is untouched. The benign ones are choices the standards leave open.
import { createHmac, createPrivateKey, createPublicKey, randomUUID, type JsonWebKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  SignJWT,
  compactVerify,
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  importJWK,
  type JWK,
  type JWTPayload,
} from 'jose';
import type { AccessTokenClaims, TenantParts, TokenVerdict, TokenVerifier } from '../reference/src/index.ts';
import { defaultUsers } from '../reference/src/index.ts';
import { JWT_ATTACKS } from '../lib/auth/attacks/jwt.ts';
import { basicAuthorization } from '../lib/auth/methods/client-secret-basic.ts';
import { PASSWORDLESS_OTP_GRANT } from '../lib/auth/attacks/grants.ts';
import { isObject } from '../lib/values.ts';
import { DEV_AUTH, DEV_RESOURCES } from './suite.ts';
import { mapResponse } from './faults.ts';
import { authorize, passwordTokens, refresh, token } from './mutants-flows.ts';
import { clientCredentials, type ProbeClient } from './probes.ts';
import { viaParts, viaWrap, type Variant, type VariantContext } from './variant.ts';

const A = DEV_AUTH;
const anyRequest = (): boolean => true;

export const ATTACK_MUTANTS: Variant[] = [
  {
    id: 'attack-mgmt-alg-none',
    kind: 'mutant',
    fast: true,
    clause: 'auth.sec.jwt.unsigned',
    fault: 'auth-bypass',
    description:
      'the Management API takes a token whose header says alg none (any case), its claims unchecked by a signature',
    options: viaParts((d, ctx) => accepting(d, 'verifyAccessToken', ctx, async (t) => alg(t).toLowerCase() === 'none')),
    probe: async (c) => mgmtStatus(c, 'unsigned-NONE'),
  },
  {
    id: 'attack-mgmt-hmac-public-key',
    kind: 'mutant',
    fast: true,
    clause: 'auth.sec.jwt.alg-confusion',
    fault: 'auth-bypass',
    description:
      "the Management API verifies an HS256/384/512 token with the tenant's public key as the HMAC secret (PEM or JWK JSON)",
    options: viaParts((d, ctx) => accepting(d, 'verifyAccessToken', ctx, (t) => hmacWithOwnKey(t, ctx))),
    probe: async (c) => mgmtStatus(c, 'hmac-hs256-pem'),
  },
  {
    id: 'attack-mgmt-jku-trusted',
    kind: 'mutant',
    clause: 'auth.sec.jwt.remote-key',
    fault: 'auth-bypass',
    description: 'the Management API fetches the key a token names (jku, x5u) and verifies the token with it',
    options: viaParts((d, ctx) => accepting(d, 'verifyAccessToken', ctx, remoteKeyVerifies)),
    probe: async (c) => mgmtStatus(c, 'jku'),
  },
  {
    id: 'attack-mgmt-empty-signature',
    kind: 'mutant',
    clause: 'auth.sec.jwt.signature',
    fault: 'auth-bypass',
    description: 'the Management API takes a token whose signature segment is empty, its header and claims kept',
    options: viaParts((d, ctx) =>
      accepting(d, 'verifyAccessToken', ctx, async (t) => t.endsWith('.') && alg(t).toLowerCase() !== 'none'),
    ),
    probe: async (c) => mgmtStatus(c, 'signature-stripped'),
  },
  {
    id: 'attack-userinfo-embedded-jwk',
    kind: 'mutant',
    fast: true,
    clause: 'auth.sec.jwt.embedded-key',
    fault: 'auth-bypass',
    description: 'user info verifies a token with the key in its own jwk header',
    options: viaParts((d, ctx) => accepting(d, 'verifyUserToken', ctx, embeddedKeyVerifies)),
    probe: async (c) => {
      const t = (await passwordTokens(c, 'openid')).body?.access_token;
      const made = await JWT_ATTACKS.find((a) => a.id === 'embedded-jwk')!.make(String(t), {
        published: null,
        other: null,
      });
      return (await c.request('GET', '/userinfo', { headers: { authorization: `Bearer ${String(made)}` } })).status;
    },
  },
  {
    id: 'attack-userinfo-signature-unchecked',
    kind: 'mutant',
    clause: 'auth.method.bearer',
    fault: 'auth-bypass',
    // Issue 40, item 8: the one cause of every JWT attack user info takes. They are sent and
    // listed, and skipped naming auth.method.bearer (--exhaustive shows no second failure).
    description:
      'user info reads a token without checking its signature (its issuer and expiry only): one character changed, a foreign key, alg none are all taken',
    options: viaParts((d, ctx) => accepting(d, 'verifyUserToken', ctx, async () => true)),
    probe: async (c) => {
      const t = String((await passwordTokens(c, 'openid')).body?.access_token);
      const altered = `${t.slice(0, -10)}${t.at(-10) === 'A' ? 'B' : 'A'}${t.slice(-9)}`;
      return (await c.request('GET', '/userinfo', { headers: { authorization: `Bearer ${altered}` } })).status;
    },
  },
  {
    id: 'attack-assertion-hmac-client-key',
    kind: 'mutant',
    clause: 'auth.sec.jwt.alg-confusion',
    fault: 'auth-bypass',
    description: "a client assertion signed HS256 with the client's registered public key (PEM) as the secret is taken",
    options: viaParts((d) => ({
      verifyClientAssertion: async (assertion, client, expected) => {
        const pem = client.publicKeyPem;
        if (
          pem &&
          /^HS/.test(alg(assertion)) &&
          [pem, pem.replace(/\n$/, ''), `${pem.replace(/\n$/, '')}\n`].some((k) => hmacMatches(assertion, k))
        ) {
          const claims = decodeJwt(assertion) as { iss: string; sub: string; jti: string; exp: number };
          return { ok: true, claims };
        }
        return d.verifyClientAssertion(assertion, client, expected);
      },
    })),
    probe: async (c) => {
      const genuine = await new SignJWT({
        iss: A.IDM_PKJWT_CLIENT_ID,
        sub: A.IDM_PKJWT_CLIENT_ID,
        aud: `${c.origin}/`,
        jti: randomUUID(),
      })
        .setProtectedHeader({ alg: 'RS256' })
        .setIssuedAt()
        .setExpirationTime('2m')
        .sign(createPrivateKey(readFileSync(A.IDM_PKJWT_KEY_FILE, 'utf8')));
      const published = await exportJWK(createPublicKey(readFileSync(A.IDM_PKJWT_KEY_FILE, 'utf8')));
      const assertion = await JWT_ATTACKS.find((a) => a.id === 'hmac-hs256-pem')!.make(genuine, {
        published,
        other: null,
      });
      return (
        await token(c, {
          grant_type: 'client_credentials',
          client_id: A.IDM_PKJWT_CLIENT_ID,
          client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer',
          client_assertion: String(assertion),
          audience: `${c.origin}/api/v2/`,
        })
      ).status;
    },
  },
  {
    id: 'attack-refresh-unchecked',
    kind: 'mutant',
    fast: true,
    clause: 'auth.sec.refresh.forged',
    fault: 'auth-bypass',
    description: "a refresh token the tenant never issued is taken as the test user's, for the client presenting it",
    options: viaParts((d) => ({
      authStore: {
        ...d.authStore,
        getRefreshToken: (t) =>
          d.authStore.getRefreshToken(t) ?? {
            clientId: A.IDM_POST_CLIENT_ID,
            userId: testUserId(),
            scope: 'openid offline_access',
          },
      },
    })),
    probe: async (c) => (await refresh(c, 'made-up-refresh-token-0123456789')).status,
  },
  {
    id: 'attack-refresh-any-client',
    kind: 'mutant',
    clause: 'auth.sec.refresh.client-bound',
    fault: 'auth-bypass',
    description: 'a refresh token is taken from any client that authenticates, not only the one it was issued to',
    options: viaParts((d) => ({ securityRules: { ...d.securityRules, refreshBoundToClient: () => true } })),
    probe: async (c) => {
      const rt = (await passwordTokens(c, 'openid offline_access')).body?.refresh_token;
      return (
        await c.request('POST', '/oauth/token', {
          body: { grant_type: 'refresh_token', refresh_token: rt },
          headers: { authorization: basicAuthorization(A.IDM_BASIC_CLIENT_ID, A.IDM_BASIC_CLIENT_SECRET) },
        })
      ).status;
    },
  },
  {
    id: 'attack-code-without-redirect-uri',
    kind: 'mutant',
    fast: true,
    clause: 'auth.sec.code.redirect-uri-required',
    fault: 'missing-validation',
    description:
      'a code is exchanged without the redirect_uri its authorization request carried (another one is still refused)',
    options: viaParts((d) => ({
      securityRules: {
        ...d.securityRules,
        codeBindingFault: (grant, clientId, redirectUri) =>
          d.securityRules.codeBindingFault(grant, clientId, redirectUri ?? grant.redirectUri),
      },
    })),
    probe: async (c) => {
      const loc = await authorize(c, { response_type: 'code', client_id: A.IDM_POST_CLIENT_ID });
      const code = loc?.searchParams.get('code');
      return (
        await token(c, {
          grant_type: 'authorization_code',
          client_id: A.IDM_POST_CLIENT_ID,
          client_secret: A.IDM_POST_CLIENT_SECRET,
          code,
        })
      ).status;
    },
  },
  {
    id: 'attack-otp-any-code',
    kind: 'mutant',
    fast: true,
    clause: 'auth.sec.passwordless.otp-checked',
    fault: 'auth-bypass',
    description: 'the passwordless grant takes any one-time code for a known recipient',
    options: viaParts(() => ({ verifyOneTimeCode: () => ({ ok: true }) })),
    probe: async (c) =>
      (
        await token(c, {
          grant_type: PASSWORDLESS_OTP_GRANT,
          client_id: A.IDM_PUBLIC_CLIENT_ID,
          username: A.IDM_TEST_USERNAME,
          otp: '000000',
          realm: 'email',
        })
      ).status,
  },
  {
    id: 'attack-error-redirect-drops-state',
    kind: 'mutant',
    fast: true,
    clause: 'auth.sec.error-redirect.state',
    fault: 'missing-validation',
    description: 'an error redirect to the client leaves out the state the request sent',
    options: viaWrap((next) => async (req) => {
      const res = await next(req);
      const location = res.headers.location;
      if (res.status < 300 || res.status >= 400 || !location || !/[?#&]error=/.test(location)) return res;
      const u = new URL(location);
      u.searchParams.delete('state');
      const fragment = new URLSearchParams(u.hash.slice(1));
      fragment.delete('state');
      u.hash = fragment.toString();
      return { ...res, headers: { ...res.headers, location: u.href } };
    }),
    probe: async (c) => {
      const ex = await c.request('GET', '/authorize', {
        query: {
          response_type: 'idm_probe',
          client_id: A.IDM_POST_CLIENT_ID,
          redirect_uri: A.IDM_REDIRECT_URI,
          state: 'probe-state',
        },
      });
      return ex.headers.location ?? null;
    },
  },
  {
    id: 'ratelimit-429-remaining-untouched',
    kind: 'mutant',
    clause: 'ratelimit.429.remaining-spent',
    fault: 'rate-limit',
    description: 'a 429 reports X-RateLimit-Remaining equal to X-RateLimit-Limit (an untouched budget)',
    options: viaWrap(
      mapResponse(anyRequest, (res) =>
        res.status === 429 && res.headers['x-ratelimit-limit'] !== undefined
          ? { ...res, headers: { ...res.headers, 'x-ratelimit-remaining': res.headers['x-ratelimit-limit'] } }
          : res,
      ),
    ),
    probe: async (c) => {
      const seen = await c.burst(400);
      const last = seen[seen.length - 1];
      return last?.status === 429
        ? `${last.headers['x-ratelimit-remaining']}/${last.headers['x-ratelimit-limit']}`
        : null;
    },
  },
];

export const ATTACK_BENIGN: Variant[] = [
  {
    id: 'benign-refresh-rotation',
    kind: 'benign',
    fast: true,
    clause: null,
    fault: 'spec-silent',
    description:
      'refresh tokens rotate: every refresh answer carries a new one and the one used is refused after (RFC 9700 §4.14.2)',
    options: () => ({ refreshRotation: true }),
    grep: ['auth.flow.refresh', 'auth.sec.refresh.forged', 'auth.sec.refresh.no-widening'],
  },
  {
    id: 'benign-userinfo-token-in-query',
    kind: 'benign',
    clause: null,
    fault: 'spec-silent',
    description: 'user info also takes the access token in the access_token query parameter (RFC 6750 §2.3)',
    options: viaWrap((next) => async (req) => {
      const q = new URLSearchParams(req.query);
      const t = q.get('access_token');
      if (req.method !== 'GET' || !/^\/userinfo\/?$/.test(req.path) || !t || req.headers.authorization)
        return next(req);
      q.delete('access_token');
      return next({ ...req, query: q.toString(), headers: { ...req.headers, authorization: `Bearer ${t}` } });
    }),
    grep: ['auth.method.bearer', 'auth.flow.userinfo'],
  },
  {
    id: 'benign-ratelimit-reset-seconds',
    kind: 'benign',
    clause: 'ratelimit.values',
    fault: 'spec-silent',
    description: 'X-RateLimit-Reset says the seconds to wait, not an epoch time',
    options: viaWrap(
      mapResponse(anyRequest, (res) => {
        const reset = Number(res.headers['x-ratelimit-reset']);
        if (!Number.isFinite(reset) || reset < 1e9) return res;
        const wait = Math.max(0, Math.ceil(reset - Date.now() / 1000));
        return { ...res, headers: { ...res.headers, 'x-ratelimit-reset': String(wait) } };
      }),
    ),
    grep: ['ratelimit.enforced', 'ratelimit.429.remaining-spent', 'auth.error.429'],
  },
];

// Helpers

type Verifier = 'verifyAccessToken' | 'verifyUserToken';

/** The tenant's verifier, and a token it refused taken after all when `take` says so (claims unchanged). */
function accepting(
  d: TenantParts,
  which: Verifier,
  ctx: VariantContext,
  take: (token: string) => Promise<boolean>,
): Partial<TenantParts> {
  const verify: TokenVerifier = d[which];
  return {
    [which]: async (token: string): Promise<TokenVerdict> => {
      const v = await verify(token);
      if (v.ok || !(await safely(() => take(token))) || !fresh(token, ctx)) return v;
      return { ok: true, claims: decodeJwt(token) as AccessTokenClaims };
    },
  };
}

async function safely(f: () => Promise<boolean>): Promise<boolean> {
  try {
    return await f();
  } catch {
    return false;
  }
}

/** The claims a genuine token would have: this tenant's issuer, not expired. */
function fresh(token: string, ctx: VariantContext): boolean {
  try {
    const c: JWTPayload = decodeJwt(token);
    return c.iss === `${ctx.publicUrl}/` && typeof c.exp === 'number' && c.exp * 1000 > Date.now();
  } catch {
    return false;
  }
}

function alg(token: string): string {
  try {
    return String(decodeProtectedHeader(token).alg ?? '');
  } catch {
    return '';
  }
}

function hmacMatches(token: string, secret: string): boolean {
  const cut = token.lastIndexOf('.');
  const a = alg(token);
  if (!/^HS(256|384|512)$/.test(a)) return false;
  const mac = createHmac(a.replace('HS', 'sha'), secret).update(token.slice(0, cut)).digest('base64url');
  return mac === token.slice(cut + 1);
}

/** HMAC keyed with this tenant's published key, as PEM (with or without its newline) or its JWK JSON. */
async function hmacWithOwnKey(token: string, ctx: VariantContext): Promise<boolean> {
  const set = (await (await fetch(`${ctx.publicUrl}/.well-known/jwks.json`)).json()) as { keys: JWK[] };
  return set.keys.some((jwk) => {
    const pem = createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' })
      .export({ type: 'spki', format: 'pem' })
      .toString();
    return [pem, pem.replace(/\n$/, ''), JSON.stringify(jwk)].some((k) => hmacMatches(token, k));
  });
}

async function embeddedKeyVerifies(token: string): Promise<boolean> {
  const jwk = decodeProtectedHeader(token).jwk;
  if (!jwk) return false;
  await compactVerify(token, await importJWK(jwk, 'RS256'));
  return true;
}

async function remoteKeyVerifies(token: string): Promise<boolean> {
  const h = decodeProtectedHeader(token);
  if (typeof h.jku === 'string') {
    const set = (await (await fetch(h.jku)).json()) as { keys: JWK[] };
    const jwk = set.keys.find((k) => k.kid === h.kid) ?? set.keys[0];
    if (!jwk) return false;
    await compactVerify(token, await importJWK(jwk, 'RS256'));
    return true;
  }
  if (typeof h.x5u === 'string') {
    await compactVerify(token, createPublicKey(await (await fetch(h.x5u)).text()));
    return true;
  }
  return false;
}

function testUserId(): string {
  const u = defaultUsers().find((x) => x.username === A.IDM_TEST_USERNAME);
  if (!u) throw new Error('mutation: the test user is not among the reference tenant’s users');
  return u.userId;
}

/** PATCH {} on the resource server with the full client's token made into `attack`: the status. */
async function mgmtStatus(c: ProbeClient, attack: string): Promise<number> {
  const issued = await clientCredentials(c, 'full', { audience: `${c.origin}/api/v2/` });
  const genuine = String(isObject(issued.body) ? issued.body.access_token : '');
  const set = (await c.request('GET', '/.well-known/jwks.json')).body as { keys: JWK[] };
  const made = await JWT_ATTACKS.find((a) => a.id === attack)!.make(genuine, {
    published: set.keys[0] ?? null,
    other: null,
  });
  return (
    await c.request('PATCH', `/api/v2/resource-servers/${DEV_RESOURCES.IDM_RESOURCE_SERVER_ID}`, {
      body: {},
      headers: { authorization: `Bearer ${String(made)}` },
    })
  ).status;
}
