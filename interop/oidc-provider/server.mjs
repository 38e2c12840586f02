// The oidc-provider leg's server (interop/oidc-provider/leg.ts starts it with node): a Provider
// configured as a tenant admin would, from the settings leg.ts made up for this start. The
// package is the one leg.ts installed into interop/.cache/oidc-provider/, never a dependency of
// the suite. Its login and consent pages are the shipped development interactions, as shipped.
// The configuration (secrets included) comes in the environment, never on the command line.
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';

const config = JSON.parse(process.env.OIDC_LEG_CONFIG ?? 'null');
if (!config) throw new Error('OIDC_LEG_CONFIG is not set (interop/oidc-provider/leg.ts starts this server)');
const { default: Provider } = await import(pathToFileURL(config.module).href);

/** Every client can ask for what the suite's logins ask for (openid, offline_access, profile, email). */
const SCOPE = 'openid offline_access profile email';
const web = {
  redirect_uris: [config.redirectUri],
  post_logout_redirect_uris: [config.logoutReturnTo],
  response_types: ['code'],
  scope: SCOPE,
};
/** A confidential client: the code flow, refresh tokens and, where the Provider offers it, client credentials. */
const confidential = (client_id, method, own) => ({
  ...web,
  client_id,
  token_endpoint_auth_method: method,
  grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
  ...own,
});

const users = new Map(config.users.map((u) => [u.username, u]));

const provider = new Provider(config.issuer, {
  clients: [
    confidential(config.post.id, 'client_secret_post', { client_secret: config.post.secret }),
    confidential(config.basic.id, 'client_secret_basic', { client_secret: config.basic.secret }),
    confidential(config.pkjwt.id, 'private_key_jwt', { jwks: { keys: [config.pkjwt.publicJwk] } }),
    // A public client (no secret): the code flow with PKCE, refresh tokens through offline_access.
    {
      ...web,
      client_id: config.publicClientId,
      token_endpoint_auth_method: 'none',
      grant_types: ['authorization_code', 'refresh_token'],
    },
  ],
  // The two users of the suite; the shipped development login page signs in whatever login is typed.
  async findAccount(_ctx, id) {
    const user = users.get(id);
    if (!user) return undefined;
    return {
      accountId: id,
      claims: async () => ({ sub: id, email: id, email_verified: true, name: user.name }),
    };
  },
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  scopes: ['openid', 'offline_access', 'profile', 'email'],
  jwks: { keys: [config.signingJwk] },
  cookies: { keys: [randomBytes(32).toString('base64url')] },
  features: {
    devInteractions: { enabled: true },
    clientCredentials: { enabled: true },
    revocation: { enabled: true },
    userinfo: { enabled: true },
    rpInitiatedLogout: { enabled: true },
  },
});

const server = provider.listen(config.port, '127.0.0.1', () => {
  process.stdout.write(`listening ${config.issuer}\n`);
});
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => server.close(() => process.exit(0)));
