// Target configuration: one code path for the embedded reference tenant and for any staging
// tenant. The settings are declared in lib/config/declarations.ts and read by
// lib/config/parse.ts (environment, then .env); this module shapes them into the Config
// the suite uses and checks the rules between settings of different meaning. Every problem
// is an IdmError with a stable code (lib/errors.ts).
import { IdmError } from './errors.ts';
import {
  ALLOWANCES,
  AUTH_PATH_NAMES,
  AUTH_PATH_SETTINGS,
  type Allowance,
  type ApiScope,
  type AuthPath,
  type Depth,
  type NamedFlow,
  type NameOfKind,
} from './config/declarations.ts';
import { EMBEDDED } from './config/embedded.ts';
import { parseSettings, type Settings } from './config/parse.ts';
import { keysOf, recordOf } from './config/records.ts';
import { readSources, type Env } from './config/sources.ts';
import { runSkip, tenantSkip, type SkipRecord } from './skip-record.ts';
import type { LoginControls } from './auth/page-view.ts';
import { clientsOf, METHOD_IDS, type MethodClients } from './auth/methods/clients.ts';

export { AUTH_PATH_DEFAULTS, AUTH_PATH_SETTINGS, type AuthPath } from './config/declarations.ts';
export { EMBEDDED } from './config/embedded.ts';
export type { Env } from './config/sources.ts';

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
 * The authentication API side (§4.3, §5.2, §8): one optional entry per client of a way to
 * authenticate (post, basic, pkjwt, mtls, mtlsCa: lib/auth/methods/clients.ts names them).
 * null = not configured; the tests that need it are skipped naming the setting.
 */
export interface AuthConfig extends MethodClients {
  /** `{auth_url}` of the spec (IDM_AUTH_URL, default the base URL). */
  url: string;
  /**
   * Token endpoint of the authentication API: `<auth url><IDM_AUTH_TOKEN_PATH>`, else the discovery
   * document's token_endpoint (read once per run: withDiscovered), else `<auth url><IDM_TOKEN_PATH>`.
   */
  tokenUrl: string;
  /**
   * `aud` of client assertions (RFC 7523 §3): IDM_ASSERTION_AUDIENCE (`token-endpoint`: tokenUrl),
   * else the discovered issuer, else `<auth url>/`.
   */
  assertionAudience: string;
  /**
   * Audiences a client assertion is tried with, in this order, until one is taken (RFC 7523 §3
   * leaves the value to the server: the issuer, or the token endpoint URL that OIDC Core §9 names):
   * the setting alone when set, else assertionAudience then tokenUrl.
   */
  assertionAudiences: Array<{ aud: string; from: string }>;
  /** Where tokenUrl and assertionAudience came from, for messages. */
  targetsFrom: { tokenUrl: string; assertionAudience: string };
  /** The settings discovery fills in around (withDiscovered). */
  targetSettings: { tokenPath: string | null; managementTokenPath: string; audience: string | null };
  publicClientId: string | null;
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
  /** A test tenant's outbox of one-time codes (`<auth url><path>`), or null (a real tenant). */
  passwordlessOutboxUrl: string | null;
  samlConnection: string | null;
  /** Explicit path overrides (IDM_*_PATH); null = discovery, else AUTH_PATH_DEFAULTS. */
  paths: Record<AuthPath, string | null>;
  /** The login walk's selectors (IDM_LOGIN_*_SELECTOR, IDM_LOGOUT_CONFIRM_SELECTOR). */
  loginControls: LoginControls;
  /** The browser flows' Chromium when set (then the only one tried), else null: lib/auth/browser.ts looks for one. */
  chromium: string | null;
}

/**
 * The authentication API's origin when it is not the base URL (IDM_AUTH_URL set apart), else
 * null: where a run names its target, it names this one too, and only then.
 */
export function separateAuthUrl(cfg: Pick<Config, 'baseUrl' | 'auth'>): string | null {
  return cfg.auth.url === cfg.baseUrl ? null : cfg.auth.url;
}

