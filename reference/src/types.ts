// Public types of the reference tenant. Everything here is plain data so the mutation
// harness can wrap or replace any part without touching the tenant's own code.
import type { CLIENT_AUTH_METHODS } from './auth/client-auth.ts';

/** One HTTP request as the tenant's handler sees it: plain data, body fully read. */
export interface TenantRequest {
  method: string;
  /** Path and query exactly as received (percent-encoding preserved). */
  url: string;
  /** Lower-case header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  /** Peer address, used only to key the rate limiter for unauthenticated callers. */
  remoteAddress?: string;
}

/** One HTTP response: plain data, serialized by the transport as is. */
export interface TenantResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export type Handler = (req: TenantRequest) => Promise<TenantResponse>;

/** Every numeric bound the tenant enforces, in one object (spec §2.2, §2.3, §2.4, §8). */
export interface Limits {
  rsNameMax: number; // §2.2/§8 name max 200
  scopeValueMin: number; // §2.3/§8 Scope.value 1..280
  scopeValueMax: number;
  scopeDescriptionMax: number; // §2.3/§8 Scope.description max 500
  signingSecretMin: number; // §2.2/§8 signing_secret min 16
  tokenLifetimeMin: number; // §2.2/§8 token_lifetime 0..2592000
  tokenLifetimeMax: number;
  encryptionKeyNameMin: number; // §2.3/§8 EncryptionKey.name 1..128
  encryptionKeyNameMax: number;
  encryptionKeyKidMin: number; // §2.3/§8 EncryptionKey.kid 1..128
  encryptionKeyKidMax: number;
  pemMin: number; // §2.3/§8 EncryptionKey.pem 1..4096
  pemMax: number;
  policyIdMin: number; // §2.3/§8 AuthorizationPolicy.policy_id 1..1024
  policyIdMax: number;
  experimentNameMin: number; // §2.4/§8 experiment name 3..255
  experimentNameMax: number;
  experimentDescriptionMin: number; // §2.4/§8 experiment description 3..1024
  experimentDescriptionMax: number;
  allocationsMin: number; // §2.4/§8 allocations at least 1
  // Tenant's own choices where the spec is silent (documented in reference/README.md).
  allocationsMax: number;
  allocationWeightMin: number;
  allocationWeightMax: number;
  allocationWeightSum: number;
  allocationPriorityMin: number;
  allocationPriorityMax: number;
  variationIdMax: number;
  segmentIdMax: number;
  authenticationFlowMax: number;
  assignmentSubjectMax: number;
  maxBodyBytes: number; // → 413 above this
  maxJsonDepth: number; // deeper nesting → 400 (keeps parse/serialize bounded)
  accessTokenLifetimeSeconds: number;
  assertionMaxLifetimeSeconds: number; // private_key_jwt: exp at most 5 min ahead
  clockSkewSeconds: number;
  // Authentication API (tenant choices; §8 states that repeat logins are limited, not how).
  loginAttemptsMax: number; // failed logins per user+IP before the block
  loginBlockSeconds: number;
  loginFailureWindowSeconds: number; // failures older than this are forgotten
  authorizationCodeLifetimeSeconds: number;
  loginTransactionLifetimeSeconds: number;
  userAccessTokenLifetimeSeconds: number;
  oneTimeCodeLifetimeSeconds: number; // a passwordless code sent by POST /passwordless/start
  oneTimeCodeAttemptsMax: number; // wrong codes for one recipient before its sent code dies
  dpopProofMaxAgeSeconds: number; // RFC 9449 §4.3 check 11: a proof's iat at most this old
  dpopProofFutureSkewSeconds: number; // … and at most this far ahead (clocks differ)
  dpopNonceLifetimeSeconds: number; // RFC 9449 §8: a server nonce stays usable this long
}

/** Resource server as stored; presented as the §2.1 object. */
export interface ResourceServerRecord {
  id: string;
  name: string;
  is_system: boolean;
  identifier: string;
  scopes: Array<{ value: string; description?: string }>;
  signing_alg: string;
  signing_secret: string;
  allow_offline_access: boolean;
  allow_online_access: boolean;
  allow_online_access_with_ephemeral_sessions: boolean;
  skip_consent_for_verifiable_first_party_clients: boolean;
  token_lifetime: number;
  token_lifetime_for_web: number;
  enforce_policies: boolean;
  token_dialect: string;
  token_encryption: unknown;
  consent_policy: string | null;
  authorization_details: unknown[] | null;
  proof_of_possession: unknown;
  subject_type_authorization: Record<string, unknown>;
  authorization_policy: unknown;
  client_id: string;
}

