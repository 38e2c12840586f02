// Target configuration: one code path for the embedded reference tenant and for any staging
// tenant. Settings come from the environment, then from an optional .env file (the
// environment wins). Every problem is an IdmError with a stable code (lib/errors.ts).
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { IdmError } from './errors.ts';

export type Depth = 'quick' | 'default' | 'deep';

/** Opt-ins for tests that are only safe by default against the embedded tenant. */
export const ALLOWANCES = {
  burst: 'fire a bounded request burst until the target answers 429',
  experiments: 'create experiments (the spec shows no way to delete them)',
  lifetime: 'lower token_lifetime below the original token_lifetime_for_web (the clamp cannot be undone)',
  irreversible: 'write resource-server fields the snapshot does not show (they cannot be restored)',
  passwordless: 'start passwordless logins (the target sends a real e-mail and SMS)',
  lockout: 'repeat failed logins of the lockout user until the §8 limit blocks it (it stays locked for a while)',
} as const;
export type Allowance = keyof typeof ALLOWANCES;

/**
 * The reference tenant started by Playwright's webServer when IDM_BASE_URL is unset, on
 * 4810 unless IDM_EMBEDDED_PORT moves it (a machine where 4810 is taken, two checkouts).
 */
const EMBEDDED_PORT = embeddedPort(process.env.IDM_EMBEDDED_PORT);
export const EMBEDDED = {
  host: '127.0.0.1',
  port: EMBEDDED_PORT,
  baseUrl: `http://127.0.0.1:${EMBEDDED_PORT}`,
  client: { id: 'conformance-full', secret: 'dev-secret-full-0123456789' },
  limited: { id: 'conformance-limited', secret: 'dev-secret-limited-0123456789' },
  resourceServerId: 'rs_conformance',
  featureFlagId: 'flg_7Hq2kPzR',
  variationIds: ['var_control', 'var_treatment'],
  /** The reference tenant takes any segment id string (reference/README.md). */
  segmentIds: ['seg_conformance_a', 'seg_conformance_b'],
  pkjwtClientId: 'conformance-pkjwt',
  pkjwtKeyFile: fileURLToPath(new URL('../reference/dev-keys/conformance-pkjwt.private.pem', import.meta.url)),
  // Authentication-API dev credentials of the reference tenant (documented, not secret).
  post: { id: 'conformance-post', secret: 'dev-secret-post-0123456789' },
  basic: { id: 'conformance-basic', secret: 'dev-secret:basic+0123456789 %&=' },
  publicClientId: 'conformance-spa',
  mtls: {
    id: 'conformance-mtls',
    apiKey: 'dev-cname-api-key-0123456789',
    certFile: fileURLToPath(new URL('../reference/dev-keys/conformance-mtls.cert.pem', import.meta.url)),
  },
  mtlsCa: {
    id: 'conformance-mtls-ca',
    certFile: fileURLToPath(new URL('../reference/dev-keys/conformance-mtls-ca.cert.pem', import.meta.url)),
  },
  user: {
    username: 'conformance-user@example.test',
    password: 'dev-password-0123456789!',
    connection: 'Username-Password-Authentication',
  },
  lockout: { username: 'conformance-lockout@example.test', password: 'dev-password-lockout-0123!' },
  redirectUri: 'https://app.conformance.test/callback',
  logoutReturnTo: 'https://app.conformance.test/logged-out',
  passwordlessEmail: 'conformance-user@example.test',
  passwordlessPhone: '+15555550100',
  samlConnection: 'conformance-saml',
} as const;

/** Authentication-API paths used when discovery does not list the endpoint and no IDM_*_PATH is set. */
export const AUTH_PATH_DEFAULTS = {
  authorize: '/authorize',
  userinfo: '/userinfo',
  revoke: '/oauth/revoke',
  passwordless: '/passwordless/start',
  logout: '/v2/logout',
  samlCallback: '/login/callback',
} as const;
export type AuthPath = keyof typeof AUTH_PATH_DEFAULTS;
/** The setting that overrides each authentication-API path (lib/auth-endpoints.ts names it in skips). */
export const AUTH_PATH_SETTINGS: Record<AuthPath, string> = {
  authorize: 'IDM_AUTHORIZE_PATH',
  userinfo: 'IDM_USERINFO_PATH',
  revoke: 'IDM_REVOKE_PATH',
  passwordless: 'IDM_PASSWORDLESS_PATH',
  logout: 'IDM_LOGOUT_PATH',
  samlCallback: 'IDM_SAML_CALLBACK_PATH',
};