/** The record a not-offered flow's clauses are skipped with (the tenant's), or null when it is offered. */
export function notOfferedSkip(cfg: Config, flow: NamedFlow): SkipRecord | null {
  return cfg.auth.notOffered.has(flow)
    ? tenantSkip(
        { setting: 'IDM_NOT_OFFERED', answer: 'not-offered' },
        `not offered (IDM_NOT_OFFERED=${[...cfg.auth.notOffered].join(',')})`,
      )
    : null;
}

/**
 * A required setting of the Management API, as read: unset (parse.ts) only when that API is not
 * under test, and then never sent, since every test of it is skipped (managementSkip).
 */
function managementSetting(value: string | null): string {
  return value ?? '';
}

/** The record a Management-API test is skipped with when only the authentication API is under test (the run's). */
export function managementSkip(cfg: Pick<Config, 'apis'>): SkipRecord | null {
  return cfg.apis === 'authentication'
    ? runSkip(
        { setting: 'IDM_APIS' },
        'the Management API is not under test (IDM_APIS=authentication): the target is judged as an authentication API alone',
      )
    : null;
}

/** The record an authentication-API test is skipped with when only the Management API is under test (the run's). */
export function authenticationSkip(cfg: Pick<Config, 'apis'>): SkipRecord | null {
  return cfg.apis === 'management'
    ? runSkip(
        { setting: 'IDM_APIS' },
        'the authentication API is not under test (IDM_APIS=management): the target is judged as a Management API alone',
      )
    : null;
}

/** The record of the half a run leaves out (IDM_APIS), with that half; null when both are under test. */
export function halfNotUnderTest(
  cfg: Pick<Config, 'apis'>,
): { half: 'management' | 'authentication'; record: SkipRecord } | null {
  const record = managementSkip(cfg) ?? authenticationSkip(cfg);
  return record && { half: cfg.apis === 'authentication' ? 'management' : 'authentication', record };
}

export interface ClientCredentials {
  id: string;
  secret: string;
}

export interface Config {
  /** Tenant origin (may carry a path prefix when behind a proxy), no trailing slash. */
  baseUrl: string;
  /**
   * The APIs under test (IDM_APIS): `authentication` alone leaves the Management API untouched
   * (no token, snapshot, journal or lock; its tests skipped: managementSkip).
   */
  apis: ApiScope;
  /** `{base_url}` of the spec: `<baseUrl>/api/v2`. */
  apiBase: string;
  embedded: boolean;
  tokenUrl: string;
  audience: string;
  client: ClientCredentials;
  limited: ClientCredentials | null;
  /** The client the settings-in-effect rows obtain the API's tokens with (IDM_API_CLIENT_*, else the management client). */
  apiClient: ClientCredentials;
  /** A client holding no grant for that API (IDM_UNGRANTED_CLIENT_*), or null. */
  ungranted: ClientCredentials | null;
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
  /** How long one request waits in all for a target answering 502, 503 or 504 (ms). */
  resendWindowMs: number;
  /** How long the run waits in all for such a target, shared by its processes (ms). */
  resendRunMs: number;
  /** Optional tenant-signed expired management token for the expired-token case. */
  expiredToken: string | null;
  /** Whether the Early Access field authorization_policy is part of valid bodies (its acceptance is observed either way). */
  earlyAccess: boolean;
  /** Authentication API: clients of each §5.2 method, test users, flow settings. */
  auth: AuthConfig;
  /** Where the optional .env was read from, if it was. */
  envFile: string | null;
  /** The effective values of the secret settings (declarations.ts), for the redactor. */
  secrets: readonly string[];
}

/** Numbers of fast-check runs per property for each depth profile. */
export const DEPTH_RUNS: Record<Depth, { update: number; experiment: number }> = {
  quick: { update: 5, experiment: 2 },
  default: { update: 20, experiment: 5 },
  deep: { update: 100, experiment: 25 },
};

export function loadConfig(env: Env = process.env, cwd = process.cwd()): Config {
  const { merged, fromFile, envFile } = readSources(env, cwd);
  return fromSettings(parseSettings(merged, { fromFile, envFile }));
}

