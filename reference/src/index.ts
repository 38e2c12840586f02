// Public entry of the reference tenant. `startTenant` runs it; the mutation harness builds
// faulty variants through `options.parts` (replace named parts) and `options.wrap` (wrap
// the HTTP-level handler) without editing anything under reference/src.
import type { RunningTenant, TenantOptions, TenantParts } from './types.ts';
import { createTransport } from './transport.ts';
import { createApp } from './app.ts';
import { defaultLimits } from './limits.ts';
import { resourceServerValidators } from './validation/resource-server.ts';
import { experimentValidators } from './validation/experiment.ts';
import { defaultRules } from './rules.ts';
import { memoryStore, seedData } from './store.ts';
import { tokenBucketLimiter } from './ratelimit.ts';
import { accessTokenVerifier, newSigningKey } from './auth/access-token.ts';
import { clientAuthenticator, memoryJtiCache } from './auth/client-auth.ts';
import { assertionVerifier } from './auth/assertion.ts';
import { mtlsEdgeCheck } from './auth/mtls.ts';
import { verifyPkce } from './auth/pkce.ts';
import { passwordCheck } from './auth/users.ts';
import { memoryLoginLimiter } from './auth/login-limit.ts';
import { memoryAuthStore } from './auth/auth-store.ts';
import { oauthError } from './errors.ts';
import { strictLimiter, strictProfile } from './profiles/strict.ts';
import { securityRules } from './auth/security-rules.ts';
import { idTokenClaims } from './auth/id-token-claims.ts';
import { oneTimeCodeVerifier } from './auth/one-time-code.ts';
import { defaultResourceTokenChoices, resourceTokenSettings } from './auth/resource-settings.ts';
import { keyRing } from './auth/signing-keys.ts';
import { memoryNonceStore } from './auth/dpop.ts';
import {
  DEFAULT_HOST,
  DEFAULT_RATE_LIMIT,
  DEV_EDGE_API_KEY,
  defaultClientGrants,
  defaultClients,
  defaultUsers,
  loginProfile,
  revocationOf,
} from './config.ts';

export type * from './types.ts';
export { defaultLimits } from './limits.ts';
export { resourceServerValidators, UPDATE_FIELDS } from './validation/resource-server.ts';
export { experimentValidators } from './validation/experiment.ts';
export { defaultRules, RESOURCE_SERVER_FIELDS } from './rules.ts';
export { memoryStore, seedData } from './store.ts';
export { tokenBucketLimiter } from './ratelimit.ts';
export { memoryJtiCache, clientAuthenticator, ASSERTION_TYPE } from './auth/client-auth.ts';
export { assertionVerifier, ASSERTION_ALGS } from './auth/assertion.ts';
export { mtlsEdgeCheck } from './auth/mtls.ts';
export { verifyPkce } from './auth/pkce.ts';
export { passwordCheck } from './auth/users.ts';
export { memoryLoginLimiter, loginKey } from './auth/login-limit.ts';
export { memoryAuthStore } from './auth/auth-store.ts';
export { oneTimeCodeVerifier, PASSWORDLESS_OTP_GRANT } from './auth/one-time-code.ts';
export { oauthError } from './errors.ts';
export { resourceTokenSettings, defaultResourceTokenChoices } from './auth/resource-settings.ts';
export {
  defaultClientGrants,
  defaultClients,
  defaultUsers,
  DEFAULT_RATE_LIMIT,
  DEFAULT_PORT,
  DEFAULT_HOST,
  DEV_PKJWT_PRIVATE_KEY_PATH,
  DEV_MTLS_CERT_PATH,
  DEV_MTLS_CA_CERT_PATH,
  DEV_EDGE_API_KEY,
  DATABASE_CONNECTION,
  SAML_CONNECTION,
} from './config.ts';
export { makeCheck } from './validation/engine.ts';

export async function startTenant(options: TenantOptions = {}): Promise<RunningTenant> {
  const login = loginProfile(options.login); // a bad option fails before anything listens
  const revocation = revocationOf(options.revocationAnnounced);
  const host = options.host ?? DEFAULT_HOST;
  const transport = createTransport();
  const [port, signingKey] = await Promise.all([transport.listen(host, options.port ?? 0), newSigningKey()]);
  const listenUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const publicUrl = (options.publicUrl ?? listenUrl).replace(/\/+$/, '');

  // Defaults are fresh per tenant; validators and rules read the *final* limits, so
  // overriding `limits` alone moves every bound that uses it.
  let parts: TenantParts | undefined;
  const final = () => parts as TenantParts;
  const limits = () => final().limits;
  const now = () => Date.now();
  const clients = options.clients ?? defaultClients();
  const users = options.users ?? defaultUsers();
  const strict = options.profile === 'strict';
  const edgeApiKey = options.edgeApiKey ?? DEV_EDGE_API_KEY;
  const defaults: TenantParts = {
    limits: defaultLimits(),
    validators: { ...resourceServerValidators(limits), ...experimentValidators(limits) },
    rules: defaultRules(limits),
    store: memoryStore(seedData(publicUrl)),
    verifyAccessToken: accessTokenVerifier(
      signingKey,
      { issuer: `${publicUrl}/`, audience: `${publicUrl}/api/v2/` },
      () => (parts as TenantParts).now(),
    ),
    rateLimiter: strict
      ? strictLimiter(tokenBucketLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT))
      : tokenBucketLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT),
    jtiCache: memoryJtiCache(),
    now,
    authenticateClient: clientAuthenticator({
      parts: final,
      clients,
      assertionAudiences: [`${publicUrl}/`, `${publicUrl}/oauth/token`, `${publicUrl}/oauth/token/`],
      edgeApiKey,
    }),
    verifyClientAssertion: assertionVerifier(limits),
    checkMtlsEdge: mtlsEdgeCheck,
    verifyPkce,
    verifyUserToken: accessTokenVerifier(
      signingKey,
      { issuer: `${publicUrl}/`, audience: `${publicUrl}/userinfo` },
      () => final().now(),
    ),
    checkPassword: passwordCheck(users),
    loginLimiter: memoryLoginLimiter(limits),
    authStore: memoryAuthStore(() => final().now()),
    authError: oauthError,
    securityRules,
    idTokenClaims,
    verifyOneTimeCode: oneTimeCodeVerifier(final),
    resourceTokenSettings,
    resourceTokenChoices: defaultResourceTokenChoices(),
  };
  const overrides = typeof options.parts === 'function' ? options.parts(defaults) : (options.parts ?? {});
  parts = { ...defaults, ...overrides };
  const resolved = parts;

  const plain = createApp({
    parts: resolved,
    publicUrl,
    clients,
    users,
    signingKey,
    keys: keyRing(signingKey),
    clientGrants: options.clientGrants ?? defaultClientGrants(),
    edgeApiKey,
    dpopNonces: memoryNonceStore(() => resolved.limits.dpopNonceLifetimeSeconds),
    login,
    refreshRotation: options.refreshRotation ?? false,
    experiments: {
      uniqueNames: options.experiments?.uniqueNames ?? false,
      deletable: options.experiments?.deletable ?? false,
    },
    revocation,
  });
  const app = strict ? strictProfile(clients)(plain) : plain;
  transport.setHandler(options.wrap ? options.wrap(app) : app, () => resolved.limits.maxBodyBytes);
  return { url: listenUrl, publicUrl, port, close: () => transport.close() };
}