export interface FeatureFlagRecord {
  id: string;
  name: string;
  variations: string[];
}

export interface ExperimentRecord {
  id: string;
  name: string;
  feature_flag_id: string;
  allocation_strategy: string;
  allocations: Array<Record<string, unknown>>;
  status: string;
  is_valid: boolean;
  created_at: string;
  updated_at: string;
  [field: string]: unknown;
}

/** In-memory state. Reads return copies; only save* changes state. */
export interface Store {
  getResourceServerById(id: string): ResourceServerRecord | undefined;
  getResourceServerByIdentifier(identifier: string): ResourceServerRecord | undefined;
  saveResourceServer(rs: ResourceServerRecord): void;
  listResourceServers(): ResourceServerRecord[];
  getFeatureFlag(id: string): FeatureFlagRecord | undefined;
  saveExperiment(exp: ExperimentRecord): void;
  getExperiment(id: string): ExperimentRecord | undefined;
  /** The experiment of that name, when one exists (names are unique under ExperimentProfile.uniqueNames). */
  experimentNamed(name: string): ExperimentRecord | undefined;
  /** Removes an experiment; false when there was none with that id. */
  deleteExperiment(id: string): boolean;
}

/** §5.2 token endpoint authentication methods (names as in OIDC / RFC 8705 discovery): the rows of auth/client-auth.ts. */
export type ClientAuthMethod = (typeof CLIENT_AUTH_METHODS)[number];

export interface ClientConfig {
  clientId: string;
  /** Authenticates with client_secret (post or basic) when set. */
  secret?: string;
  /** Authenticates with private_key_jwt when set: SPKI PEM of the client's public key. */
  publicKeyPem?: string;
  /** Management API scopes of its client-credentials tokens. */
  scopes: string[];
  /** Grant types the client may use; default ["client_credentials"]. Others → 403 unauthorized_client. */
  grantTypes?: string[];
  /**
   * The one method the client is registered for. Unset (the management clients): a secret
   * client may use post or Basic, a key client private_key_jwt.
   */
  tokenEndpointAuthMethod?: ClientAuthMethod;
  /**
   * mTLS: the registered certificate (PEM). `self_signed_tls_client_auth` needs exactly this
   * certificate; `tls_client_auth` needs its subject DN and the edge's CA verification.
   */
  certificatePem?: string;
  /** /authorize redirect URIs, compared exactly. */
  redirectUris?: string[];
  /** /v2/logout returnTo URLs, compared exactly. */
  logoutUrls?: string[];
}

/** A user of a database connection (dev users: plain passwords, compared by digest). */
export interface UserRecord {
  userId: string;
  connection: string;
  /** Login name: the email address. */
  username: string;
  password: string;
  name: string;
  emailVerified: boolean;
  /** E.164; the passwordless sms connection signs this user in by it. */
  phoneNumber?: string;
}

/** What the token endpoint, /oauth/revoke and /passwordless/start hand to client authentication. */
export interface ClientAuthInput {
  /** Body parameters (JSON or form, strings only). */
  params: Record<string, string>;
  /** Request headers, lower-case names (authorization, cname-api-key, client-certificate, …). */
  headers: Record<string, string>;
}

export type ClientAuthVerdict =
  | {
      ok: true;
      client: ClientConfig;
      method: ClientAuthMethod /** mTLS: base64url SHA-256 of the certificate */;
      x5tS256?: string;
    }
  /** `client`: the client the request named, when it is known (lets a variant "accept anyway"). */
  | { ok: false; status: number; error: string; description: string; client?: ClientConfig };

/** §5.2 client authentication, all methods: the tenant's default uses the parts below. */
export type ClientAuthenticator = (input: ClientAuthInput) => Promise<ClientAuthVerdict>;

