// Every setting of the suite, declared once (what an entry says: Declaration). Parsing (parse.ts), the
// IDM_E_CONFIG_* messages, the embedded defaults, the values the redactor hides, `npm run config`
// and the README's configuration table all derive from this table; the settings of the ways to
// authenticate come in from their clients (lib/auth/methods/clients.ts).
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EMBEDDED } from './embedded.ts';
import { keysOf, recordOf } from './records.ts';
import { METHOD_IDS, METHOD_SETTINGS } from '../auth/methods/clients.ts';

/** Opt-ins for tests that are only safe by default against the embedded tenant. */
export const ALLOWANCES = {
  burst: 'fire a bounded request burst until the target answers 429',
  experiments:
    'create experiments (each named by the run tag and a serial; deleted after the run where the tenant offers DELETE, which the spec does not show)',
  lifetime: 'lower token_lifetime below the original token_lifetime_for_web (the clamp cannot be undone)',
  irreversible: 'write resource-server fields the snapshot does not show (they cannot be restored)',
  passwordless: 'start passwordless logins (the target sends a real e-mail and SMS)',
  lockout: 'repeat failed logins of the lockout user until the §8 limit blocks it (it stays locked for a while)',
} as const;
export type Allowance = keyof typeof ALLOWANCES;
export const ALLOWANCE_NAMES = keysOf(ALLOWANCES);

const DEPTHS = ['quick', 'default', 'deep'] as const;

/** Which of the two HTTP APIs a run judges (IDM_APIS): both, or one alone. */
const API_SCOPES = ['both', 'authentication', 'management'] as const;
export type ApiScope = (typeof API_SCOPES)[number];
export type Depth = (typeof DEPTHS)[number];

/**
 * The named flows and endpoints (§4.3) and the ways to authenticate at the token endpoint (§5.2)
 * a tenant may switch off on purpose (mTLS needs a custom domain, a client assertion a key);
 * IDM_NOT_OFFERED lists them. Every endpoint of lib/auth/endpoints.ts but authorize (which every
 * browser flow needs) belongs to one (lib/auth/absent.ts); the methods' ids are the rows of lib/auth/methods/clients.ts.
 */
const FLOWS = [
  'client-credentials',
  'password',
  'implicit',
  'passwordless',
  'saml',
  'userinfo',
  'revoke',
  'logout',
  'wsfed',
  'delegation',
] as const;
export const NAMED_FLOWS = [...FLOWS, ...METHOD_IDS] as const;
export type NamedFlow = (typeof NAMED_FLOWS)[number];

/**
 * The authentication-API paths: the setting that overrides each (lib/auth/endpoints.ts names it
 * in skips) and the path used when discovery does not list the endpoint and the setting is unset.
 */
const AUTH_PATHS = {
  authorize: { setting: 'IDM_AUTHORIZE_PATH', fallback: '/authorize' },
  userinfo: { setting: 'IDM_USERINFO_PATH', fallback: '/userinfo' },
  revoke: { setting: 'IDM_REVOKE_PATH', fallback: '/oauth/revoke' },
  passwordless: { setting: 'IDM_PASSWORDLESS_PATH', fallback: '/passwordless/start' },
  logout: { setting: 'IDM_LOGOUT_PATH', fallback: '/v2/logout' },
  samlCallback: { setting: 'IDM_SAML_CALLBACK_PATH', fallback: '/login/callback' },
} as const;
export type AuthPath = keyof typeof AUTH_PATHS;
export const AUTH_PATH_NAMES = keysOf(AUTH_PATHS);
// The two columns of AUTH_PATHS by path, as lib/auth/endpoints.ts reads them.
export const AUTH_PATH_DEFAULTS = recordOf(AUTH_PATH_NAMES, (p) => AUTH_PATHS[p].fallback);
export const AUTH_PATH_SETTINGS = recordOf(AUTH_PATH_NAMES, (p) => AUTH_PATHS[p].setting);

