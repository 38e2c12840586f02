// The reference tenant in the shapes certified servers took when the suite was tried on them
// (issue 31): what one server does for every client, another does for some clients only. Benign:
// where the standard leaves the choice to the server. Faulty: the same rule kept for one kind of
// client and broken for the other, so that a suite judging one client only lets it through.
// Built from HTTP wraps; reference/ is never edited. Issue 40's shapes are the tenant's own login
// profiles and metadata options (reference/README.md): a server that logs the user in before it
// reads the request, consent controls the old selectors could not see, a consent remembered, a
// revocation endpoint announced in RFC 8414 metadata only.
import { isObject } from '../lib/values.ts';
import { isTokenRequest, jsonRes, toTenantWrap, type Req, type Res, type Wrap } from './exchange.ts';
import { compose, mapResponse } from './faults.ts';
import { errorPage, unreadableToErrorPage, widerRefresh } from './mutants-servers.ts';
import { withAssertion } from './mutants-auth.ts';
import { viaParts, viaWrap, type Variant } from './variant.ts';
import type { TenantParts } from '../reference/src/index.ts';

const field = (r: Req, name: string): string | undefined => {
  const v = isObject(r.body) ? r.body[name] : undefined;
  return typeof v === 'string' ? v : undefined;
};
/** A token request a client authenticated with its secret (in the body, or a Basic header). */
const bySecret = (r: Req): boolean =>
  field(r, 'client_secret') !== undefined || /^basic\s/i.test(r.headers.authorization ?? '');
const grantIs = (grant: string) => (r: Req) => isTokenRequest(r) && field(r, 'grant_type') === grant;

/**
 * A confidential client's refresh is answered with the scope it asks, whatever was granted:
 * the asked scope is kept from the tenant (which then issues the grant as it was) and the
 * answer states it, as a server that trusts confidential clients more would.
 */
const confidentialRefreshWidens: Wrap = (next) => async (req) => {
  const asked = field(req, 'scope');
  if (!grantIs('refresh_token')(req) || !bySecret(req) || asked === undefined) return next(req);
  const { scope: _, ...rest } = req.body as Record<string, unknown>;
  const res = await next({ ...req, body: rest });
  if (res.status === 200 && isObject(res.body)) res.body.scope = asked;
  return res;
};

const isLogout = (r: Req): boolean => r.method === 'GET' && /^\/v2\/logout\/?$/.test(r.path);
const hinted = (r: Req): boolean => new URLSearchParams(r.query).has('id_token_hint');
const loggedOutPage = (): Res => {
  const res = jsonRes(200, undefined, { 'content-type': 'text/html; charset=utf-8' });
  res.raw = {
    status: 200,
    headers: res.headers,
    body: Buffer.from('<!doctype html><title>Logged out</title><p>You are logged out.</p>\n'),
  };
  return res;
};

/**
 * A logout without `id_token_hint` ends at the tenant's own page, never at a return URL; with one,
 * `sendHinted` answers (OIDC RP-Initiated Logout 1.0 §2 makes the hint RECOMMENDED, and some
 * servers return to post_logout_redirect_uri only when it names the session).
 */
const logoutNeedsHint =
  (sendHinted: (req: Req, next: (r: Req) => Promise<Res>) => Promise<Res>): Wrap =>
  (next) =>
  async (req) => {
    if (!isLogout(req)) return next(req);
    return hinted(req) ? sendHinted(req, next) : loggedOutPage();
  };

/** Client assertions taken only for the token endpoint URL (OIDC Core §9's audience), never the issuer. */
const tokenEndpointAudience =
  (d: TenantParts): TenantParts['verifyClientAssertion'] =>
  (a, c, e) =>
    d.verifyClientAssertion(a, c, { ...e, audiences: e.audiences.filter((x) => /\/oauth\/token$/.test(x)) });