/** Values the redactor must hide wherever they appear. */
export function secretValues(cfg: Config): string[] {
  return cfg.secrets.filter((s) => s.length >= 4);
}

/** The configuration from settings given directly (self-tests: no .env is read). */
export function parseConfig(env: Env, envFile: string | null = null): Config {
  return fromSettings(parseSettings(env, { envFile }));
}

const clientOf = (id: string | null, secret: string | null): ClientCredentials | null =>
  id !== null && secret !== null ? { id, secret } : null;
const userOf = (username: string | null, password: string | null): UserCredentials | null =>
  username !== null && password !== null ? { username, password } : null;

/** The Config of parsed settings, and the rules between settings of different meaning. */
export function fromSettings(s: Settings): Config {
  const embedded = s.embedded;
  // IDM_BASE_URL unset is what makes the target the embedded tenant.
  const baseUrl = s.text('IDM_BASE_URL') ?? `http://127.0.0.1:${s.int('IDM_EMBEDDED_PORT')}`;
  if (/\/api\/v2$/.test(baseUrl))
    throw new IdmError('IDM_E_CONFIG_INVALID', 'IDM_BASE_URL is the tenant origin; drop the trailing /api/v2');
  const apis = s.text('IDM_APIS');
  const client = {
    id: managementSetting(s.text('IDM_CLIENT_ID')),
    secret: managementSetting(s.text('IDM_CLIENT_SECRET')),
  };
  const limited = clientOf(s.text('IDM_LIMITED_CLIENT_ID'), s.text('IDM_LIMITED_CLIENT_SECRET'));
  const apiClient = clientOf(s.text('IDM_API_CLIENT_ID'), s.text('IDM_API_CLIENT_SECRET'));
  const ungranted = clientOf(s.text('IDM_UNGRANTED_CLIENT_ID'), s.text('IDM_UNGRANTED_CLIENT_SECRET'));
  differ(limited?.id, client.id, 'IDM_LIMITED_CLIENT_ID names the same client as IDM_CLIENT_ID');
  differ(
    ungranted?.id,
    (apiClient ?? client).id,
    'IDM_UNGRANTED_CLIENT_ID names the client that obtains the API’s tokens (IDM_API_CLIENT_ID, else IDM_CLIENT_ID)',
  );
  const resourceServerId = managementSetting(s.text('IDM_RESOURCE_SERVER_ID'));
  const systemResourceServerId = s.text('IDM_SYSTEM_RESOURCE_SERVER_ID');
  differ(
    resourceServerId,
    systemResourceServerId,
    'IDM_RESOURCE_SERVER_ID names the system resource server, which the spec says cannot be patched',
  );
  const allow = new Set(s.list('IDM_ALLOW'));
  const featureFlagId = s.text('IDM_FEATURE_FLAG_ID');
  if (!embedded && allow.has('experiments') && !featureFlagId)
    throw new IdmError('IDM_E_CONFIG_MISSING', 'IDM_ALLOW includes experiments but IDM_FEATURE_FLAG_ID is not set');
  const tokenPath = s.text('IDM_TOKEN_PATH');
  const seed = s.int('IDM_SEED');
  return {
    baseUrl,
    apis,
    apiBase: `${baseUrl}/api/v2`,
    embedded,
    tokenUrl: `${baseUrl}${tokenPath}`,
    audience: s.text('IDM_AUDIENCE'),
    client,
    limited,
    apiClient: apiClient ?? client,
    ungranted,
    resourceServerId,
    systemResourceServerId,
    featureFlagId,
    variationIds: s.list('IDM_VARIATION_IDS'),
    strategyField: s.text('IDM_STRATEGY_FIELD'),
    segmentIds: s.list('IDM_SEGMENT_IDS'),
    authenticationFlow: s.text('IDM_AUTHENTICATION_FLOW'),
    assignmentSubject: s.text('IDM_ASSIGNMENT_SUBJECT'),
    depth: s.text('IDM_DEPTH'),
    seed: seed === null ? null : seed | 0,
    allow,
    timeoutMs: s.int('IDM_TIMEOUT_MS'),
    pacingReserve: s.int('IDM_PACING_RESERVE'),
    resendWindowMs: s.int('IDM_RESEND_WINDOW_S') * 1000,
    resendRunMs: s.int('IDM_RESEND_RUN_S') * 1000,
    expiredToken: s.text('IDM_EXPIRED_TOKEN'),
    earlyAccess: s.bool('IDM_EARLY_ACCESS'),
    auth: authOf(s, tokenPath),
    envFile: s.envFile,
    secrets: s.secrets(),
  };
}