/** How a value is read and checked (parse.ts); every kind trims, and blank counts as unset. */
export type Kind =
  | { type: 'text'; pattern?: RegExp; what?: string }
  /** An absolute http(s) URL; `origin`: a base (no query, fragment or credentials; trailing `/` dropped). */
  | { type: 'url'; origin?: boolean }
  /** A path starting with `/`. */
  | { type: 'path' }
  | { type: 'int'; min: number; max: number }
  | { type: 'bool' }
  | { type: 'enum'; values: readonly string[] }
  /** Comma-separated; `values`: the allowed items (and `all`). */
  | { type: 'list'; min: number; what: string; values?: readonly string[] }
  /** A file that must exist. */
  | { type: 'file' };

export type Group = 'target' | 'experiments' | 'authentication' | 'run' | 'files';

export const GROUPS: Record<Group, string> = {
  target: 'Target and management API',
  experiments: 'Experiments',
  authentication: 'Authentication API',
  run: 'Run',
  files: 'Files, folders and ports',
};

/** One entry of the table: what a setting is, how it is read, where its value comes from. */
export interface Declaration {
  readonly name: `IDM_${string}`;
  readonly group: Group;
  readonly kind: Kind;
  readonly doc: string;
  /** Used when unset (and no embedded default applies); a function of the base URL when derived from it. */
  readonly default?: string | ((baseUrl: string) => string);
  /** How the README shows a default that is not a plain value. */
  readonly defaultDoc?: string;
  /** Used against the embedded tenant when unset (and none of its `together` settings is set). */
  readonly embedded?: string;
  /** Required against a non-embedded target (IDM_BASE_URL set) whose Management API is under test (IDM_APIS). */
  readonly required?: true;
  /** Settings that are given all together or not at all (the same key on each). */
  readonly together?: string;
  /** Hidden by the redactor and shown as *** by `npm run config`. */
  readonly secret?: true;
  /** What a run skips while this setting (or its `together` set) is unset. */
  readonly unset?: string;
  /** One of the run's folders, files and ports, which runSettings (run.ts) reads on its own. */
  readonly run?: true;
}

/** An entry as the table writes it: its group is the list it stands in, its kind text unless given. */
export type Entry = Omit<Declaration, 'group' | 'kind'> & { readonly kind?: Kind };

const fromRoot = (path: string): string =>
  relative(fileURLToPath(new URL('../..', import.meta.url)), path).replace(/\\/g, '/');
const pathKind = { type: 'path' } as const;
const urlKind = { type: 'url' } as const;
const apiV2 = (baseUrl: string): string => `${baseUrl}/api/v2/`;
/** The setting that overrides an authentication-API path (AUTH_PATHS). */
const pathSetting = <P extends AuthPath>(path: P) =>
  ({
    name: AUTH_PATHS[path].setting,
    kind: pathKind,
    defaultDoc: `discovery, else \`${AUTH_PATHS[path].fallback}\``,
    doc: 'authentication-API path: this setting wins, else the server’s metadata where it lists the endpoint (the OpenID discovery document, then the RFC 8414 authorization server metadata), else the default',
  }) as const;