/** An mTLS client behind the edge (§5.2): the custom-domain API key and its certificate (PEM file). */
export interface MtlsClient {
  id: string;
  apiKey: string;
  certFile: string;
}

export interface UserCredentials {
  username: string;
  password: string;
}

/**
 * The authentication API side (§4.3, §5.2, §8): one optional entry per way to authenticate.
 * null = not configured; the tests that need it are skipped naming the setting.
 */
export interface AuthConfig {
  /** `{auth_url}` of the spec (IDM_AUTH_URL, default the base URL). */
  url: string;
  /** Token endpoint of the authentication API: `<auth url><IDM_TOKEN_PATH>`. */
  tokenUrl: string;
  post: ClientCredentials | null;
  basic: ClientCredentials | null;
  publicClientId: string | null;
  mtls: MtlsClient | null;
  /** The mTLS client that needs client-certificate-ca-verified: SUCCESS (shares IDM_MTLS_API_KEY). */
  mtlsCa: MtlsClient | null;
  user: (UserCredentials & { connection: string | null }) | null;
  /** A user the §8 repeat-login test may lock (never the test user). */
  lockout: UserCredentials | null;
  /**
   * Failed logins the §8 test spends at most before it expects the block (IDM_LOCKOUT_ATTEMPTS):
   * the spec states the limit but not its value, so the budget is the user's to set.
   */
  lockoutAttempts: number;
  /** Named flows the tenant does not offer (IDM_NOT_OFFERED): their clauses are skipped, not failed. */
  notOffered: ReadonlySet<NamedFlow>;
  redirectUri: string | null;
  logoutReturnTo: string | null;
  passwordlessEmail: string | null;
  passwordlessPhone: string | null;
  samlConnection: string | null;
  /** Explicit path overrides (IDM_*_PATH); null = discovery, else AUTH_PATH_DEFAULTS. */
  paths: Record<AuthPath, string | null>;
  loginSelectors: { username: string; password: string; submit: string };
  /** Chromium binary for the browser flows (a missing one skips them, it is not a config error). */
  chromium: string;
}

// --- issue 16: IDM_NOT_OFFERED (one declaration; to be ported into the settings table) ----------
/** The named flows (§4.3) a tenant may switch off on purpose; IDM_NOT_OFFERED lists them. */
export const NAMED_FLOWS = ['password', 'implicit', 'passwordless', 'saml', 'wsfed', 'delegation'] as const;
export type NamedFlow = (typeof NAMED_FLOWS)[number];

