// Defaults of the reference tenant (docs/ARCHITECTURE.md "Reference tenant defaults") and
// their overrides from command-line flags and environment variables.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type {
  ClientConfig,
  ClientGrant,
  ExperimentProfile,
  LoginOptions,
  LoginProfile,
  RateLimitConfig,
  UserRecord,
} from './types.ts';
import { PASSWORDLESS_OTP_GRANT } from './auth/one-time-code.ts';
import { devClients } from './auth/client-auth.ts';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 4810;
/**
 * Per client and endpoint, differing per endpoint as §8 says: the token endpoint 20 at once
 * then 40 per second, resource-server updates 30 then 100 per second (the embedded verdict's
 * busiest bucket, about 170 paced requests), every other endpoint 50 then 100 per second.
 * A burst that proves the limit costs about the limit: these keep the suite's two bursts
 * near 25 and 35 requests.
 */
export const DEFAULT_RATE_LIMIT: RateLimitConfig = {
  capacity: 50,
  refillPerSecond: 100,
  perEndpoint: {
    'oauth.token': { capacity: 20, refillPerSecond: 40 },
    'rs.update': { capacity: 30, refillPerSecond: 100 },
  },
};

const DEV_PKJWT_PUBLIC_KEY_PATH = fileURLToPath(new URL('../dev-keys/conformance-pkjwt.public.pem', import.meta.url));
export const DEV_PKJWT_PRIVATE_KEY_PATH = fileURLToPath(
  new URL('../dev-keys/conformance-pkjwt.private.pem', import.meta.url),
);

const devKey = (name: string) => fileURLToPath(new URL(`../dev-keys/${name}`, import.meta.url));
export const DEV_MTLS_CERT_PATH = devKey('conformance-mtls.cert.pem');
export const DEV_MTLS_CA_CERT_PATH = devKey('conformance-mtls-ca.cert.pem');

/** The custom-domain API key the mTLS edge forwards in `cname-api-key` (dev value). */
export const DEV_EDGE_API_KEY = 'dev-cname-api-key-0123456789';
export const DATABASE_CONNECTION = 'Username-Password-Authentication';
export const SAML_CONNECTION = 'conformance-saml';
const REDIRECT_URI = 'https://app.conformance.test/callback';
const LOGOUT_URL = 'https://app.conformance.test/logged-out';
const USER_GRANTS = ['client_credentials', 'authorization_code', 'password', 'refresh_token', PASSWORDLESS_OTP_GRANT];

const FULL_SCOPES = [
  'read:resource_servers',
  'create:resource_servers',
  'update:resource_servers',
  'delete:resource_servers',
  'read:experimentation',
  'create:experimentation',
  'update:experimentation',
  'delete:experimentation',
];

type Env = Record<string, string | undefined>;

/**
 * The dev clients: the three management clients (ids, secrets and the pkjwt public key
 * overridable by env) and the authentication-API client each §5.2 way seeds (auth/client-auth.ts).
 */
export function defaultClients(env: Env = process.env): ClientConfig[] {
  const pkjwtKeyPath = env.REFERENCE_PKJWT_PUBLIC_KEY_FILE ?? DEV_PKJWT_PUBLIC_KEY_PATH;
  return [
    {
      clientId: env.REFERENCE_FULL_CLIENT_ID ?? 'conformance-full',
      secret: env.REFERENCE_FULL_CLIENT_SECRET ?? 'dev-secret-full-0123456789',
      scopes: FULL_SCOPES,
    },
    {
      clientId: env.REFERENCE_LIMITED_CLIENT_ID ?? 'conformance-limited',
      secret: env.REFERENCE_LIMITED_CLIENT_SECRET ?? 'dev-secret-limited-0123456789',
      scopes: ['read:resource_servers'],
    },
    {
      clientId: env.REFERENCE_PKJWT_CLIENT_ID ?? 'conformance-pkjwt',
      publicKeyPem: readFileSync(pkjwtKeyPath, 'utf8'),
      scopes: FULL_SCOPES,
    },
    ...devClients({
      redirectUri: REDIRECT_URI,
      logoutUrl: LOGOUT_URL,
      userGrants: USER_GRANTS,
      pem: (file) => readFileSync(devKey(file), 'utf8'),
    }),
  ];
}