export type AssertionFault =
  | 'malformed' // not a JWS
  | 'algorithm' // alg none or not an asymmetric signature alg
  | 'signature' // not signed by the client's registered key
  | 'expired'
  | 'lifetime' // exp too far ahead
  | 'audience'
  | 'issuer' // iss is not the client id
  | 'subject' // sub missing or not the client id
  | 'claims'; // exp or jti missing, other claim checks

export type AssertionVerdict =
  | { ok: true; claims: { iss: string; sub: string; jti: string; exp: number; [claim: string]: unknown } }
  | { ok: false; reason: AssertionFault; description: string };

/** private_key_jwt: checks one assertion against the client it names (jti replay is the jtiCache's). */
export type AssertionVerifier = (
  assertion: string,
  client: ClientConfig,
  expected: { audiences: string[]; nowMs: number },
) => Promise<AssertionVerdict>;

export type MtlsFault =
  | 'api-key'
  | 'no-certificate'
  | 'malformed-certificate'
  | 'certificate-mismatch'
  | 'ca-not-verified';

export type MtlsVerdict = { ok: true; x5tS256: string } | { ok: false; reason: MtlsFault; description: string };

/**
 * mTLS through the edge: `headers` are the request's (cname-api-key, client-certificate =
 * URL-encoded PEM, client-certificate-ca-verified = SUCCESS | FAILED: …), `apiKey` the
 * tenant's custom-domain API key, `client` an mTLS client.
 */
export type MtlsEdgeCheck = (headers: Record<string, string>, client: ClientConfig, apiKey: string) => MtlsVerdict;

/** RFC 7636: the challenge stored with the code (if any) against the verifier sent (if any). */
export type PkceCheck = (
  stored: { challenge: string; method: 'S256' | 'plain' } | undefined,
  verifier: string | undefined,
) => { ok: true } | { ok: false; description: string };

/** §7.3 the authentication API's error answer: {error, error_description}. */
export type AuthErrorBuilder = (
  status: number,
  error: string,
  description: string,
  headers?: Record<string, string>,
) => TenantResponse;

/** Checks a user's password on a connection; the user when it matches. */
export type PasswordCheck = (connection: string, username: string, password: string) => UserRecord | undefined;

/** §8 repeat login attempts, per user account and IP address (key: connection|user|ip). */
export interface LoginLimiter {
  /** Before the password is looked at: `allowed: false` while the key is blocked. */
  check(key: string, nowMs: number): RateLimitState;
  failed(key: string, nowMs: number): void;
  succeeded(key: string): void;
}

export interface CodeGrant {
  clientId: string;
  userId: string;
  redirectUri: string;
  scope: string;
  audience?: string;
  nonce?: string;
  pkce?: { challenge: string; method: 'S256' | 'plain' };
  expiresAtMs: number;
}

export interface RefreshGrant {
  clientId: string;
  userId: string;
  scope: string;
  audience?: string;
  /** RFC 9449 §5: a public client's refresh token is bound to its DPoP key (the key's thumbprint). */
  jkt?: string;
}

/** /authorize parameters kept while the login page is shown. */
export interface LoginTransaction {
  clientId: string;
  redirectUri: string;
  responseType: string;
  connection: string;
  scope: string;
  state?: string;
  audience?: string;
  nonce?: string;
  pkce?: { challenge: string; method: 'S256' | 'plain' };
  expiresAtMs: number;
  /** identifier-first: the email address the first page took (the password page shows it). */
  username?: string;
  /** The password was right and a later page (one-time code, consent) is shown: the user and that page. */
  authenticated?: { user: UserRecord; next: 'otp' | 'consent' };
  /**
   * `consent: 'remembered'`: the scopes the consent page asks for and remembers — those asked that
   * the tenant lists in its metadata (`scopes_supported`), some of which it may then not grant.
   */
  consentScope?: string;
}

/** A browser's login with `loginFirst` (a session cookie): who logged in, until when. */
export interface LoginSession {
  user: UserRecord;
  expiresAtMs: number;
}

/** A /v2/logout waiting for its confirmation (`login.logoutConfirm`). */
export interface LogoutRequest {
  returnTo: string;
  expiresAtMs: number;
}

export interface OutboxMessage {
  id: string;
  connection: 'email' | 'sms';
  to: string;
  send: 'code' | 'link';
  code: string;
  link?: string;
  clientId: string;
  at: string;
}