function parseNotOffered(raw: string | undefined): ReadonlySet<NamedFlow> {
  const names = (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const unknown = names.filter((n) => !(NAMED_FLOWS as readonly string[]).includes(n));
  if (unknown.length > 0)
    throw new IdmError(
      'IDM_E_CONFIG_INVALID',
      `IDM_NOT_OFFERED lists ${unknown.join(', ')}; it takes a comma list of ${NAMED_FLOWS.join(', ')}`,
    );
  return new Set(names as NamedFlow[]);
}

/** The reason a not-offered flow's clauses are skipped with, or null when it is offered. */
export function notOfferedReason(cfg: Config, flow: NamedFlow): string | null {
  return cfg.auth.notOffered.has(flow) ? `not offered (IDM_NOT_OFFERED=${[...cfg.auth.notOffered].join(',')})` : null;
}
// --- end IDM_NOT_OFFERED -------------------------------------------------------------------------

export interface ClientCredentials {
  id: string;
  secret: string;
}

export interface Config {
  /** Tenant origin (may carry a path prefix when behind a proxy), no trailing slash. */
  baseUrl: string;
  /** `{base_url}` of the spec: `<baseUrl>/api/v2`. */
  apiBase: string;
  embedded: boolean;
  tokenUrl: string;
  audience: string;
  client: ClientCredentials;
  limited: ClientCredentials | null;
  resourceServerId: string;
  /** How the system resource server is addressed (its identifier by default). */
  systemResourceServerId: string;
  featureFlagId: string | null;
  variationIds: string[];
  strategyField: string;
  /** Segment ids for a creation under the `segment` strategy, in allocation order (empty: not configured). */
  segmentIds: string[];
  /** Values for experiment fields whose allowed values the spec does not show. */
  authenticationFlow: string;
  assignmentSubject: string;
  depth: Depth;
  /** Fixed by IDM_SEED; otherwise chosen once per run by the global setup. */
  seed: number | null;
  allow: ReadonlySet<Allowance>;
  /** Per-request timeout (ms). */
  timeoutMs: number;
  /** Requests kept in reserve per rate-limit bucket before the pacer waits for Reset. */
  pacingReserve: number;
  /** Optional tenant-signed expired management token for the expired-token case. */
  expiredToken: string | null;
  /** Whether the Early Access field authorization_policy is part of valid bodies (its acceptance is observed either way). */
  earlyAccess: boolean;
  /** A private_key_jwt client (§5.2 client assertion), optional. */
  pkjwt: { id: string; keyFile: string } | null;
  /** Authentication API: clients of each §5.2 method, test users, flow settings. */
  auth: AuthConfig;
  /** Where the optional .env was read from, if it was. */
  envFile: string | null;
}

export type Env = Record<string, string | undefined>;

/** Numbers of fast-check runs per property for each depth profile. */
export const DEPTH_RUNS: Record<Depth, { update: number; experiment: number }> = {
  quick: { update: 5, experiment: 2 },
  default: { update: 20, experiment: 5 },
  deep: { update: 100, experiment: 25 },
};

export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const { merged, envFile } = mergeEnvFile(env, cwd);
  return parseConfig(merged, envFile);
}

/** Values the redactor must hide wherever they appear. */
export function secretValues(cfg: Config): string[] {
  const out = [cfg.client.secret];
  if (cfg.limited) out.push(cfg.limited.secret);
  if (cfg.expiredToken) out.push(cfg.expiredToken);
  const a = cfg.auth;
  for (const c of [a.post, a.basic]) if (c) out.push(c.secret);
  if (a.mtls) out.push(a.mtls.apiKey);
  if (a.mtlsCa) out.push(a.mtlsCa.apiKey);
  if (a.user) out.push(a.user.password);
  if (a.lockout) out.push(a.lockout.password);
  return out.filter((s) => s.length >= 4);
}