// By group, in the order of GROUPS. `as const`: each entry keeps its literal name, kind and default,
// from which the names and the types the accessors read (below) are derived.
const DECLARED = {
  target: [
    {
      name: 'IDM_BASE_URL',
      kind: { type: 'url', origin: true },
      defaultDoc: 'the embedded tenant on `http://127.0.0.1:<IDM_EMBEDDED_PORT>`',
      doc: 'tenant origin (without `/api/v2`); unset starts the embedded reference tenant',
    },
    {
      name: 'IDM_APIS',
      kind: { type: 'enum', values: API_SCOPES },
      default: 'both',
      doc: "the APIs under test: `both`, or `authentication` alone (a server with no Management API, e.g. an OpenID provider: `IDM_CLIENT_ID`, `IDM_CLIENT_SECRET` and `IDM_RESOURCE_SERVER_ID` are then not required, nothing is snapshotted or restored, and every management test is skipped as the run's, naming this setting, so the verdict says INCOMPLETE), or `management` alone (every authentication-API test skipped the same way: the Management API judged apart, as the mutation harness compares that half)",
    },
    {
      name: 'IDM_CLIENT_ID',
      embedded: EMBEDDED.client.id,
      required: true,
      doc: 'machine-to-machine client with `update:resource_servers` (and the experiment scope)',
    },
    {
      name: 'IDM_CLIENT_SECRET',
      embedded: EMBEDDED.client.secret,
      required: true,
      secret: true,
      doc: 'its secret',
    },
    {
      name: 'IDM_LIMITED_CLIENT_ID',
      embedded: EMBEDDED.limited.id,
      together: 'limited',
      unset: 'the 403 (missing scope) tests skipped',
      doc: 'a client without `update:resource_servers`',
    },
    {
      name: 'IDM_LIMITED_CLIENT_SECRET',
      embedded: EMBEDDED.limited.secret,
      together: 'limited',
      secret: true,
      doc: 'its secret',
    },
    {
      name: 'IDM_API_CLIENT_ID',
      together: 'api-client',
      unset: 'the management client obtains the tokens for the resource server’s API (the settings-in-effect rows)',
      doc: 'a client allowed to obtain tokens for the API of `IDM_RESOURCE_SERVER_ID` (a client grant for its identifier), when the management client holds none',
    },
    {
      name: 'IDM_API_CLIENT_SECRET',
      together: 'api-client',
      secret: true,
      doc: 'its secret',
    },
    {
      name: 'IDM_UNGRANTED_CLIENT_ID',
      embedded: EMBEDDED.limited.id,
      together: 'ungranted',
      unset: 'the refusal under `require_client_grant` skipped',
      doc: 'a client that may use client credentials (its secret in the body) and holds no client grant for that API; its credentials are shown live by a token for the management API (`IDM_AUDIENCE`) unless it is the limited client',
    },
    {
      name: 'IDM_UNGRANTED_CLIENT_SECRET',
      embedded: EMBEDDED.limited.secret,
      together: 'ungranted',
      secret: true,
      doc: 'its secret',
    },
    {
      name: 'IDM_RESOURCE_SERVER_ID',
      embedded: EMBEDDED.resourceServerId,
      required: true,
      doc: 'the custom resource server the suite may modify (snapshotted first, restored at the end)',
    },
    {
      name: 'IDM_SYSTEM_RESOURCE_SERVER_ID',
      default: apiV2,
      defaultDoc: '`<base>/api/v2/`',
      doc: 'how the system resource server is addressed (its identifier)',
    },
    {
      name: 'IDM_AUDIENCE',
      default: apiV2,
      defaultDoc: '`<base>/api/v2/`',
      doc: 'audience of the management token',
    },
    {
      name: 'IDM_TOKEN_PATH',
      kind: pathKind,
      default: '/oauth/token',
      doc: 'token endpoint path of the management API (§5.1; the authentication API has `IDM_AUTH_TOKEN_PATH`)',
    },
    {
      name: 'IDM_EXPIRED_TOKEN',
      secret: true,
      doc: 'a tenant-signed expired token for the expired-token case (else one is forged)',
    },
    {
      name: 'IDM_EARLY_ACCESS',
      kind: { type: 'bool' },
      default: 'true',
      doc: 'include the Early Access field `authorization_policy` in valid bodies',
    },
  ],
  experiments: [
    {
      name: 'IDM_FEATURE_FLAG_ID',
      embedded: EMBEDDED.featureFlagId,
      together: 'flag',
      unset: 'the experiment creations skipped',
      doc: 'a feature flag for experiments',
    },
    {
      name: 'IDM_VARIATION_IDS',
      kind: { type: 'list', min: 2, what: 'variation ids (a control and a treatment)' },
      embedded: EMBEDDED.variationIds.join(','),
      together: 'flag',
      doc: 'at least two of its variations, control first',
    },
    {
      name: 'IDM_STRATEGY_FIELD',
      kind: { type: 'text', pattern: /^[A-Za-z_][A-Za-z0-9_]*$/, what: 'a field name' },
      default: 'allocation_strategy',
      doc: 'name of the allocation-strategy attribute (the spec does not show it); its enum is asserted once a valid creation answers with it',
    },
    {
      name: 'IDM_SEGMENT_IDS',
      kind: { type: 'list', min: 1, what: 'segment ids' },
      embedded: EMBEDDED.segmentIds.join(','),
      unset: 'the `segment` half of exp.create.strategy.enum skipped',
      doc: 'segment ids the target knows, in allocation order, for the `segment` strategy',
    },
    {
      name: 'IDM_AUTHENTICATION_FLOW',
      default: 'login',
      doc: 'value for the experiment field whose allowed values the spec does not show',
    },
    {
      name: 'IDM_ASSIGNMENT_SUBJECT',
      default: 'device',
      doc: 'likewise',
    },
  ],
  authentication: [
    {
      name: 'IDM_AUTH_URL',
      kind: { type: 'url', origin: true },
      default: (baseUrl) => baseUrl,
      defaultDoc: 'the base URL',
      doc: '`{auth_url}`: origin of the authentication API',
    },
    {
      name: 'IDM_AUTH_TOKEN_PATH',
      kind: pathKind,
      defaultDoc: 'discovery, else `IDM_TOKEN_PATH`',
      doc: "the authentication API's token endpoint path: this setting wins (`<auth url><path>`), else the `token_endpoint` of the discovery document (or of the RFC 8414 metadata), else `<auth url><IDM_TOKEN_PATH>`",
    },
    {
      name: 'IDM_ASSERTION_AUDIENCE',
      // RFC 7519 §4.1.3: a StringOrURI, here without spaces.
      kind: { type: 'text', pattern: /^\S+$/, what: 'an audience (a URI, or token-endpoint) without spaces' },
      defaultDoc: 'the discovery `issuer` (else `<auth url>/`), then the token endpoint URL',
      doc: "`aud` of the client assertions (RFC 7523 §3: a value that identifies the authorization server). Unset, the genuine assertion is tried with the issuer, then with the token endpoint URL (OIDC Core §9), and the first taken signs every assertion of the run (the report's `auth.method.param-names` says which); set, only this: another URI, or `token-endpoint` for the authentication API's token endpoint",
    },
    {
      name: 'IDM_PUBLIC_CLIENT_ID',
      embedded: EMBEDDED.publicClientId,
      unset: 'the public-client (PKCE) flows skipped',
      doc: 'a public client (auth method `none`, PKCE)',
    },
    // The clients of the ways to authenticate at the token endpoint (lib/auth/methods/clients.ts).
    ...METHOD_SETTINGS,
    {
      name: 'IDM_TEST_USERNAME',
      embedded: EMBEDDED.user.username,
      together: 'user',
      unset: 'the password grant, user info, revoke and browser logins skipped',
      doc: 'a test user on a database connection',
    },
    {
      name: 'IDM_TEST_PASSWORD',
      embedded: EMBEDDED.user.password,
      together: 'user',
      secret: true,
      doc: 'its password',
    },
    {
      name: 'IDM_TEST_CONNECTION',
      embedded: EMBEDDED.user.connection,
      doc: 'the test user’s database connection',
    },
    {
      name: 'IDM_LOCKOUT_USERNAME',
      embedded: EMBEDDED.lockout.username,
      together: 'lockout',
      unset: '§8 repeat-login limit skipped',
      doc: 'a user the §8 repeat-login test may lock (never the test user; with `IDM_ALLOW=lockout`)',
    },
    {
      name: 'IDM_LOCKOUT_PASSWORD',
      embedded: EMBEDDED.lockout.password,
      together: 'lockout',
      secret: true,
      doc: 'its password',
    },
    {
      name: 'IDM_LOCKOUT_ATTEMPTS',
      kind: { type: 'int', min: 1, max: 1000 },
      default: '12',
      doc: 'failed logins the §8 test spends at most before the lockout user must be blocked (the spec states the limit, not its value)',
    },
    {
      name: 'IDM_NOT_OFFERED',
      kind: { type: 'list', min: 0, what: 'named flows and ways to authenticate', values: NAMED_FLOWS },
      defaultDoc: 'none',
      doc: `named flows and ways to authenticate the tenant does not offer on purpose (${NAMED_FLOWS.map((f) => `\`${f}\``).join(', ')}): their clauses are skipped "not offered" (the tenant's), nothing else depends on them; unset, an endpoint not found fails its flow's own clause once, naming its path setting (the spec names it)`,
    },
    {
      name: 'IDM_REDIRECT_URI',
      kind: urlKind,
      embedded: EMBEDDED.redirectUri,
      unset: 'the authorization-code flows skipped',
      doc: 'registered redirect URI of the public and post clients',
    },
    {
      name: 'IDM_LOGOUT_RETURN_TO',
      kind: urlKind,
      embedded: EMBEDDED.logoutReturnTo,
      unset: 'logout with returnTo skipped',
      doc: 'registered logout return URL',
    },
    {
      name: 'IDM_PASSWORDLESS_EMAIL',
      kind: { type: 'text', pattern: /^[^\s@]+@[^\s@]+$/, what: 'an e-mail address' },
      embedded: EMBEDDED.passwordlessEmail,
      unset: 'passwordless start by e-mail skipped',
      doc: 'recipient for passwordless start by e-mail (with `IDM_ALLOW=passwordless`)',
    },
    {
      name: 'IDM_PASSWORDLESS_PHONE',
      kind: { type: 'text', pattern: /^\+[1-9]\d{6,14}$/, what: 'an E.164 number such as +15555550100' },
      embedded: EMBEDDED.passwordlessPhone,
      unset: 'passwordless start by SMS skipped',
      doc: 'recipient for passwordless start by SMS (E.164)',
    },
    {
      name: 'IDM_PASSWORDLESS_OUTBOX_PATH',
      kind: pathKind,
      embedded: EMBEDDED.passwordlessOutboxPath,
      unset: 'a made-up one-time code judged by invalid_grant alone, beside an accepted passwordless start',
      doc: 'test tenants only: an authentication-API path answering the one-time codes the tenant sent (`{messages: [{to, code}]}`, newest last), so the passwordless grant is tried with the code sent beside a made-up one; a real tenant leaves it unset',
    },
    {
      name: 'IDM_SAML_CONNECTION',
      embedded: EMBEDDED.samlConnection,
      unset: 'the SAML IdP-initiated callback skipped',
      doc: 'the SAML connection for the IdP-initiated callback',
    },
    ...AUTH_PATH_NAMES.map(pathSetting),
    // The login walk (lib/auth/login-walk.ts): Playwright selectors (CSS, lists with commas). The
    // fields have CSS defaults; the buttons none: unset, each is found by its role and accessible
    // name, from the vocabulary of lib/auth/control-words.ts (Playwright's getByRole, which reads a
    // label wherever the markup nests it), and a setting replaces that vocabulary.
    {
      name: 'IDM_LOGIN_USERNAME_SELECTOR',
      default:
        'input[type=email], input[autocomplete~=username], input[name=username], input[name=email], input[name=login]',
      doc: 'login-walk selector of the username or e-mail field (browser flows; on its own page or beside the password)',
    },
    {
      name: 'IDM_LOGIN_PASSWORD_SELECTOR',
      default: 'input[type=password]',
      doc: 'login-walk selector of the password field',
    },
    {
      name: 'IDM_LOGIN_SUBMIT_SELECTOR',
      defaultDoc:
        'a button (`<button>`, `<input type=submit>`, `role=button`) named Continue, Next, Log in, Sign in, Submit, Verify, Go, OK, Proceed or Enter',
      doc: 'login-walk selector of the control that submits a filled field (the one in the field’s form first; else Enter)',
    },
    {
      name: 'IDM_LOGIN_CONSENT_SELECTOR',
      defaultDoc:
        'a button named Accept, Allow, Authorize, Approve, Submit consent, Continue, Yes, Agree, Grant or Confirm (and no decline word)',
      doc: 'login-walk selector of the control that accepts a consent page (or passes an interstitial page without fields)',
    },
    {
      name: 'IDM_LOGIN_DECLINE_SELECTOR',
      defaultDoc:
        'a button or a link named Deny, Decline, Cancel, Reject, Refuse, Not now or Don’t allow (a button also No)',
      doc: 'login-walk selector of the control that declines a consent page, a button or a link (the consent-refused case, RFC 6749 §4.1.2.1)',
    },
    {
      name: 'IDM_LOGOUT_CONFIRM_SELECTOR',
      defaultDoc: 'a button named Yes, Confirm or Continue, or whose name says sign out or log out',
      doc: 'login-walk selector of the control that confirms a logout-confirmation page',
    },
    {
      name: 'IDM_CHROMIUM',
      defaultDoc:
        "Playwright's Chromium (`npx playwright install chromium`), else Google Chrome or Microsoft Edge (Playwright's `chrome` and `msedge` channels), else `/usr/bin/chromium-headless-shell`, `/usr/bin/chromium` or `/usr/bin/chromium-browser`",
      doc: "the Chromium binary of the browser flows and of the HTML report's browser test; when set, the only one tried; no browser found skips them",
    },
  ],
  run: [
    {
      name: 'IDM_DEPTH',
      kind: { type: 'enum', values: DEPTHS },
      default: 'default',
      doc: '`quick` (pull requests) / `default` / `deep` (nightly): fast-check runs per property (update 5/20/100, experiment 2/5/25)',
    },
    {
      name: 'IDM_FAIL_ON_INCOMPLETE',
      kind: { type: 'bool' },
      default: 'false',
      doc: 'the gate fails an INCOMPLETE run (must clauses not exercised for a reason of the run: no Chromium, a login not driven, a setting unset) with exit code 4; off, such a run exits 0 and says INCOMPLETE',
      run: true,
    },
    {
      name: 'IDM_SEED',
      kind: { type: 'int', min: -0x80000000, max: 0x7fffffff },
      defaultDoc: 'random, printed',
      doc: 'replays the generated cases of a run',
    },
    {
      name: 'IDM_REPLAY_PATH',
      doc: 'with `IDM_SEED` and `--grep`, replays one counterexample (the path a failure prints)',
      run: true,
    },
    {
      name: 'IDM_ALLOW',
      kind: { type: 'list', min: 0, what: 'opt-ins', values: ALLOWANCE_NAMES },
      defaultDoc: 'none',
      doc: `opt-ins against a non-embedded target: ${Object.entries(ALLOWANCES)
        .map(([k, v]) => `\`${k}\` (${v})`)
        .join(', ')}, \`all\``,
    },
    {
      name: 'IDM_TIMEOUT_MS',
      kind: { type: 'int', min: 100, max: 120000 },
      default: '8000',
      doc: 'per-request timeout in ms (headers and body together)',
    },
    {
      name: 'IDM_RESEND_WINDOW_S',
      kind: { type: 'int', min: 0, max: 600 },
      default: '30',
      doc: 'how long one request that sending again cannot change waits in all while the target answers 502, 503 or 504 (a deploy), sent again after each `Retry-After` or a back-off of 1, 2, 4, 8 s; then the 5xx is a fault',
    },
    {
      name: 'IDM_RESEND_RUN_S',
      kind: { type: 'int', min: 0, max: 3600 },
      default: '120',
      doc: 'how long the whole run waits in all for a target answering 502, 503 or 504, shared by its worker processes; once spent, such an answer is a fault at once',
    },
    {
      name: 'IDM_PACING_RESERVE',
      kind: { type: 'int', min: 0, max: 1000 },
      default: '1',
      doc: 'requests kept in reserve per rate-limit bucket before waiting for `X-RateLimit-Reset`',
    },
  ],
  files: [
    {
      name: 'IDM_ENV_FILE',
      default: '.env',
      doc: 'the env file to read (relative to the working directory); read from the environment only, since it names the file',
    },
    {
      name: 'IDM_REPORTS_DIR',
      default: 'reports',
      doc: 'where every report of a run goes (`run-meta.json` and the Allure results included)',
      run: true,
    },
    {
      name: 'IDM_STATE_DIR',
      default: fileURLToPath(new URL('../../.idm-state', import.meta.url)),
      defaultDoc: '`.idm-state` in the checkout',
      doc: 'where the restore journal and the run lock live (owner-only, git-ignored)',
      run: true,
    },
    {
      name: 'IDM_BASELINE',
      default: 'baseline/known-deviations.json',
      doc: 'the known-deviation baseline',
      run: true,
    },
    {
      name: 'IDM_EMBEDDED_PORT',
      kind: { type: 'int', min: 1, max: 65535 },
      default: '4810',
      doc: 'loopback port of the embedded tenant, e.g. when 4810 is taken',
      run: true,
    },
    {
      name: 'IDM_MUTATION_PORT_BASE',
      kind: { type: 'int', min: 1024, max: 65000 },
      default: '5000',
      doc: 'first of the 90 loopback ports the mutation harness launches variants on (two checkouts at once)',
      run: true,
    },
    {
      name: 'IDM_INTEROP_PORT_BASE',
      kind: { type: 'int', min: 1024, max: 65000 },
      default: '6100',
      doc: 'first of the loopback ports `npm run interop` starts its servers on (ten per server, in the order of the legs)',
      run: true,
    },
    {
      name: 'IDM_SELFTEST_SAMPLES',
      kind: { type: 'int', min: 1, max: 1_000_000 },
      default: '3000',
      doc: 'samples per schema in the contract self-test (`selftest/contract-schemas.spec.ts`)',
      run: true,
    },
  ],
} as const satisfies Record<Group, readonly Entry[]>;