/** A one-time code POST /passwordless/start sent (send: code). */
export interface SentCode {
  code: string;
  clientId: string;
  expiresAtMs: number;
}

/** The codes still redeemable for one recipient on one connection, and the wrong codes tried since the last right one. */
export interface RecipientCodes {
  codes: SentCode[];
  failedAttempts: number;
}

/** An OTP grant's claim: this code was sent to this recipient on this connection for this client. */
export interface OneTimeCodeAttempt {
  connection: 'email' | 'sms';
  /** The email address or phone number the code was sent to (the grant's `username`). */
  recipient: string;
  clientId: string;
  code: string;
}

/** The passwordless OTP grant's code check; single use, so an accepted code is consumed. */
export type OneTimeCodeCheck = (attempt: OneTimeCodeAttempt) => { ok: true } | { ok: false; description: string };

/** Authentication state: codes (single use), refresh tokens, login transactions, dev outbox. */
export interface AuthStore {
  saveCode(code: string, grant: CodeGrant): void;
  getCode(code: string): CodeGrant | undefined;
  deleteCode(code: string): void;
  saveRefreshToken(token: string, grant: RefreshGrant): void;
  getRefreshToken(token: string): RefreshGrant | undefined;
  revokeRefreshToken(token: string): void;
  saveLoginTransaction(id: string, tx: LoginTransaction): void;
  getLoginTransaction(id: string): LoginTransaction | undefined;
  deleteLoginTransaction(id: string): void;
  /** `loginFirst`: the sessions the login page opened (one per browser, by its cookie). */
  saveSession(id: string, session: LoginSession): void;
  getSession(id: string): LoginSession | undefined;
  /** `consent: 'remembered'`: the scopes a user granted a client, for the tenant's life. */
  rememberConsent(userId: string, clientId: string, scopes: string[]): void;
  consentedScopes(userId: string, clientId: string): string[];
  saveLogoutRequest(id: string, request: LogoutRequest): void;
  getLogoutRequest(id: string): LogoutRequest | undefined;
  deleteLogoutRequest(id: string): void;
  addOutboxMessage(m: OutboxMessage): void;
  listOutbox(): OutboxMessage[];
  /** Adds a code to the recipient's (an email address compared without case); the earlier ones stay live. */
  addSentCode(connection: string, recipient: string, sent: SentCode): void;
  /** The recipient's live codes (expired ones dropped) and wrong-code count; undefined when no code is live. */
  getSentCodes(connection: string, recipient: string): RecipientCodes | undefined;
  /** Replaces the recipient's state; with no code left the recipient is forgotten, its count too. */
  setSentCodes(connection: string, recipient: string, state: RecipientCodes): void;
}

export interface RateLimitConfig {
  capacity: number;
  refillPerSecond: number;
  /**
   * §8 "differs per endpoint": a bucket of its own size for an endpoint, by the route id that
   * starts its keys (`oauth.token`, `rs.update`, …); the others get capacity and refillPerSecond.
   */
  perEndpoint?: Record<string, { capacity: number; refillPerSecond: number }>;
}

export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** UNIX epoch seconds at which the bucket is full again. */
  reset: number;
  /** Seconds until one request is allowed again (for Retry-After on 429). */
  retryAfter: number;
}

export interface RateLimiter {
  take(key: string, nowMs: number): RateLimitState;
}

export interface AccessTokenClaims {
  iss: string;
  sub: string;
  aud: string | string[];
  azp?: string;
  scope?: string;
  exp?: number;
  iat?: number;
  [claim: string]: unknown;
}

export type TokenVerdict = { ok: true; claims: AccessTokenClaims } | { ok: false; reason: string };

/** Single-use `jti` of client assertions (private_key_jwt), remembered until they expire. */
export interface JtiCache {
  /** True the first time (clientId, jti) is seen; false on replay. */
  consume(clientId: string, jti: string, expSeconds: number, nowMs: number): boolean;
}

/** Verifies a management API bearer token (signature, expiry, issuer, audience). */
export type TokenVerifier = (token: string) => Promise<TokenVerdict>;

/** One validation finding, reported as a 400. */
export interface Issue {
  path: string;
  message: string;
}