export function parseConfig(env: Env, envFile: string | null = null): Config {
  const get = (name: string): string | undefined => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? undefined : v.trim();
  };
  const rawBase = get('IDM_BASE_URL');
  const embedded = rawBase === undefined;
  if (embedded && Number.isNaN(EMBEDDED.port)) {
    throw new IdmError(
      'IDM_E_CONFIG_INVALID',
      `IDM_EMBEDDED_PORT must be a port number (1-65535), got ${JSON.stringify(process.env.IDM_EMBEDDED_PORT)}`,
    );
  }
  const baseUrl = embedded ? EMBEDDED.baseUrl : parseBaseUrl(rawBase);

  const client = embedded
    ? { id: get('IDM_CLIENT_ID') ?? EMBEDDED.client.id, secret: get('IDM_CLIENT_SECRET') ?? EMBEDDED.client.secret }
    : { id: required(get, 'IDM_CLIENT_ID'), secret: required(get, 'IDM_CLIENT_SECRET') };

  const limitedId = get('IDM_LIMITED_CLIENT_ID');
  const limitedSecret = get('IDM_LIMITED_CLIENT_SECRET');
  if ((limitedId === undefined) !== (limitedSecret === undefined)) {
    const [set, unset] = limitedId
      ? ['IDM_LIMITED_CLIENT_ID', 'IDM_LIMITED_CLIENT_SECRET']
      : ['IDM_LIMITED_CLIENT_SECRET', 'IDM_LIMITED_CLIENT_ID'];
    throw new IdmError('IDM_E_CONFIG_CONTRADICTORY', `${set} is set but ${unset} is not`);
  }
  let limited: ClientCredentials | null = limitedId && limitedSecret ? { id: limitedId, secret: limitedSecret } : null;
  if (!limited && embedded) limited = { ...EMBEDDED.limited };
  if (limited && limited.id === client.id) {
    throw new IdmError('IDM_E_CONFIG_CONTRADICTORY', 'IDM_LIMITED_CLIENT_ID names the same client as IDM_CLIENT_ID');
  }

  const resourceServerId = embedded
    ? (get('IDM_RESOURCE_SERVER_ID') ?? EMBEDDED.resourceServerId)
    : required(get, 'IDM_RESOURCE_SERVER_ID');
  const systemResourceServerId = get('IDM_SYSTEM_RESOURCE_SERVER_ID') ?? `${baseUrl}/api/v2/`;
  if (resourceServerId === systemResourceServerId) {
    throw new IdmError(
      'IDM_E_CONFIG_CONTRADICTORY',
      'IDM_RESOURCE_SERVER_ID names the system resource server, which the spec says cannot be patched',
    );
  }

  const allow = parseAllow(get('IDM_ALLOW'));

  let featureFlagId = get('IDM_FEATURE_FLAG_ID') ?? (embedded ? EMBEDDED.featureFlagId : undefined);
  const rawVariations = get('IDM_VARIATION_IDS');
  let variationIds =
    rawVariations !== undefined
      ? rawVariations
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : embedded && !get('IDM_FEATURE_FLAG_ID')
        ? [...EMBEDDED.variationIds]
        : [];
  if (rawVariations !== undefined && variationIds.length < 2) {
    throw new IdmError(
      'IDM_E_CONFIG_INVALID',
      'IDM_VARIATION_IDS must list at least two variation ids, comma-separated (a control and a treatment)',
    );
  }
  if (featureFlagId && variationIds.length === 0) {
    throw new IdmError('IDM_E_CONFIG_MISSING', 'IDM_FEATURE_FLAG_ID is set but IDM_VARIATION_IDS is not');
  }
  if (!featureFlagId && variationIds.length > 0) {
    throw new IdmError('IDM_E_CONFIG_CONTRADICTORY', 'IDM_VARIATION_IDS is set but IDM_FEATURE_FLAG_ID is not');
  }
  if (!embedded && allow.has('experiments') && !featureFlagId) {
    throw new IdmError('IDM_E_CONFIG_MISSING', 'IDM_ALLOW includes experiments but IDM_FEATURE_FLAG_ID is not set');
  }
  featureFlagId ??= undefined;
  if (featureFlagId === undefined) variationIds = [];

  const audience = get('IDM_AUDIENCE') ?? `${baseUrl}/api/v2/`;
  const tokenPath = get('IDM_TOKEN_PATH') ?? '/oauth/token';
  if (!tokenPath.startsWith('/'))
    throw new IdmError('IDM_E_CONFIG_INVALID', `IDM_TOKEN_PATH must start with "/" (got "${tokenPath}")`);

  const strategyField = get('IDM_STRATEGY_FIELD') ?? 'allocation_strategy';
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(strategyField)) {
    throw new IdmError('IDM_E_CONFIG_INVALID', `IDM_STRATEGY_FIELD must be a field name (got "${strategyField}")`);
  }

  const rawSegments = get('IDM_SEGMENT_IDS');
  const segmentIds =
    rawSegments !== undefined
      ? rawSegments
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : embedded
        ? [...EMBEDDED.segmentIds]
        : [];
  if (rawSegments !== undefined && segmentIds.length === 0) {
    throw new IdmError('IDM_E_CONFIG_INVALID', 'IDM_SEGMENT_IDS must list at least one segment id, comma-separated');
  }

  const authenticationFlow = get('IDM_AUTHENTICATION_FLOW') ?? 'login';
  const assignmentSubject = get('IDM_ASSIGNMENT_SUBJECT') ?? 'device';

  const depthRaw = get('IDM_DEPTH') ?? 'default';
  if (!(depthRaw in DEPTH_RUNS))
    throw new IdmError('IDM_E_CONFIG_INVALID', `IDM_DEPTH must be quick, default or deep (got "${depthRaw}")`);

  const seedRaw = get('IDM_SEED');
  let seed: number | null = null;
  if (seedRaw !== undefined) {
    if (
      !/^-?\d+$/.test(seedRaw) ||
      !Number.isSafeInteger(Number(seedRaw)) ||
      Number(seedRaw) < -0x80000000 ||
      Number(seedRaw) > 0x7fffffff
    ) {
      throw new IdmError('IDM_E_CONFIG_INVALID', `IDM_SEED must be a 32-bit integer (got "${seedRaw}")`);
    }
    seed = Number(seedRaw) | 0;
  }

  const earlyAccessRaw = (get('IDM_EARLY_ACCESS') ?? 'true').toLowerCase();
  if (!['true', 'false', '1', '0', 'yes', 'no'].includes(earlyAccessRaw)) {
    throw new IdmError('IDM_E_CONFIG_INVALID', `IDM_EARLY_ACCESS must be true or false (got "${earlyAccessRaw}")`);
  }
  const earlyAccess = ['true', '1', 'yes'].includes(earlyAccessRaw);

  const pkjwtId = get('IDM_PKJWT_CLIENT_ID');
  const pkjwtKey = get('IDM_PKJWT_KEY_FILE');
  if ((pkjwtId === undefined) !== (pkjwtKey === undefined)) {
    throw new IdmError(
      'IDM_E_CONFIG_CONTRADICTORY',
      `${pkjwtId ? 'IDM_PKJWT_CLIENT_ID' : 'IDM_PKJWT_KEY_FILE'} is set without ${pkjwtId ? 'IDM_PKJWT_KEY_FILE' : 'IDM_PKJWT_CLIENT_ID'}`,
    );
  }
  let pkjwt = pkjwtId && pkjwtKey ? { id: pkjwtId, keyFile: pkjwtKey } : null;
  if (pkjwt && !existsSync(pkjwt.keyFile))
    throw new IdmError('IDM_E_CONFIG_INVALID', `IDM_PKJWT_KEY_FILE names ${pkjwt.keyFile}, which does not exist`);
  // The embedded tenant's documented dev key (data, not code, from reference/dev-keys/).
  if (!pkjwt && embedded && existsSync(EMBEDDED.pkjwtKeyFile))
    pkjwt = { id: EMBEDDED.pkjwtClientId, keyFile: EMBEDDED.pkjwtKeyFile };

  const auth = parseAuth(get, embedded, baseUrl, tokenPath);

  const timeoutMs = intSetting(get, 'IDM_TIMEOUT_MS', 8000, 100, 120000);
  const pacingReserve = intSetting(get, 'IDM_PACING_RESERVE', 1, 0, 1000);

  return {
    baseUrl,
    apiBase: `${baseUrl}/api/v2`,
    embedded,
    tokenUrl: `${baseUrl}${tokenPath}`,
    audience,
    client,
    limited,
    resourceServerId,
    systemResourceServerId,
    featureFlagId: featureFlagId ?? null,
    variationIds,
    strategyField,
    segmentIds,
    authenticationFlow,
    assignmentSubject,
    depth: depthRaw as Depth,
    seed,
    allow,
    timeoutMs,
    pacingReserve,
    expiredToken: get('IDM_EXPIRED_TOKEN') ?? null,
    earlyAccess,
    pkjwt,
    auth,
    envFile,
  };
}