/** The authentication-API side (its settings are read like all others; here only their relations). */
function authOf(s: Settings, tokenPath: string): AuthConfig {
  const url = s.text('IDM_AUTH_URL');
  const outboxPath = s.text('IDM_PASSWORDLESS_OUTBOX_PATH');
  const publicClientId = s.text('IDM_PUBLIC_CLIENT_ID');

  const testUser = userOf(s.text('IDM_TEST_USERNAME'), s.text('IDM_TEST_PASSWORD'));
  const user = testUser ? { ...testUser, connection: s.text('IDM_TEST_CONNECTION') } : null;
  const lockout = userOf(s.text('IDM_LOCKOUT_USERNAME'), s.text('IDM_LOCKOUT_PASSWORD'));
  differ(
    lockout?.username.toLowerCase(),
    user?.username.toLowerCase(),
    'IDM_LOCKOUT_USERNAME names the test user (IDM_TEST_USERNAME); the §8 test would lock it',
  );
  const paths = recordOf(AUTH_PATH_NAMES, (p) => s.text(AUTH_PATH_SETTINGS[p]));
  const targetSettings = {
    tokenPath: s.text('IDM_AUTH_TOKEN_PATH'),
    managementTokenPath: tokenPath,
    audience: s.text('IDM_ASSERTION_AUDIENCE'),
  };
  return {
    url,
    ...authTargets(url, targetSettings, NOTHING_DISCOVERED),
    targetSettings,
    ...methodClients(s, publicClientId),
    publicClientId,
    user,
    lockout,
    lockoutAttempts: s.int('IDM_LOCKOUT_ATTEMPTS'),
    notOffered: new Set(s.list('IDM_NOT_OFFERED')),
    redirectUri: s.text('IDM_REDIRECT_URI'),
    logoutReturnTo: s.text('IDM_LOGOUT_RETURN_TO'),
    passwordlessEmail: s.text('IDM_PASSWORDLESS_EMAIL'),
    passwordlessPhone: s.text('IDM_PASSWORDLESS_PHONE'),
    passwordlessOutboxUrl: outboxPath === null ? null : `${url}${outboxPath}`,
    samlConnection: s.text('IDM_SAML_CONNECTION'),
    paths,
    loginControls: {
      username: s.text('IDM_LOGIN_USERNAME_SELECTOR'),
      password: s.text('IDM_LOGIN_PASSWORD_SELECTOR'),
      submit: s.text('IDM_LOGIN_SUBMIT_SELECTOR'),
      consentAccept: s.text('IDM_LOGIN_CONSENT_SELECTOR'),
      consentDecline: s.text('IDM_LOGIN_DECLINE_SELECTOR'),
      logoutConfirm: s.text('IDM_LOGOUT_CONFIRM_SELECTOR'),
    },
    chromium: s.text('IDM_CHROMIUM'),
  };
}

/**
 * The clients of the ways to authenticate, each read from the settings of its fields: all set, or
 * none (not configured). A client with a secret is not the public client, two clients of one way
 * are not the same, and a client set without a setting it shares with another is a missing one.
 */