// What each setting reads as once parsed (parse.ts Settings), derived from its entry.
type Written = (typeof DECLARED)[Group][number];
/** An entry with its kind (text unless given). */
type WithKind<D> = D extends { readonly kind: Kind }
  ? D
  : Omit<D, 'kind'> & { readonly kind: { readonly type: 'text' } };
type Declared = WithKind<Written>;
/** The declared names: naming a setting that is not declared is a type error. */
export type SettingName = Declared['name'];
export type Setting = Declaration & { readonly name: SettingName };
export const SETTINGS: readonly Setting[] = (Object.keys(GROUPS) as Group[]).flatMap((group) =>
  DECLARED[group].map((d: Entry) => ({ kind: { type: 'text' }, ...d, group }) as Setting),
);
/** The entry of a name (one name of AUTH_PATHS' entries is a union of six). */
type DeclarationOf<N extends SettingName> = Declared extends infer D
  ? D extends { readonly name: infer M }
    ? N extends M
      ? D
      : never
    : never
  : never;
/** The settings of the given kinds. */
export type NameOfKind<T extends Kind['type']> = Extract<Declared, { readonly kind: { readonly type: T } }>['name'];
/** The settings with an embedded-tenant default (explain.ts embeddedEnv). */
export type EmbeddedName = Extract<Declared, { readonly embedded: string }>['name'];
/** A value by its kind: an enum as its values, a list of known values as an array of them. */
type ValueOfKind<K> = K extends { type: 'int' }
  ? number
  : K extends { type: 'bool' }
    ? boolean
    : K extends { type: 'enum' | 'list'; values: readonly (infer V)[] }
      ? K extends { type: 'list' }
        ? V[]
        : V
      : K extends { type: 'list' }
        ? string[]
        : string;
/**
 * A parsed setting's value: never null with a default, or when required (against a staging
 * tenant; the embedded tenant's default otherwise, which the settings self-test holds each to).
 * A required setting of the Management API is unset when only the authentication API is under
 * test (IDM_APIS); config.ts reads those through managementOnly().
 */
export type SettingValue<N extends SettingName> =
  | ValueOfKind<DeclarationOf<N>['kind']>
  | (DeclarationOf<N> extends { readonly default: unknown } | { readonly required: true } ? never : null);

/** A setting and those given together with it (itself alone when it has no `together` set). */
export const partners = (s: Setting): Setting[] =>
  s.together ? SETTINGS.filter((o) => o.together === s.together) : [s];

/** A declared default as the README and `npm run config` show it. */
export function defaultText(s: Setting): string | null {
  if (s.defaultDoc !== undefined) return s.defaultDoc;
  return typeof s.default === 'string' ? `\`${s.default}\`` : null;
}

/** The embedded default as the README shows it (secrets and dev files by what they are). */
export function embeddedText(s: Setting): string | null {
  if (s.embedded === undefined) return null;
  if (s.secret) return 'dev value';
  return s.kind.type === 'file' ? `\`${fromRoot(s.embedded)}\`` : `\`${s.embedded}\``;
}