/** The authentication-API settings; against the embedded tenant every unset one takes its dev value. */
function parseAuth(
  get: (n: string) => string | undefined,
  embedded: boolean,
  baseUrl: string,
  tokenPath: string,
): AuthConfig {
  const rawAuthUrl = get('IDM_AUTH_URL');
  const url = rawAuthUrl === undefined ? baseUrl : parseUrlSetting('IDM_AUTH_URL', rawAuthUrl, true);

  const pair = (idName: string, secretName: string, dflt: ClientCredentials | null): ClientCredentials | null => {
    const id = get(idName);
    const secret = get(secretName);
    if ((id === undefined) !== (secret === undefined)) {
      throw new IdmError(
        'IDM_E_CONFIG_CONTRADICTORY',
        `${id ? idName : secretName} is set without ${id ? secretName : idName}`,
      );
    }
    if (id && secret) return { id, secret };
    return embedded && dflt ? { ...dflt } : null;
  };
  const post = pair('IDM_POST_CLIENT_ID', 'IDM_POST_CLIENT_SECRET', EMBEDDED.post);
  const basic = pair('IDM_BASIC_CLIENT_ID', 'IDM_BASIC_CLIENT_SECRET', EMBEDDED.basic);
  const publicClientId = get('IDM_PUBLIC_CLIENT_ID') ?? (embedded ? EMBEDDED.publicClientId : null);
  for (const [name, c] of [
    ['IDM_POST_CLIENT_ID', post],
    ['IDM_BASIC_CLIENT_ID', basic],
  ] as const) {
    if (publicClientId && c && c.id === publicClientId) {
      throw new IdmError(
        'IDM_E_CONFIG_CONTRADICTORY',
        `IDM_PUBLIC_CLIENT_ID names the same client as ${name} (a public client has no secret)`,
      );
    }
  }

  // mTLS: id, API key and certificate belong together; the CA-verified client shares the key.
  const mtlsId = get('IDM_MTLS_CLIENT_ID');
  const apiKey = get('IDM_MTLS_API_KEY');
  const certFile = get('IDM_MTLS_CERT_FILE');
  const mtlsSet = [
    ['IDM_MTLS_CLIENT_ID', mtlsId],
    ['IDM_MTLS_API_KEY', apiKey],
    ['IDM_MTLS_CERT_FILE', certFile],
  ] as const;
  const caId = get('IDM_MTLS_CA_CLIENT_ID');
  const caCert = get('IDM_MTLS_CA_CERT_FILE');
  if (mtlsSet.some(([, v]) => v !== undefined) && mtlsSet.some(([, v]) => v === undefined)) {
    const set = mtlsSet.filter(([, v]) => v !== undefined).map(([n]) => n);
    const unset = mtlsSet.filter(([, v]) => v === undefined).map(([n]) => n);
    throw new IdmError(
      'IDM_E_CONFIG_CONTRADICTORY',
      `${set.join(', ')} set without ${unset.join(', ')} (an mTLS client needs all three)`,
    );
  }
  if ((caId === undefined) !== (caCert === undefined)) {
    throw new IdmError(
      'IDM_E_CONFIG_CONTRADICTORY',
      `${caId ? 'IDM_MTLS_CA_CLIENT_ID' : 'IDM_MTLS_CA_CERT_FILE'} is set without ${caId ? 'IDM_MTLS_CA_CERT_FILE' : 'IDM_MTLS_CA_CLIENT_ID'}`,
    );
  }
  if (caId && !apiKey && !embedded)
    throw new IdmError('IDM_E_CONFIG_MISSING', 'IDM_MTLS_CA_CLIENT_ID is set but IDM_MTLS_API_KEY is not');
  for (const [name, file] of [
    ['IDM_MTLS_CERT_FILE', certFile],
    ['IDM_MTLS_CA_CERT_FILE', caCert],
  ] as const) {
    if (file !== undefined && !existsSync(file))
      throw new IdmError('IDM_E_CONFIG_INVALID', `${name} names ${file}, which does not exist`);
  }
  const key = apiKey ?? (embedded ? EMBEDDED.mtls.apiKey : undefined);
  let mtls: MtlsClient | null = mtlsId && apiKey && certFile ? { id: mtlsId, apiKey, certFile } : null;
  // The embedded dev certificates are data from reference/dev-keys/ (absent until the tenant ships them).
  if (!mtls && embedded && !mtlsId && existsSync(EMBEDDED.mtls.certFile)) mtls = { ...EMBEDDED.mtls };
  let mtlsCa: MtlsClient | null = caId && caCert && key ? { id: caId, apiKey: key, certFile: caCert } : null;
  if (!mtlsCa && embedded && !caId && existsSync(EMBEDDED.mtlsCa.certFile))
    mtlsCa = { ...EMBEDDED.mtlsCa, apiKey: key ?? EMBEDDED.mtls.apiKey };
  if (mtls && mtlsCa && mtls.id === mtlsCa.id) {
    throw new IdmError(
      'IDM_E_CONFIG_CONTRADICTORY',
      'IDM_MTLS_CA_CLIENT_ID names the same client as IDM_MTLS_CLIENT_ID',
    );
  }

  const userPair = (uName: string, pName: string, dflt: UserCredentials): UserCredentials | null => {
    const username = get(uName);
    const password = get(pName);
    if ((username === undefined) !== (password === undefined)) {
      throw new IdmError(
        'IDM_E_CONFIG_CONTRADICTORY',
        `${username ? uName : pName} is set without ${username ? pName : uName}`,
      );
    }
    if (username && password) return { username, password };
    return embedded ? { ...dflt } : null;
  };
  const testUser = userPair('IDM_TEST_USERNAME', 'IDM_TEST_PASSWORD', EMBEDDED.user);
  const connection = get('IDM_TEST_CONNECTION') ?? (embedded ? EMBEDDED.user.connection : null);
  const user = testUser ? { ...testUser, connection } : null;
  const lockout = userPair('IDM_LOCKOUT_USERNAME', 'IDM_LOCKOUT_PASSWORD', EMBEDDED.lockout);
  if (user && lockout && user.username.toLowerCase() === lockout.username.toLowerCase()) {
    throw new IdmError(
      'IDM_E_CONFIG_CONTRADICTORY',
      'IDM_LOCKOUT_USERNAME names the test user (IDM_TEST_USERNAME); the §8 test would lock it',
    );
  }

  const urlOr = (name: string, dflt: string): string | null => {
    const raw = get(name);
    if (raw !== undefined) return parseUrlSetting(name, raw, false);
    return embedded ? dflt : null;
  };
  const paths = {} as Record<AuthPath, string | null>;
  for (const [k, name] of Object.entries(AUTH_PATH_SETTINGS) as Array<[AuthPath, string]>) {
    const raw = get(name);
    if (raw !== undefined && !raw.startsWith('/'))
      throw new IdmError('IDM_E_CONFIG_INVALID', `${name} must start with "/" (got ${JSON.stringify(raw)})`);
    paths[k] = raw ?? null;
  }
  const phone = get('IDM_PASSWORDLESS_PHONE');
  if (phone !== undefined && !/^\+[1-9]\d{6,14}$/.test(phone)) {
    throw new IdmError(
      'IDM_E_CONFIG_INVALID',
      `IDM_PASSWORDLESS_PHONE must be an E.164 number such as +15555550100 (got ${JSON.stringify(phone)})`,
    );
  }
  const email = get('IDM_PASSWORDLESS_EMAIL');
  if (email !== undefined && !/^[^\s@]+@[^\s@]+$/.test(email)) {
    throw new IdmError(
      'IDM_E_CONFIG_INVALID',
      `IDM_PASSWORDLESS_EMAIL must be an e-mail address (got ${JSON.stringify(email)})`,
    );
  }

  return {
    url,
    tokenUrl: `${url}${tokenPath}`,
    post,
    basic,
    publicClientId,
    mtls,
    mtlsCa,
    user,
    lockout,
    lockoutAttempts: intSetting(get, 'IDM_LOCKOUT_ATTEMPTS', 12, 1, 1000),
    notOffered: parseNotOffered(get('IDM_NOT_OFFERED')),
    redirectUri: urlOr('IDM_REDIRECT_URI', EMBEDDED.redirectUri),
    logoutReturnTo: urlOr('IDM_LOGOUT_RETURN_TO', EMBEDDED.logoutReturnTo),
    passwordlessEmail: email ?? (embedded ? EMBEDDED.passwordlessEmail : null),
    passwordlessPhone: phone ?? (embedded ? EMBEDDED.passwordlessPhone : null),
    samlConnection: get('IDM_SAML_CONNECTION') ?? (embedded ? EMBEDDED.samlConnection : null),
    paths,
    loginSelectors: {
      username: get('IDM_LOGIN_USERNAME_SELECTOR') ?? 'input[name=username]',
      password: get('IDM_LOGIN_PASSWORD_SELECTOR') ?? 'input[name=password]',
      submit: get('IDM_LOGIN_SUBMIT_SELECTOR') ?? 'button[type=submit]',
    },
    chromium: get('IDM_CHROMIUM') ?? '/usr/bin/chromium',
  };
}

