// The reference tenant as other certified servers behave (issue 24). Benign: where the spec,
// or the standard it names, leaves the choice to the server — a wider refresh scope ignored, the
// issuer the only client-assertion audience, an unreadable authorization request sent to the
// tenant's own error page, opaque access tokens, a login refused while another of the same user
// is in flight. Faulty: a self-signed mTLS certificate matched by its subject DN alone. Built
// from the tenant's named parts and HTTP wraps; reference/ is never edited.
import { X509Certificate, createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { TenantParts } from '../reference/src/index.ts';
import { sameNamesFreshKey } from '../lib/auth/near-certificate.ts';
import { isObject } from '../lib/values.ts';
import { sleep } from '../lib/lock.ts';
import { htmlRes, isTokenRequest, jsonRes, toTenantWrap, type Req, type Res, type Wrap } from './exchange.ts';
import { compose, mapResponse } from './faults.ts';
import { byManagementClient, withAssertion } from './mutants-auth.ts';
import { passwordTokens, refresh } from './mutants-flows.ts';
import { DEV_AUTH } from './suite.ts';
import { viaParts, viaWrap, type Variant } from './variant.ts';
import type { ProbeClient } from './probes.ts';

const A = DEV_AUTH;
const isAuthorize = (r: Req): boolean => r.method === 'GET' && /^\/authorize\/?$/.test(r.path);
const isLoginForm = (r: Req): boolean => r.method === 'POST' && /^\/u\/login\/?$/.test(r.path);

/** A refresh asking beyond its grant: what was answered, and the scope it states. */
export async function widerRefresh(c: ProbeClient): Promise<{ status: number; scope: unknown }> {
  const rt = (await passwordTokens(c, 'openid offline_access')).body.refresh_token;
  const wider = await refresh(c, rt, 'openid offline_access email');
  return { status: wider.status, scope: wider.body.scope ?? null };
}

export const SERVER_MUTANTS: Variant[] = [
  {
    id: 'servers-mtls-self-signed-dn-only',
    kind: 'mutant',
    fast: true,
    clause: 'auth.method.mtls.key-bound',
    fault: 'auth-bypass',
    description:
      'a self-signed mTLS client is matched by the subject DN of its certificate alone: the same name over another key is accepted',
    options: viaParts((d) => ({
      checkMtlsEdge: (headers, client, apiKey) => {
        const v = d.checkMtlsEdge(headers, client, apiKey);
        if (
          v.ok ||
          v.reason !== 'certificate-mismatch' ||
          client.tokenEndpointAuthMethod !== 'self_signed_tls_client_auth'
        )
          return v;
        const presented = certificate(headers['client-certificate'] ?? '');
        const registered = certificate(client.certificatePem ?? '');
        if (presented === null || registered === null || presented.subject !== registered.subject) return v;
        return { ok: true, x5tS256: createHash('sha256').update(presented.raw).digest('base64url') };
      },
    })),
    probe: async (c) => {
      const near = sameNamesFreshKey(readFileSync(A.IDM_MTLS_CERT_FILE, 'utf8'));
      return (
        await c.request('POST', '/oauth/token', {
          body: { grant_type: 'client_credentials', client_id: A.IDM_MTLS_CLIENT_ID, audience: '/api/v2/' },
          headers: {
            'cname-api-key': A.IDM_MTLS_API_KEY,
            'client-certificate': encodeURIComponent(near.pem),
            'client-certificate-ca-verified': 'SUCCESS',
          },
        })
      ).status;
    },
  },
];

export const SERVER_BENIGN: Variant[] = [
  {
    id: 'servers-refresh-wider-scope-ignored',
    kind: 'benign',
    fast: true,
    clause: 'auth.sec.refresh.wider-answer',
    grep: ['auth.sec.refresh.no-widening'],
    fault: 'spec-silent',
    description:
      'a refresh asking beyond the grant is answered 200 with the original scope, the wider one ignored (RFC 6749 §3.3)',
    options: viaParts((d) => ({
      securityRules: {
        ...d.securityRules,
        refreshScope: (original, asked) => {
          const scoped = d.securityRules.refreshScope(original, asked);
          return scoped.ok ? scoped : { ok: true, scope: original };
        },
      },
    })),
    probe: widerRefresh,
  },
  {
    id: 'servers-assertion-audience-issuer-only',
    kind: 'benign',
    fast: true,
    clause: null,
    grep: ['auth.method.client-assertion'],
    fault: 'spec-silent',
    description:
      'client assertions are accepted only for the issuer (<public URL>/), not the token endpoint URL (RFC 7523 §3: any value that identifies the server)',
    options: viaParts((d, ctx) => ({
      verifyClientAssertion: (assertion, client, expected) =>
        d.verifyClientAssertion(assertion, client, { ...expected, audiences: [`${ctx.publicUrl}/`] }),
    })),
    // The probe's valid assertion names the token endpoint: accepted by the reference only.
    probe: async (c) => (await withAssertion(c, 'valid')).status,
  },
  {
    id: 'servers-authorize-error-page',
    kind: 'benign',
    fast: true,
    clause: null,
    grep: ['auth.api.get-query'],
    fault: 'spec-silent',
    description:
      'an authorization request the tenant cannot read (no parameters, no or an unknown client) is redirected (302) to its own error page, /error?error=… on its own origin (RFC 6749 §4.1.2.1)',
    options: viaWrap(compose(unreadableToErrorPage(), errorPage())),
    probe: async (c) => {
      const seen = await c.request('GET', '/authorize');
      return { status: seen.status, location: seen.headers.location ?? null };
    },
  },
  {
    id: 'servers-opaque-access-tokens',
    kind: 'benign',
    clause: 'auth.method.bearer.token-format',
    grep: ['auth.method.bearer'],
    fault: 'spec-silent',
    description:
      "access tokens of the authentication API's clients and users are opaque random strings the tenant keeps in a map (RFC 6749 §1.4); management clients keep JWTs (§5.1)",
    options: () => opaqueTokens(),
    probe: async (c) => {
      const t = (await passwordTokens(c, 'openid')).body.access_token;
      const info = await c.request('GET', '/userinfo', { headers: { authorization: `Bearer ${t}` } });
      return { segments: String(t).split('.').length, userinfo: info.status };
    },
  },
  {
    id: 'servers-concurrent-login-refused',
    kind: 'benign',
    // Each login holds the tenant 300 ms: the whole catalogue only. The suite serialises one user's
    // logins across workers (lib/auth/one-login.ts); before it did, the verdict of two workers
    // depended on how their logins fell (a false alarm on a different clause in each of two runs).
    slow: true,
    clause: null,
    fault: 'spec-silent',
    description:
      "a user's login is refused (400 invalid_grant, as a wrong password) while another login of the same user is in progress; each password check takes 300 ms",
    options: viaWrap(oneLoginAtATime(300)),
    probe: async (c) => {
      const both = await Promise.all([passwordTokens(c, 'openid'), passwordTokens(c, 'openid')]);
      return both.map((s) => s.status).sort();
    },
  },
];

// Wraps and parts

/** The Name-bearing parse of a certificate header (URL-encoded PEM) or a registered PEM. */
function certificate(text: string): X509Certificate | null {
  try {
    return new X509Certificate(text.includes('%') ? decodeURIComponent(text) : text);
  } catch {
    return null;
  }
}

/** The reference answers an unreadable /authorize 400 JSON: this answers 302 to /error?… instead. */
/** Sends an authorization request the tenant cannot read to the error page at `errorOrigin` (default: its own). */
export function unreadableToErrorPage(errorOrigin = ''): Wrap {
  return mapResponse(isAuthorize, (res): Res | undefined => {
    const description = isObject(res.body) ? String(res.body.error_description ?? '') : '';
    if (res.status !== 400 || !/client_id|Unknown client/.test(description)) return undefined;
    const error = isObject(res.body) ? String(res.body.error ?? 'invalid_request') : 'invalid_request';
    const q = new URLSearchParams({ error, error_description: description });
    return { status: 302, headers: { location: `${errorOrigin}/error?${q.toString()}` }, body: undefined };
  });
}

/** GET /error: the page a person sees. */
export function errorPage(): Wrap {
  return (next) => async (req) => {
    if (req.method !== 'GET' || !/^\/error\/?$/.test(req.path)) return next(req);
    const html = '<!doctype html><title>Error</title><p>This request cannot be served.</p>';
    return htmlRes(200, html);
  };
}

/**
 * Opaque access tokens: every access token leaving the token endpoint (or a login's redirect)
 * for a client other than the management ones is swapped for a random string mapped to the
 * tenant's JWT; the verifiers look the string up; at_hash is computed over the string.
 */
function opaqueTokens(): ReturnType<Variant['options']> {
  const jwtOf = new Map<string, string>();
  const opaqueOf = new Map<string, string>();
  const opaque = (jwt: string): string => {
    let o = opaqueOf.get(jwt);
    if (o === undefined) {
      o = randomBytes(32).toString('base64url');
      opaqueOf.set(jwt, o);
      jwtOf.set(o, jwt);
    }
    return o;
  };
  const swapInBody = mapResponse(
    (r) => isTokenRequest(r) && !byManagementClient(r),
    (res) => {
      if (res.status === 200 && isObject(res.body) && typeof res.body.access_token === 'string')
        res.body.access_token = opaque(res.body.access_token);
    },
  );
  const swapInRedirect = mapResponse(isLoginForm, (res) => {
    const location = res.headers.location;
    if (location === undefined || !location.includes('access_token=')) return;
    const u = new URL(location);
    const fragment = new URLSearchParams(u.hash.slice(1));
    fragment.set('access_token', opaque(fragment.get('access_token') ?? ''));
    u.hash = fragment.toString();
    res.headers.location = u.toString();
  });
  return {
    wrap: toTenantWrap(compose(swapInBody, swapInRedirect)),
    parts: (d: TenantParts) => ({
      idTokenClaims: (input) =>
        d.idTokenClaims(input.accessToken === undefined ? input : { ...input, accessToken: opaque(input.accessToken) }),
      verifyUserToken: (t) => d.verifyUserToken(jwtOf.get(t) ?? t),
      verifyAccessToken: (t) => d.verifyAccessToken(jwtOf.get(t) ?? t),
    }),
  };
}

const WRONG = 'Wrong email or password.';

/** One login per user at a time: a second one while the first is in flight is refused as a wrong password. */
function oneLoginAtATime(holdMs: number): Wrap {
  const inFlight = new Set<string>();
  return (next) => async (req) => {
    const body = isObject(req.body) ? req.body : {};
    const password = isTokenRequest(req) && body.grant_type === 'password';
    if ((!password && !isLoginForm(req)) || typeof body.username !== 'string') return next(req);
    const user = body.username.toLowerCase();
    if (inFlight.has(user)) {
      // What the reference answers a wrong password, at each door.
      if (!isLoginForm(req)) return jsonRes(400, { error: 'invalid_grant', error_description: WRONG });
      return req.form
        ? htmlRes(401, `<!doctype html><title>Log in</title><p role="alert">${WRONG}</p>`)
        : jsonRes(401, { error: 'invalid_grant', error_description: WRONG });
    }
    inFlight.add(user);
    try {
      await sleep(holdMs);
      return await next(req);
    } finally {
      inFlight.delete(user);
    }
  };
}