export const SHAPE_MUTANTS: Variant[] = [
  {
    id: 'shapes-refresh-widens-confidential',
    kind: 'mutant',
    fast: true,
    clause: 'auth.sec.refresh.no-widening',
    fault: 'auth-bypass',
    description:
      "a confidential client's refresh is granted the wider scope it asks; the public client's stays within its grant",
    options: viaWrap(confidentialRefreshWidens),
    probe: widerRefresh,
  },
  {
    id: 'shapes-assertion-token-endpoint-expired-taken',
    kind: 'mutant',
    fast: true,
    clause: 'auth.method.client-assertion.refused',
    fault: 'auth-bypass',
    description:
      'client assertions are taken only for the token endpoint URL, and one that expired up to twelve minutes ago is taken too',
    options: viaParts((d) => {
      const verify = tokenEndpointAudience(d);
      return {
        verifyClientAssertion: async (a, c, e) => {
          const v = await verify(a, c, e);
          return !v.ok && v.reason === 'expired' ? verify(a, c, { ...e, nowMs: e.nowMs - 720_000 }) : v;
        },
      };
    }),
    probe: async (c) => (await withAssertion(c, 'expired')).status,
  },
  {
    id: 'shapes-logout-hinted-open-redirect',
    kind: 'mutant',
    fast: true,
    clause: 'auth.sec.logout.registered-only',
    fault: 'auth-bypass',
    description:
      'a logout returns to a URL only with id_token_hint, and then to any URL: an open redirector for whoever holds an ID token',
    options: viaWrap(
      logoutNeedsHint(async (req) => {
        const returnTo = new URLSearchParams(req.query).get('returnTo');
        return returnTo === null ? loggedOutPage() : { status: 302, headers: { location: returnTo }, body: undefined };
      }),
    ),
    probe: async (c) =>
      (
        await c.request('GET', '/v2/logout', {
          query: { returnTo: 'https://attacker.test/', id_token_hint: 'any' },
        })
      ).status,
  },
];

/** The tenant's origin under the other loopback name: another origin (RFC 6454), the same server. */
const otherOrigin = (publicUrl: string): string => {
  const u = new URL(publicUrl);
  u.hostname = u.hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return u.origin;
};

const isConsent = (r: Req): boolean => /^\/u\/consent\/?$/.test(r.path);

/**
 * A consent page as a certified Java server ships it: one checkbox per scope, "Submit Consent"
 * and "Cancel" on their own indented lines; only the scopes ticked are granted, and a submit
 * with none ticked is a refusal (access_denied). The tenant's page is rewritten, and a posted
 * accept without a ticked scope becomes its decline.
 */
const checkboxConsent: Wrap = (next) => async (req) => {
  if (!isConsent(req)) return next(req);
  if (req.method === 'POST' && isObject(req.body)) {
    // The tenant's own form knows no scope fields (and refuses a repeated parameter): they stay here.
    const { scope, ...rest } = req.body;
    const decision = rest.decision === 'accept' && scope === undefined ? 'deny' : rest.decision;
    return next({ ...req, body: { ...rest, decision } });
  }
  const res = await next(req);
  const html = res.raw?.body.toString('utf8') ?? '';
  if (req.method !== 'GET' || !html.includes('name="decision"')) return res;
  const boxes = [...html.matchAll(/<li>([^<]+)<\/li>/g)]
    .map((m) => `\n      <label><input type="checkbox" name="scope" value="${m[1]}"> ${m[1]}</label>`)
    .join('');
  const page = html
    .replace(/<ul>[\s\S]*?<\/ul>/, '')
    .replace(
      /<button type="submit" name="decision" value="deny">Decline<\/button>\s*<button type="submit" name="decision" value="accept">Accept<\/button>/,
      `${boxes}\n      <button type="submit" name="decision" value="accept">\n        Submit Consent\n      </button>\n      <button type="submit" name="decision" value="deny">\n        Cancel\n      </button>`,
    );
  return { ...res, raw: { ...res.raw!, body: Buffer.from(page) } };
};

/**
 * An authorization request that does not accept HTML is an API client's, which a Java framework
 * answers 401 before any login page (a browser, accepting text/html, gets the page).
 */
const authorizeJson401: Wrap = (next) => async (req) => {
  const accept = (req.headers.accept ?? '').toLowerCase();
  if (req.method !== 'GET' || !/^\/authorize\/?$/.test(req.path) || accept.includes('text/html')) return next(req);
  return jsonRes(401, { error: 'unauthorized', error_description: 'Full authentication is required' });
};

/** The clause a consent page makes judgeable: the reference tenant's default shows none. */
const CONSENT_SHOWN = {
  apis: 'authentication',
  except: {
    'auth.sec.consent.denied': {
      status: 'passed',
      why: 'the reference tenant shows no consent page, so its decline is judged here only',
    },
  },
} as const;