/** An absolute http(s) URL setting; `origin` = a base (no query/fragment, no trailing slash). */
function parseUrlSetting(name: string, raw: string, origin: boolean): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new IdmError('IDM_E_CONFIG_INVALID', `${name} is not an absolute URL (got ${JSON.stringify(raw)})`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:')
    throw new IdmError('IDM_E_CONFIG_INVALID', `${name} must be http(s) (got "${u.protocol}")`);
  if (!origin) return raw;
  if (u.search || u.hash || u.username || u.password)
    throw new IdmError('IDM_E_CONFIG_INVALID', `${name} must not carry a query, fragment or credentials`);
  return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
}

/** Whether a guarded kind of test may run: always against the embedded tenant, else by opt-in. */
export function allowed(cfg: Config, what: Allowance): boolean {
  return cfg.embedded || cfg.allow.has(what);
}

/** Reason shown when a guarded test is skipped. */
export function optInReason(what: Allowance): string {
  return `${ALLOWANCES[what]}: against a non-embedded target this needs IDM_ALLOW=${what}`;
}

// Helpers

function required(get: (n: string) => string | undefined, name: string): string {
  const v = get(name);
  if (v === undefined)
    throw new IdmError('IDM_E_CONFIG_MISSING', `${name} is not set (required when IDM_BASE_URL is set)`);
  return v;
}

