// The Django OAuth Toolkit leg of the interop matrix (docs/interop.md): the Python OAuth 2.0 /
// OpenID Connect server of the Django framework, installed from PyPI into a virtual environment
// in the cache at pinned versions, run by gunicorn with a SQLite database and our Django project
// (project/): OIDC with an RSA key made per start, PKCE, refresh tokens, revocation, user info,
// discovery and RP-initiated logout; the login page is Django's own login view with the admin's
// login template, the consent and logout pages DOT's own, as shipped. The authorization endpoint
// sends an anonymous browser to the login page before it reads the request (LoginRequiredMixin).
import { randomBytes } from 'node:crypto';
import { type InteropLeg, type RunningServer, suiteEnv } from '../leg.ts';
import { DJANGO_VERSION, DOT_VERSION, prepareDot } from './install.ts';
import { type DotUser, startDot } from './server.ts';

/**
 * What the leg does not offer. DOT registers one grant type per application, and the suite's
 * confidential client (IDM_POST_CLIENT_*) is registered for the authorization code, which its code
 * flow and the code's binding rules need: so no client credentials for it. The password and
 * implicit grants are refused for every client (the RFC 9700 gates the leg turns on). None of the
 * service's own endpoints (passwordless, SAML, WS-Fed, delegation); no client assertion (its
 * discovery lists client_secret_post and client_secret_basic) and no mTLS edge, which follow from
 * the leg having no client for them (interop/leg.ts).
 */
const NOT_OFFERED = [
  'client-credentials',
  'password',
  'implicit',
  'passwordless',
  'saml',
  'wsfed',
  'delegation',
] as const;

const leg: InteropLeg = {
  name: 'django-oauth-toolkit',
  prepare: prepareDot,
  async start(portBase, log): Promise<RunningServer> {
    const started = Date.now();
    const users: [DotUser, DotUser] = [
      { username: 'interop-user@example.test', password: secret(), name: 'Interop User' },
      { username: 'interop-lockout@example.test', password: secret(), name: 'Interop Lockout' },
    ];
    const post = { id: 'interop-post', name: 'Interop Post', secret: secret() };
    // Characters RFC 6749 §2.3.1 form-encodes in the Basic header, so that rule is judged too.
    const basic = { id: 'interop-basic', name: 'Interop Basic', secret: `${secret()}:+ %&=` };
    const publicClient = { id: 'interop-spa', name: 'Interop SPA' };
    // A web app's URIs: the browser catches them, nothing resolves or listens there.
    const plan = {
      users,
      clients: [post, basic, publicClient],
      redirectUri: 'https://app.interop.test/callback',
      logoutReturnTo: 'https://app.interop.test/logged-out',
    };
    const dot = await startDot(portBase, plan);
    log(
      `django-oauth-toolkit ${DOT_VERSION} (Django ${DJANGO_VERSION}): ready on ${dot.issuer} in ${Math.round((Date.now() - started) / 1000)} s`,
    );
    const [user, lockout] = users;
    return {
      env: suiteEnv({
        authUrl: dot.issuer,
        clients: { post, basic },
        publicClientId: publicClient.id,
        user,
        lockout,
        redirectUri: plan.redirectUri,
        logoutReturnTo: plan.logoutReturnTo,
        notOffered: NOT_OFFERED,
      }),
      stop: dot.stop,
    };
  },
};
export default leg;

function secret(): string {
  return randomBytes(24).toString('base64url');
}
