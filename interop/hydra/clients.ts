// The OAuth 2.0 clients of the Hydra leg, created through the admin API as a tenant admin would:
// one per way to authenticate at the token endpoint Hydra offers (its discovery document lists
// client_secret_post, client_secret_basic, private_key_jwt and none), each with the grants the
// suite's flows need and the scopes its logins ask for. Every secret and key is made up here, per
// start; the private_key_jwt client's private key goes to an owner-only file.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import type { Admin } from './admin.ts';

/** What the suite's logins ask for; Hydra refuses a scope the client was not given. */
const SCOPE = 'openid offline_access profile email';

export interface ClientPlan {
  /** The issuer: the audience the confidential clients may ask tokens for is the API under it (the suite's IDM_AUDIENCE default). */
  issuer: string;
  redirectUri: string;
  logoutReturnTo: string;
  /** Where the private_key_jwt client's private key is written (owner-only). */
  keyFile: string;
}

export interface Clients {
  post: { id: string; secret: string };
  basic: { id: string; secret: string };
  pkjwtClientId: string;
  publicClientId: string;
}

export async function createClients(admin: Admin, plan: ClientPlan): Promise<Clients> {
  const browser = {
    redirect_uris: [plan.redirectUri],
    post_logout_redirect_uris: [plan.logoutReturnTo],
    scope: SCOPE,
  };
  // Code flow, refresh tokens (offline_access) and client credentials for the API the suite names.
  const confidential = {
    ...browser,
    grant_types: ['authorization_code', 'refresh_token', 'client_credentials'],
    response_types: ['code'],
    audience: [`${plan.issuer}/api/v2/`],
  };
  const post = { id: 'interop-post', secret: secret() };
  await create(admin, {
    ...confidential,
    client_id: post.id,
    client_secret: post.secret,
    token_endpoint_auth_method: 'client_secret_post',
  });
  // Characters RFC 6749 §2.3.1 form-encodes in the Basic header, so that rule is judged too.
  const basic = { id: 'interop-basic', secret: `${secret()}:+ %&=` };
  await create(admin, {
    ...confidential,
    client_id: basic.id,
    client_secret: basic.secret,
    token_endpoint_auth_method: 'client_secret_basic',
  });
  const pkjwtClientId = 'interop-pkjwt';
  await create(admin, {
    ...confidential,
    client_id: pkjwtClientId,
    token_endpoint_auth_method: 'private_key_jwt',
    token_endpoint_auth_signing_alg: 'RS256',
    jwks: { keys: [assertionKey(plan.keyFile)] },
  });
  // A public client: the code flow with PKCE (enforced for public clients), refresh tokens, and
  // the implicit grant (response_type=token), which Hydra offers per client.
  const publicClientId = 'interop-spa';
  await create(admin, {
    ...browser,
    client_id: publicClientId,
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token', 'implicit'],
    response_types: ['code', 'token'],
  });
  return { post, basic, pkjwtClientId, publicClientId };
}

// Helpers

function secret(): string {
  return randomBytes(24).toString('base64url');
}

async function create(admin: Admin, client: Record<string, unknown>): Promise<void> {
  await admin.send('POST', '/admin/clients', client);
}

/** An RSA key for the private_key_jwt client: the private half to an owner-only file, the public half as its JWK. */
function assertionKey(keyFile: string): Record<string, unknown> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  rmSync(keyFile, { force: true }); // a mode is set only on creation
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  return {
    ...publicKey.export({ format: 'jwk' }),
    use: 'sig',
    alg: 'RS256',
    kid: `interop-${randomBytes(4).toString('hex')}`,
  };
}