function intSetting(
  get: (n: string) => string | undefined,
  name: string,
  dflt: number,
  min: number,
  max: number,
): number {
  const raw = get(name);
  if (raw === undefined) return dflt;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max)
    throw new IdmError('IDM_E_CONFIG_INVALID', `${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  return n;
}

function parseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new IdmError('IDM_E_CONFIG_INVALID', `IDM_BASE_URL is not a URL (got "${raw}")`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new IdmError('IDM_E_CONFIG_INVALID', `IDM_BASE_URL must be http(s) (got "${url.protocol}")`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new IdmError('IDM_E_CONFIG_INVALID', 'IDM_BASE_URL must not carry a query, fragment or credentials');
  }
  const path = url.pathname.replace(/\/+$/, '');
  if (/\/api\/v2$/.test(path)) {
    throw new IdmError('IDM_E_CONFIG_INVALID', 'IDM_BASE_URL is the tenant origin; drop the trailing /api/v2');
  }
  return `${url.origin}${path}`;
}

function parseAllow(raw: string | undefined): Set<Allowance> {
  const out = new Set<Allowance>();
  if (raw === undefined) return out;
  for (const part of raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    if (part === 'all') {
      for (const k of Object.keys(ALLOWANCES)) out.add(k as Allowance);
    } else if (part in ALLOWANCES) {
      out.add(part as Allowance);
    } else {
      throw new IdmError(
        'IDM_E_CONFIG_INVALID',
        `IDM_ALLOW has unknown value "${part}" (known: ${Object.keys(ALLOWANCES).join(', ')}, all)`,
      );
    }
  }
  return out;
}

function mergeEnvFile(env: Env, cwd: string): { merged: Env; envFile: string | null } {
  const explicit = env.IDM_ENV_FILE?.trim();
  const path = resolve(cwd, explicit || '.env');
  if (!existsSync(path)) {
    if (explicit) throw new IdmError('IDM_E_CONFIG_ENV_FILE', `IDM_ENV_FILE names ${explicit}, which does not exist`);
    return { merged: env, envFile: null };
  }
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new IdmError('IDM_E_CONFIG_ENV_FILE', `cannot read ${path}: ${(e as Error).message}`);
  }
  const fromFile = parseDotenv(text, path);
  const merged: Env = { ...fromFile };
  for (const [k, v] of Object.entries(env)) if (v !== undefined) merged[k] = v;
  return { merged, envFile: path };
}

/** A small .env parser: KEY=VALUE lines, `export ` prefix, # comments, '…' literal, "…" with \n escapes. */
export function parseDotenv(text: string, where = '.env'): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(trimmed);
    if (!m) throw new IdmError('IDM_E_CONFIG_ENV_FILE', `${where}:${i + 1} is not KEY=VALUE`);
    const key = m[1]!;
    let value = m[2]!;
    if (value.startsWith('"')) {
      const end = value.lastIndexOf('"');
      if (end === 0) throw new IdmError('IDM_E_CONFIG_ENV_FILE', `${where}:${i + 1} has an unterminated quote`);
      value = value.slice(1, end).replace(/\\([\\"n])/g, (_, c: string) => (c === 'n' ? '\n' : c));
    } else if (value.startsWith("'")) {
      const end = value.lastIndexOf("'");
      if (end === 0) throw new IdmError('IDM_E_CONFIG_ENV_FILE', `${where}:${i + 1} has an unterminated quote`);
      value = value.slice(1, end);
    } else {
      value = value.replace(/\s+#.*$/, '').trim();
    }
    out[key] = value;
  });
  return out;
}

/** The port, or NaN for a value that is not one (loadConfig turns that into IDM_E_CONFIG_INVALID). */
function embeddedPort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 4810;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= 65535 ? n : Number.NaN;
}
