// The realm the suite is pointed at, configured through the admin REST API as a tenant admin
// would: one client per way to authenticate Keycloak offers at its token endpoint (a secret in
// the body or in Basic, a signed assertion), a public client with PKCE, the two users, brute-force
// detection for the lockout user, and the login and consent pages as shipped (the default theme).
// Every secret is made up here, per start.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import type { Admin } from './admin.ts';

export const REALM = 'conformance';

export interface RealmPlan {
  /** The redirect URI every browser client registers (on loopback: the browser catches it, nothing listens). */
  redirectUri: string;
  /** The registered post-logout redirect URI. */
  logoutReturnTo: string;
  /** Where the private_key_jwt client's private key is written (owner-only). */
  keyFile: string;
}

export interface Realm {
  post: Credentials;
  basic: Credentials;
  pkjwtClientId: string;
  publicClientId: string;
  user: Credentials;
  lockout: Credentials;
}
interface Credentials {
  id: string;
  secret: string;
}

/** Brute-force detection as the admin console offers it, the failures lowered below the suite's default budget (12). */
const BRUTE_FORCE = {
  bruteForceProtected: true,
  permanentLockout: false,
  failureFactor: 5,
  waitIncrementSeconds: 60,
  maxFailureWaitSeconds: 900,
  maxDeltaTimeSeconds: 43_200,
  quickLoginCheckMilliSeconds: 1000,
  minimumQuickLoginWaitSeconds: 60,
};

export async function configureRealm(admin: Admin, plan: RealmPlan): Promise<Realm> {
  await admin.send('POST', '', { realm: REALM, enabled: true, ...BRUTE_FORCE });
  const browser = {
    standardFlowEnabled: true,
    redirectUris: [plan.redirectUri],
    attributes: { 'post.logout.redirect.uris': plan.logoutReturnTo },
  };
  const post = { id: 'interop-post', secret: secret() };
  await client(admin, {
    ...browser,
    clientId: post.id,
    publicClient: false,
    clientAuthenticatorType: 'client-secret',
    secret: post.secret,
    directAccessGrantsEnabled: true,
    serviceAccountsEnabled: true,
  });
  // Characters RFC 6749 §2.3.1 form-encodes in the Basic header, so that rule is judged too.
  const basic = { id: 'interop-basic', secret: `${secret()}:+ %&=` };
  await client(admin, {
    clientId: basic.id,
    publicClient: false,
    clientAuthenticatorType: 'client-secret',
    secret: basic.secret,
    standardFlowEnabled: false,
    serviceAccountsEnabled: true,
  });
  const pkjwtClientId = 'interop-pkjwt';
  await client(admin, {
    clientId: pkjwtClientId,
    publicClient: false,
    clientAuthenticatorType: 'client-jwt',
    standardFlowEnabled: false,
    serviceAccountsEnabled: true,
    attributes: { 'use.jwks.url': 'false', 'use.jwks.string': 'true', 'jwks.string': assertionKey(plan.keyFile) },
  });
  const publicClientId = 'interop-spa';
  await client(admin, {
    ...browser,
    clientId: publicClientId,
    publicClient: true,
    implicitFlowEnabled: true,
    // Keycloak asks consent only of the clients marked so, as an admin marks a third-party app; not
    // the confidential one, whose password grant Keycloak would then refuse ("Client requires user consent").
    consentRequired: true,
    attributes: { ...browser.attributes, 'pkce.code.challenge.method': 'S256' },
  });
  const user = { id: 'conformance-user@example.test', secret: secret() };
  const lockout = { id: 'conformance-lockout@example.test', secret: secret() };
  for (const u of [user, lockout]) await createUser(admin, u);
  return { post, basic, pkjwtClientId, publicClientId, user, lockout };
}

// Helpers

function secret(): string {
  return randomBytes(24).toString('base64url');
}

function client(admin: Admin, rep: Record<string, unknown>): Promise<unknown> {
  return admin.send('POST', `/${REALM}/clients`, { protocol: 'openid-connect', enabled: true, ...rep });
}

async function createUser(admin: Admin, u: Credentials): Promise<void> {
  const [local] = u.id.split('@');
  await admin.send('POST', `/${REALM}/users`, {
    username: u.id,
    email: u.id,
    emailVerified: true,
    // The default user profile asks for both names; without them the first login stops on a form.
    firstName: 'Interop',
    lastName: local,
    enabled: true,
    credentials: [{ type: 'password', value: u.secret, temporary: false }],
  });
}

/** An RSA key for the private_key_jwt client: the private half to an owner-only file, the public half as the client's JWKS. */
function assertionKey(keyFile: string): string {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  rmSync(keyFile, { force: true }); // a mode is set only on creation
  writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  const jwk = publicKey.export({ format: 'jwk' });
  return JSON.stringify({
    keys: [{ ...jwk, use: 'sig', alg: 'RS256', kid: `interop-${randomBytes(4).toString('hex')}` }],
  });
}

/**
 * Renders the login page and issues one token before the suite starts: the first of each on a
 * fresh JVM compiles its templates and code paths, which on a busy machine took longer than the
 * suite's per-request timeout (a stalled-response error in the first authorize request).
 */
export async function warmUp(realmUrl: string, plan: RealmPlan, realm: Realm): Promise<void> {
  const authorize = new URL(`${realmUrl}/protocol/openid-connect/auth`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: realm.publicClientId,
    redirect_uri: plan.redirectUri,
    scope: 'openid',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  }))
    authorize.searchParams.set(k, v);
  const page = await fetch(authorize);
  await page.text();
  const token = await fetch(`${realmUrl}/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: realm.post.id,
      client_secret: realm.post.secret,
    }),
  });
  await token.text();
  if (page.status !== 200 || token.status !== 200)
    throw new Error(
      `keycloak warm-up: the login page answered ${page.status}, a client_credentials grant ${token.status}`,
    );
}