/**
 * A field validator: looks at one value at one path and returns its findings. `check`
 * runs another entry of the table, so nested types route through the table and any
 * single entry can be overridden.
 */
export type FieldValidator = (value: unknown, at: string, check: CheckFn) => Issue[];
export type CheckFn = (key: string, value: unknown, at: string) => Issue[];
export type ValidatorTable = Record<string, FieldValidator>;

/** Rules that span fields or look at state (one per spec clause). */
export interface Rules {
  /** §4.1 path id is the ID or the identifier (percent-encoded in the path). */
  resolveResourceServer(store: Store, rawPathId: string): ResourceServerRecord | undefined;
  /** §7.1 a system resource server cannot be patched → 400. Returns the message or null. */
  rejectSystemResourceServer(rs: ResourceServerRecord): string | null;
  /** §4.1 partial update: the new record from the old one and a validated body. */
  applyResourceServerPatch(rs: ResourceServerRecord, body: Record<string, unknown>): ResourceServerRecord;
  /** §2.1/§8 token_lifetime_for_web never above token_lifetime. */
  enforceWebLifetime(rs: ResourceServerRecord): ResourceServerRecord;
  /** §2.1 the response is exactly the §2.1 fields. */
  presentResourceServer(rs: ResourceServerRecord): Record<string, unknown>;
  /** Tenant rules for allocations the spec leaves unshown (feature flag membership, sums). */
  checkAllocations(body: Record<string, unknown>, flag: FeatureFlagRecord): Issue[];
  /** Tenant rule: when an experiment is `is_valid`. */
  isExperimentValid(body: Record<string, unknown>): boolean;
  /** §5.1 required scope per operation. */
  hasScope(claims: AccessTokenClaims, scope: string): boolean;
}

/** A client grant: `clientId` may obtain tokens for the API `audience` (its identifier), with these scopes. */
export interface ClientGrant {
  clientId: string;
  audience: string;
  scopes: string[];
}

export type SigningAlg = 'HS256' | 'RS256' | 'RS512' | 'PS256';
export type TokenDialect = 'access_token' | 'access_token_authz' | 'rfc9068_profile' | 'rfc9068_profile_authz';
/** `allow_all` stands for an absent client policy too (tokens allowed, as before policies were read). */
export type SubjectPolicy = 'allow_all' | 'deny_all' | 'require_client_grant';

/**
 * A custom resource server's settings as they act on the tokens for its API, read from the
 * stored record at the moment of issue (`resourceTokenSettings`). Each field is one setting,
 * so a variant may replace one and keep the others.
 */
export interface ResourceTokenSettings {
  /** identifier: the token's audience. */
  audience: string;
  /** token_lifetime: expires_in and exp − iat of tokens from the token endpoint. */
  lifetimeSeconds: number;
  /** token_lifetime_for_web, never above token_lifetime (§2.1): tokens of the implicit flow. */
  webLifetimeSeconds: number;
  /** signing_alg: the JWS alg (RFC 7515). */
  signingAlg: SigningAlg;
  /** signing_secret: the HS256 key, as its UTF-8 bytes. */
  signingSecret: string;
  /** token_dialect: header typ and claim set. */
  dialect: TokenDialect;
  /** enforce_policies: with an `_authz` dialect, the token carries `permissions`. */
  enforcePolicies: boolean;
  /** token_encryption: a nested JWE to this key (RFC 7516, RFC 7519 §5.2), or none. */
  encryption: { alg: string; kid?: string; pem: string } | null;
  /**
   * proof_of_possession: the binding mechanism and who must present a proof (`null`: nobody,
   * the token is bound only when a proof or certificate comes anyway), or none at all.
   */
  proofOfPossession: { mechanism: 'dpop' | 'mtls'; requiredFor: 'all_clients' | 'public_clients' | null } | null;
  /** subject_type_authorization.client.policy: client credentials. */
  clientPolicy: SubjectPolicy;
  /** subject_type_authorization.user.policy: the user flows. */
  userPolicy: SubjectPolicy;
  /** allow_offline_access: a refresh token may be issued for this API. */
  offlineAccess: boolean;
  /** scopes[].value: what a token's scope may carry besides the OpenID scopes; `null`: anything asked. */
  scopes: string[] | null;
  /** skip_consent_for_verifiable_first_party_clients (every client of this tenant is first party). */
  skipConsent: boolean;
}