function methodClients(s: Settings, publicClientId: string | null): MethodClients {
  const read = (setting: { name: string }): string | null => s.text(setting.name as NameOfKind<'text' | 'file'>);
  const out: Record<string, Record<string, string> | null> = {};
  for (const method of METHOD_IDS) {
    const clients = clientsOf(method);
    clients.forEach(([name, fields], i) => {
      const id = read(fields.id);
      const unset = Object.values(fields).find((f) => read(f) === null);
      if (id !== null && unset)
        throw new IdmError('IDM_E_CONFIG_MISSING', `${fields.id.name} is set but ${unset.name} is not`);
      if ('secret' in fields)
        differ(
          publicClientId,
          id,
          `IDM_PUBLIC_CLIENT_ID names the same client as ${fields.id.name} (a public client has no secret)`,
        );
      for (const [earlier, its] of clients.slice(0, i))
        differ(id, out[earlier]?.id, `${fields.id.name} names the same client as ${its.id.name}`);
      out[name] = unset ? null : recordOf(keysOf(fields), (f) => read(fields[f] as { name: string }) as string);
    });
  }
  return out as MethodClients;
}

/** What the authentication API's discovery document says about the two targets settings may leave open. */
export interface Discovered {
  tokenEndpoint: string | null;
  issuer: string | null;
}

export const NOTHING_DISCOVERED: Discovered = { tokenEndpoint: null, issuer: null };

/** The configuration with what discovery found filled in where the settings leave it open. */
export function withDiscovered(cfg: Config, found: Discovered): Config {
  return { ...cfg, auth: { ...cfg.auth, ...authTargets(cfg.auth.url, cfg.auth.targetSettings, found) } };
}

/** A setting wins, then the discovery document, then the tenant's own URL (issuer-style, with `/`). */
function authTargets(
  url: string,
  set: AuthConfig['targetSettings'],
  found: Discovered,
): Pick<AuthConfig, 'tokenUrl' | 'assertionAudience' | 'assertionAudiences' | 'targetsFrom'> {
  const [tokenUrl, tokenFrom] =
    set.tokenPath !== null
      ? [`${url}${set.tokenPath}`, 'IDM_AUTH_TOKEN_PATH']
      : found.tokenEndpoint !== null
        ? [found.tokenEndpoint, 'the discovery document']
        : [`${url}${set.managementTokenPath}`, 'IDM_TOKEN_PATH'];
  const [assertionAudience, audienceFrom] =
    set.audience === 'token-endpoint'
      ? [tokenUrl, 'IDM_ASSERTION_AUDIENCE=token-endpoint']
      : set.audience !== null
        ? [set.audience, 'IDM_ASSERTION_AUDIENCE']
        : found.issuer !== null
          ? [found.issuer, 'the issuer of the discovery document']
          : [`${url}/`, 'the authentication API URL (no discovery issuer)'];
  const assertionAudiences = [{ aud: assertionAudience, from: audienceFrom }];
  if (set.audience === null && tokenUrl !== assertionAudience)
    assertionAudiences.push({ aud: tokenUrl, from: `the token endpoint URL (${tokenFrom})` });
  return {
    tokenUrl,
    assertionAudience,
    assertionAudiences,
    targetsFrom: { tokenUrl: tokenFrom, assertionAudience: audienceFrom },
  };
}

/** Two settings that must not name the same thing. */
function differ(a: string | null | undefined, b: string | null | undefined, message: string): void {
  if (a != null && a === b) throw new IdmError('IDM_E_CONFIG_CONTRADICTORY', message);
}

/** Whether a guarded kind of test may run: always against the embedded tenant, else by opt-in. */
export function allowed(cfg: Config, what: Allowance): boolean {
  return cfg.embedded || cfg.allow.has(what);
}

/** The record a guarded test is skipped with when the opt-in is not given (the run's). */
export function optInSkip(cfg: Config, what: Allowance): SkipRecord | null {
  if (allowed(cfg, what)) return null;
  return runSkip(
    { setting: 'IDM_ALLOW' },
    `${ALLOWANCES[what]}: against a non-embedded target this needs IDM_ALLOW=${what}`,
  );
}

/** Whether the client credentials in use are the embedded tenant's dev client (named so in errors). */
export function clientSetting(cfg: Config): string {
  return cfg.embedded && cfg.client.id === EMBEDDED.client.id ? 'the embedded dev client' : 'IDM_CLIENT_ID';
}