/** The seeded custom API the suite may modify (`rs_conformance` in store.ts). */
const CONFORMANCE_API = 'https://api.conformance.test/';

/**
 * Client grants (`subject_type_authorization` … `require_client_grant`): the management clients,
 * `conformance-post` and the self-signed mTLS client (whose tokens the API may bind to its
 * certificate) may obtain tokens for the seeded conformance API; the other clients that can use
 * client credentials (`conformance-limited`, `conformance-basic`, the CA-verified mTLS client)
 * hold none, so a refusal can be shown beside an acceptance.
 */
export function defaultClientGrants(env: Env = process.env): ClientGrant[] {
  const grant = (clientId: string): ClientGrant => ({ clientId, audience: CONFORMANCE_API, scopes: ['read:things'] });
  return [
    grant(env.REFERENCE_FULL_CLIENT_ID ?? 'conformance-full'),
    grant(env.REFERENCE_PKJWT_CLIENT_ID ?? 'conformance-pkjwt'),
    grant('conformance-post'),
    grant('conformance-mtls'),
  ];
}

/**
 * The dev users of the database connection: the test user (the passwordless connections sign
 * it in by its email address or its phone number) and the one the §8 lockout test may block.
 */
export function defaultUsers(): UserRecord[] {
  return [
    {
      userId: 'db|conformance-user',
      connection: DATABASE_CONNECTION,
      username: 'conformance-user@example.test',
      password: 'dev-password-0123456789!',
      name: 'Conformance User',
      emailVerified: true,
      phoneNumber: '+15555550100',
    },
    {
      userId: 'db|conformance-lockout',
      connection: DATABASE_CONNECTION,
      username: 'conformance-lockout@example.test',
      password: 'dev-password-lockout-0123!',
      name: 'Conformance Lockout User',
      emailVerified: true,
    },
  ];
}

function parseRateLimit(text: string): RateLimitConfig {
  // One limit for every endpoint (the per-endpoint defaults apply only when none is given).
  const m = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!m) throw new Error(`rate limit must be <capacity>/<refillPerSecond>, e.g. 50/100; got ${JSON.stringify(text)}`);
  const capacity = Number(m[1]);
  const refillPerSecond = Number(m[2]);
  if (capacity < 1) throw new Error('rate limit capacity must be at least 1');
  return { capacity, refillPerSecond };
}

const LOGIN_FLOWS = ['one-page', 'identifier-first', 'challenge'] as const;
const CONSENT_MODES = ['always', 'offline', 'never', 'remembered'] as const;
const CONSENT_CONTROLS = ['buttons', 'inputs', 'nested'] as const;
const CONSENT_TO = ['all', 'confidential'] as const;
const REVOCATION_ANNOUNCED = ['both', 'rfc8414'] as const;

/** Where the revocation endpoint is and which metadata document lists it (`TenantOptions.revocationAnnounced`). */
export function revocationOf(announced: string | undefined): { path: string; announced: 'both' | 'rfc8414' } {
  const a = oneOf(REVOCATION_ANNOUNCED, announced ?? 'both', 'revocation announced');
  return { path: a === 'rfc8414' ? '/oauth2/revoke' : '/oauth/revoke', announced: a };
}