/** Where the spec leaves the answer open, the tenant's choice for tokens of a custom API (all off by default). */
export interface ResourceTokenChoices {
  /** RFC 9449 §8: every DPoP proof must carry a nonce the tenant gave (`use_dpop_nonce` + `DPoP-Nonce`). */
  dpopNonce: boolean;
  /** RFC 6749 §3.3: a scope value the API does not define is dropped, or the request refused `invalid_scope`. */
  undefinedScope: 'drop' | 'refuse';
  /** offline_access asked for an API with allow_offline_access false: dropped, or refused `invalid_scope`. */
  offlineAccessDenied: 'drop' | 'refuse';
  /** Claims added to every access token of a custom API (never replacing one the tenant sets). */
  extraClaims: Record<string, unknown>;
}

/** The named parts of the tenant; each can be replaced via `TenantOptions.parts`. */
export type { CodeBinding, RefreshScope, SecurityRules } from './auth/security-rules.ts';
import type { SecurityRules } from './auth/security-rules.ts';
import type { IdTokenClaimsBuilder } from './auth/id-token-claims.ts';
export type { IdTokenClaimsBuilder, IdTokenInput } from './auth/id-token-claims.ts';

export interface TenantParts {
  limits: Limits;
  validators: ValidatorTable;
  rules: Rules;
  store: Store;
  verifyAccessToken: TokenVerifier;
  rateLimiter: RateLimiter;
  jtiCache: JtiCache;
  /** Milliseconds since the epoch. */
  now: () => number;
  // Authentication API (§4.3, §5.2, §7.3, §8). The default authenticator calls the
  // assertion verifier, the mTLS check and the jti cache *as replaced*, so a variant may
  // replace one step or the whole decision.
  authenticateClient: ClientAuthenticator;
  verifyClientAssertion: AssertionVerifier;
  checkMtlsEdge: MtlsEdgeCheck;
  verifyPkce: PkceCheck;
  /** GET /userinfo bearer check (audience `<public URL>/userinfo`). */
  verifyUserToken: TokenVerifier;
  checkPassword: PasswordCheck;
  loginLimiter: LoginLimiter;
  authStore: AuthStore;
  /** Every authentication-API error answer (also its 429s) is built here. */
  authError: AuthErrorBuilder;
  /** Exact redirect URIs, code binding, no widening on refresh, registered logout URLs. */
  securityRules: SecurityRules;
  /** The claims of every ID token (iss, sub, aud, iat, exp, nonce, at_hash, profile). */
  idTokenClaims: IdTokenClaimsBuilder;
  /** The passwordless OTP grant: the code was sent, to that recipient, for that client, is live, unused. */
  verifyOneTimeCode: OneTimeCodeCheck;
  /** A custom resource server's settings in force when a token for its API is issued. */
  resourceTokenSettings: (rs: ResourceServerRecord) => ResourceTokenSettings;
  /** The tenant's choices for those tokens where the spec is silent (DPoP nonce, invalid_scope, extra claims). */
  resourceTokenChoices: ResourceTokenChoices;
}

