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
import { memoryJtiCache } from './auth/client-auth.ts';
import { DEFAULT_HOST, DEFAULT_RATE_LIMIT, defaultClients } from './config.ts';

export type * from './types.ts';
export { defaultLimits } from './limits.ts';
export { resourceServerValidators, UPDATE_FIELDS } from './validation/resource-server.ts';
export { experimentValidators } from './validation/experiment.ts';
export { defaultRules, RESOURCE_SERVER_FIELDS } from './rules.ts';
export { memoryStore, seedData } from './store.ts';
export { tokenBucketLimiter } from './ratelimit.ts';
export { memoryJtiCache } from './auth/client-auth.ts';
export { defaultClients, DEFAULT_RATE_LIMIT, DEFAULT_PORT, DEFAULT_HOST, DEV_PKJWT_PRIVATE_KEY_PATH } from './config.ts';
export { makeCheck } from './validation/engine.ts';

export async function startTenant(options: TenantOptions = {}): Promise<RunningTenant> {
  const host = options.host ?? DEFAULT_HOST;
  const transport = createTransport();
  const [port, signingKey] = await Promise.all([transport.listen(host, options.port ?? 0), newSigningKey()]);
  const listenUrl = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  const publicUrl = (options.publicUrl ?? listenUrl).replace(/\/+$/, '');

  // Defaults are fresh per tenant; validators and rules read the *final* limits, so
  // overriding `limits` alone moves every bound that uses it.
  let parts: TenantParts | undefined;
  const limits = () => (parts as TenantParts).limits;
  const now = () => Date.now();
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
    rateLimiter: tokenBucketLimiter(options.rateLimit ?? DEFAULT_RATE_LIMIT),
    jtiCache: memoryJtiCache(),
    now,
  };
  const overrides = typeof options.parts === 'function' ? options.parts(defaults) : (options.parts ?? {});
  parts = { ...defaults, ...overrides };
  const resolved = parts;

  const app = createApp({ parts: resolved, publicUrl, clients: options.clients ?? defaultClients(), signingKey });
  transport.setHandler(options.wrap ? options.wrap(app) : app, () => resolved.limits.maxBodyBytes);
  return { url: listenUrl, publicUrl, port, close: () => transport.close() };
}