/** The login options with their defaults; throws on a value the tenant does not know. */
export function loginProfile(o: LoginOptions = {}): LoginProfile {
  // Checked again at run time: options may come from JavaScript or JSON.
  const flow = oneOf(LOGIN_FLOWS, o.flow ?? 'one-page', 'login');
  const consent = oneOf(CONSENT_MODES, o.consent ?? 'never', 'consent');
  const profile: LoginProfile = {
    flow,
    consent,
    consentTo: oneOf(CONSENT_TO, o.consentTo ?? 'all', 'consent to'),
    logoutConfirm: o.logoutConfirm ?? false,
    consentControls: oneOf(CONSENT_CONTROLS, o.consentControls ?? 'buttons', 'consent controls'),
    loginFirst: o.loginFirst ?? false,
  };
  // The session cookie is the tenant origin's, and the login before the request is its one page.
  if (profile.loginFirst && (flow !== 'one-page' || o.origin !== undefined))
    throw new Error("loginFirst takes the one-page login on the tenant's own origin (no login origin)");
  if (o.origin === undefined) return profile;
  let url: URL;
  try {
    url = new URL(o.origin);
  } catch {
    throw new Error(`login origin is not a URL: ${o.origin}`);
  }
  // Pages are addressed as `<origin><path>`: anything after the origin would be dropped silently.
  if (!/^https?:$/.test(url.protocol) || `${url.origin}/` !== url.href.replace(/\/?$/, '/'))
    throw new Error(
      `login origin must be an http(s) origin without a path, e.g. http://localhost:4810; got ${o.origin}`,
    );
  return { ...profile, origin: url.origin };
}

export interface CliOptions {
  host: string;
  port: number;
  publicUrl: string | undefined;
  rateLimit: RateLimitConfig;
  profile: 'default' | 'strict';
  login: LoginOptions;
  refreshRotation: boolean;
  revocationAnnounced: 'both' | 'rfc8414';
  experiments: ExperimentProfile;
}

const USAGE = `usage: npm run reference -- [--host 127.0.0.1] [--port 4810] [--public-url http://127.0.0.1:4810] [--rate-limit 50/100] [--profile default|strict]
       [--login one-page|identifier-first|challenge] [--consent never|offline|always|remembered]
       [--consent-to all|confidential] [--consent-controls buttons|inputs|nested] [--login-first] [--logout-confirm] [--login-origin http://localhost:4810]
       [--refresh-rotation] [--revocation-announced both|rfc8414] [--experiments unique-names,delete]
env: REFERENCE_HOST, REFERENCE_PORT, REFERENCE_PUBLIC_URL, REFERENCE_RATE_LIMIT, REFERENCE_PROFILE,
     REFERENCE_LOGIN, REFERENCE_CONSENT, REFERENCE_CONSENT_TO, REFERENCE_CONSENT_CONTROLS,
     REFERENCE_LOGIN_FIRST (true|false), REFERENCE_LOGOUT_CONFIRM (true|false), REFERENCE_LOGIN_ORIGIN,
     REFERENCE_REFRESH_ROTATION (true|false), REFERENCE_REVOCATION_ANNOUNCED, REFERENCE_EXPERIMENTS,
     REFERENCE_FULL_CLIENT_ID/_SECRET, REFERENCE_LIMITED_CLIENT_ID/_SECRET,
     REFERENCE_PKJWT_CLIENT_ID, REFERENCE_PKJWT_PUBLIC_KEY_FILE (flags win over env)`;