export interface TenantOptions {
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  /** Origin the tenant is reached at (issuer and audiences follow it). Defaults to http://host:port. */
  publicUrl?: string;
  rateLimit?: RateLimitConfig;
  clients?: ClientConfig[];
  /** Users of the database connection; defaults: the dev users. */
  users?: UserRecord[];
  /** Which clients may obtain tokens for which custom API (`require_client_grant`); defaults: `defaultClientGrants()`. */
  clientGrants?: ClientGrant[];
  /** The custom-domain API key the mTLS edge sends in `cname-api-key`. */
  edgeApiKey?: string;
  /**
   * Replace named parts. Either a partial table, or a function of the default parts
   * (which are fresh per tenant) returning a partial table.
   */
  parts?: Partial<TenantParts> | ((defaults: TenantParts) => Partial<TenantParts>);
  /** Wrap the whole HTTP-level handler (plain data in, plain data out). */
  wrap?: (next: Handler) => Handler;
  /**
   * `strict`: the authentication API as a server that follows RFC 6749 / RFC 9700 strictly
   * and none of this tenant's conventions (src/profiles/strict.ts); the default is the spec's tenant.
   */
  profile?: 'default' | 'strict';
  /** The pages a login, a consent and a logout take (reference/README.md "Login profiles"); default: one login page. */
  login?: LoginOptions;
  /**
   * Where the revocation endpoint is announced: `both` (default: `/oauth/revoke` in the OpenID
   * discovery document and the RFC 8414 metadata), or `rfc8414`: at `/oauth2/revoke`, listed in
   * the RFC 8414 metadata only, as a server whose OpenID discovery omits OAuth extensions.
   */
  revocationAnnounced?: 'both' | 'rfc8414';
  /**
   * Every refresh answer carries a new refresh token and the one used is refused afterwards
   * (RFC 6749 §6 and RFC 9700 §4.14.2 leave the choice open); default false: a refresh token
   * stays valid until revoked.
   */
  refreshRotation?: boolean;
  /** What the tenant does with experiments beyond §4.2 (reference/README.md "Experiment profile"); default: neither. */
  experiments?: ExperimentProfile;
}

/**
 * Experiments as the service's own API document has them, where the spec shows nothing: a name
 * taken is refused with 409, and an experiment can be deleted (DELETE /experimentation/experiments/{id}).
 */
export interface ExperimentProfile {
  /** A creation whose name an existing experiment carries answers 409. */
  uniqueNames?: boolean;
  /** DELETE /api/v2/experimentation/experiments/{id} (scope delete:experimentation): 204, 404 for an unknown id. */
  deletable?: boolean;
}

/**
 * Shapes of the hosted login pages, as real tenants have them; each member's default is the
 * tenant's one page (username + password, no consent, no logout confirmation).
 */
export interface LoginOptions {
  /**
   * `one-page`: email and password on one page; `identifier-first`: the email on one page,
   * the password on the next; `challenge`: one page, then a one-time-code page no code passes.
   */
  flow?: 'one-page' | 'identifier-first' | 'challenge';
  /**
   * A consent page after the login: `always`, `offline` (when the scope has offline_access),
   * `never`, or `remembered`: on a login asking a scope the user has not granted that client yet,
   * whatever `prompt` says (OIDC Core §3.1.2.1's prompt=consent only SHOULD ask again), an
   * acceptance remembered for the tenant's life.
   */
  consent?: 'always' | 'offline' | 'never' | 'remembered';
  /**
   * Which clients the consent page is shown to: `all` (default), or `confidential`: only a client
   * that authenticates at the token endpoint, never a public one (`none`), as a tenant that asks
   * consent per application may be set up.
   */
  consentTo?: 'all' | 'confidential';
  /**
   * The consent page's two controls: `buttons` (default: "Decline", "Accept"), `inputs`
   * (`<input type=submit>` "Cancel" and "Authorize"), or `nested` (buttons whose labels are in a
   * `<span>`: "Deny Access", "Grant Access").
   */
  consentControls?: 'buttons' | 'inputs' | 'nested';
  /**
   * The tenant logs the user in before it reads the authorization request, as a web framework's
   * login does: /authorize without its session cookie redirects to `/u/login?next=…` whatever its
   * parameters; the login opens the session and sends the browser back, and only then is the
   * request read (its errors, the consent page, the code). One-page login on the tenant's origin only.
   */
  loginFirst?: boolean;
  /** GET /v2/logout with an allowed returnTo shows "Do you want to sign out?"; its form redirects. */
  logoutConfirm?: boolean;
  /**
   * Origin the login and consent pages are served from (a custom login domain), e.g.
   * `http://localhost:4810`: /authorize redirects there and their forms post there. The
   * tenant serves it too; default: the tenant's own origin, relative URLs.
   */
  origin?: string;
}

/** LoginOptions with the defaults filled in and the origin normalized. */
export type LoginProfile = Required<Omit<LoginOptions, 'origin'>> & { origin?: string };

export interface RunningTenant {
  /** Base URL the server listens on, e.g. http://127.0.0.1:4810 */
  url: string;
  /** Public URL (issuer/audience base), without trailing slash. */
  publicUrl: string;
  port: number;
  close(): Promise<void>;
}