/** A server shape held to the authentication half's default verdict, clause by clause: benign, fast, spec-silent. */
function shape(v: Pick<Variant, 'id' | 'description' | 'options'> & Partial<Variant>): Variant {
  return {
    kind: 'benign',
    fast: true,
    clause: null,
    fault: 'spec-silent',
    asDefault: { apis: 'authentication' },
    ...v,
  };
}

export const SHAPE_BENIGN: Variant[] = [
  shape({
    id: 'shapes-authorize-json-401',
    description:
      'GET /authorize without text/html in Accept is answered 401 (a browser gets the login page): the redirect-URI near misses are still judged',
    options: viaWrap(authorizeJson401),
  }),
  shape({
    id: 'shapes-error-page-other-origin',
    description:
      "an authorization request the tenant cannot read is redirected with error=… to an error page on another origin (a separate login app's), not to any client's redirect URI",
    options: (ctx) => ({ wrap: toTenantWrap(compose(unreadableToErrorPage(otherOrigin(ctx.publicUrl)), errorPage())) }),
  }),
  shape({
    id: 'shapes-consent-scope-checkboxes',
    asDefault: CONSENT_SHOWN,
    description:
      'the consent page has one checkbox per scope and "Submit Consent" / "Cancel" on indented lines; only ticked scopes are granted, none ticked is access_denied',
    options: () => ({ ...viaWrap(checkboxConsent)(), login: { consent: 'always' } }),
  }),
  shape({
    id: 'shapes-assertion-audience-token-endpoint-only',
    description:
      'client assertions are taken only for the token endpoint URL (OIDC Core §9), not the issuer (RFC 7523 §3: any value that identifies the server)',
    options: viaParts((d) => ({ verifyClientAssertion: tokenEndpointAudience(d) })),
  }),
  shape({
    id: 'shapes-logout-needs-id-token-hint',
    clause: 'auth.sec.logout.unregistered-answer',
    description:
      "a logout returns to its registered URL only with id_token_hint (OIDC RP-Initiated Logout 1.0 §2); without one it ends at the tenant's own page",
    options: viaWrap(logoutNeedsHint((req, next) => next(req))),
  }),
  shape({
    id: 'shapes-public-client-no-refresh',
    description:
      'a public client gets no refresh token from its code exchange (OAuth 2.1 §4.3.1 leaves it to the server); confidential clients do',
    options: viaWrap(
      mapResponse(
        (r) => grantIs('authorization_code')(r) && !bySecret(r),
        (res) => {
          if (isObject(res.body)) delete res.body.refresh_token;
        },
      ),
    ),
  }),
  shape({
    id: 'shapes-login-first',
    description:
      'the login comes before the authorization request is read (a session cookie): /authorize without it redirects to /u/login?next=… whatever it carries, and its errors, consent and code come after the login',
    options: () => ({ login: { loginFirst: true } }),
  }),
  shape({
    id: 'shapes-consent-input-submit',
    asDefault: CONSENT_SHOWN,
    description:
      'the consent page on every login has <input type=submit> controls, "Cancel" and "Authorize" (their labels are their values)',
    options: () => ({ login: { consent: 'always', consentControls: 'inputs' } }),
  }),
  shape({
    id: 'shapes-consent-nested-labels',
    asDefault: CONSENT_SHOWN,
    description:
      'the consent page on every login has buttons whose labels sit in a <span>: "Deny Access" and "Grant Access"',
    options: () => ({ login: { consent: 'always', consentControls: 'nested' } }),
  }),
  shape({
    id: 'shapes-consent-remembered',
    asDefault: CONSENT_SHOWN,
    description:
      'a consent is asked on a login asking a scope the user has not granted the client yet, remembered once accepted, and prompt=consent ignored (OIDC Core §3.1.2.1: SHOULD)',
    options: () => ({ login: { consent: 'remembered' } }),
  }),
  shape({
    id: 'shapes-consent-confidential-only',
    asDefault: CONSENT_SHOWN,
    description:
      "the consent page is shown to the confidential code-flow client only, never to the public one, as a tenant asking consent per application may be set up; a consent is remembered per client (prompt=consent ignored), so the confidential client's logins after its first show none",
    options: () => ({ login: { consent: 'remembered', consentTo: 'confidential' } }),
  }),
  shape({
    id: 'shapes-revocation-rfc8414-only',
    description:
      'the revocation endpoint is at /oauth2/revoke and announced in the RFC 8414 metadata only, not in the OpenID discovery document',
    options: () => ({ revocationAnnounced: 'rfc8414' }),
  }),
];