export function parseCli(argv: string[], env: Env = process.env): CliOptions | { help: string } {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--help' || arg === '-h') return { help: USAGE };
    if (arg === '--logout-confirm' || arg === '--refresh-rotation' || arg === '--login-first') {
      flags.set(arg.slice(2), 'true');
      continue;
    }
    const m =
      /^--(host|port|public-url|rate-limit|profile|login|consent|consent-to|consent-controls|login-origin|revocation-announced|experiments)(?:=(.*))?$/.exec(
        arg,
      );
    if (!m?.[1]) throw new Error(`unknown argument ${JSON.stringify(arg)}\n${USAGE}`);
    const value = m[2] ?? argv[++i];
    if (value === undefined) throw new Error(`--${m[1]} needs a value\n${USAGE}`);
    flags.set(m[1], value);
  }
  const host = flags.get('host') ?? env.REFERENCE_HOST ?? DEFAULT_HOST;
  const portText = flags.get('port') ?? env.REFERENCE_PORT ?? String(DEFAULT_PORT);
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`port must be 0..65535; got ${portText}`);
  const publicUrl = flags.get('public-url') ?? env.REFERENCE_PUBLIC_URL;
  if (publicUrl !== undefined) {
    try {
      new URL(publicUrl);
    } catch {
      throw new Error(`public URL is not a URL: ${publicUrl}`);
    }
  }
  const rl = flags.get('rate-limit') ?? env.REFERENCE_RATE_LIMIT;
  const profile = flags.get('profile') ?? env.REFERENCE_PROFILE ?? 'default';
  if (profile !== 'default' && profile !== 'strict')
    throw new Error(`profile must be default or strict; got ${profile}`);
  const login = loginOptions(flags, env);
  const rotation = flags.get('refresh-rotation') ?? env.REFERENCE_REFRESH_ROTATION ?? 'false';
  const refreshRotation = oneOf(['true', 'false'], rotation, 'REFERENCE_REFRESH_ROTATION') === 'true';
  const rateLimit = rl ? parseRateLimit(rl) : DEFAULT_RATE_LIMIT;
  const revocationAnnounced = revocationOf(
    flags.get('revocation-announced') ?? env.REFERENCE_REVOCATION_ANNOUNCED,
  ).announced;
  const experiments = experimentProfile(flags.get('experiments') ?? env.REFERENCE_EXPERIMENTS ?? '');
  return { host, port, publicUrl, rateLimit, profile, login, refreshRotation, revocationAnnounced, experiments };
}

/** `unique-names`, `delete`, both (comma-separated) or none: the experiment profile (reference/README.md). */
function experimentProfile(list: string): ExperimentProfile {
  const named = list
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '')
    .map((x) => oneOf(['unique-names', 'delete'], x, 'experiments'));
  return { uniqueNames: named.includes('unique-names'), deletable: named.includes('delete') };
}

function loginOptions(flags: Map<string, string>, env: Env): LoginOptions {
  const o: LoginOptions = {};
  const flow = flags.get('login') ?? env.REFERENCE_LOGIN;
  if (flow !== undefined) o.flow = oneOf(LOGIN_FLOWS, flow, 'login');
  const consent = flags.get('consent') ?? env.REFERENCE_CONSENT;
  if (consent !== undefined) o.consent = oneOf(CONSENT_MODES, consent, 'consent');
  const to = flags.get('consent-to') ?? env.REFERENCE_CONSENT_TO;
  if (to !== undefined) o.consentTo = oneOf(CONSENT_TO, to, 'consent-to');
  const controls = flags.get('consent-controls') ?? env.REFERENCE_CONSENT_CONTROLS;
  if (controls !== undefined) o.consentControls = oneOf(CONSENT_CONTROLS, controls, 'consent-controls');
  const first = flags.get('login-first') ?? env.REFERENCE_LOGIN_FIRST;
  if (first !== undefined) o.loginFirst = oneOf(['true', 'false'], first, 'REFERENCE_LOGIN_FIRST') === 'true';
  const confirm = flags.get('logout-confirm') ?? env.REFERENCE_LOGOUT_CONFIRM;
  if (confirm !== undefined) o.logoutConfirm = oneOf(['true', 'false'], confirm, 'REFERENCE_LOGOUT_CONFIRM') === 'true';
  const origin = flags.get('login-origin') ?? env.REFERENCE_LOGIN_ORIGIN;
  if (origin !== undefined) o.origin = origin;
  loginProfile(o); // checks the origin and the combination
  return o;
}

function oneOf<T extends string>(values: readonly T[], value: string, name: string): T {
  if (!(values as readonly string[]).includes(value))
    throw new Error(`${name} must be ${values.join(', ')}; got ${value}`);
  return value as T;
}
