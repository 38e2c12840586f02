// What the named flows' fixture offers a spec (lib/auth/flow-fixtures.ts builds it): its
// answers, a user's tokens, a logout's destination, and the Flows interface itself.
import type { AuthPath } from '../config.ts';
import type { Exchange } from '../http.ts';
import type { AuthEncoding } from './encoding.ts';
import type { Endpoint } from './endpoints.ts';
import type { AuthorizeOutcome, WalkStep } from './login-walk.ts';
import type { SkipRecord } from '../skip-record.ts';

export interface TokenAnswer {
  ex: Exchange;
  accessToken: string | null;
  refreshToken: string | null;
  tokenType: string | null;
}

/** A user's tokens and where they came from (said in the evidence of the checks that use them). */
export interface UserTokens {
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  /** The client the code was issued to, and the nonce its authorization request carried. */
  clientId: string | null;
  nonce: string | null;
  /** The code exchange's answer (null when there was no code to exchange). */
  exchange: Exchange | null;
  /** e.g. "the code flow with PKCE (client conformance-spa)". */
  source: string;
  /** Why there are none: the record the dependent clauses are skipped with. */
  problem: SkipRecord | null;
  /** What the login met on a consent page (null: none was shown). */
  consent: AuthorizeOutcome['consent'];
  /** Where the login's authorization request ended (loginEnd in flow-logins.ts). */
  login: LoginEnd;
}

/**
 * Where a code-flow login ended: `came-back` to its redirect_uri with the state it sent (RFC 6749
 * §4.1.2, §4.1.2.1: the tenant read client_id, redirect_uri and state from the query, §4.3), at
 * the redirect_uri with `another-state` (or none), `refused` by the tenant (the password), `not-driven`
 * (a page the walk could not drive: the suite's gap), or `stopped` at the tenant without a redirect.
 */
export type LoginEnd = 'came-back' | 'another-state' | 'refused' | 'not-driven' | 'stopped';

export interface WalkOptions {
  /** What to do on a consent page (default accept). */
  consent?: 'accept' | 'decline';
  /** The walk provokes a per-account block (§8): a 429's headers describe the block, not the pace. */
  provokesBlock?: boolean;
}

/** A logout request and where it sent the browser (through a confirmation page when the tenant shows one). */
export interface LogoutAnswer {
  /** The answer to the logout URL itself. */
  ex: Exchange;
  /** Where the tenant sent the browser (a 3xx's Location, or where the confirmation walk ended); null: nowhere. */
  redirectedTo: string | null;
  /** The confirmation pages walked, when the answer was a page. */
  steps: WalkStep[];
  /** The walk could not confirm the page (the suite's gap), or null. */
  notDriven: string | null;
}

/** An authorization request through the hosted login, as the test user or as `as`. */
type AuthorizationRequest = (
  e: Endpoint,
  params: Record<string, string>,
  redirectUris: string[],
  as?: { username: string; password: string },
  o?: WalkOptions,
) => Promise<AuthorizeOutcome>;

export interface Flows {
  /** The encoding POSTs are sent with (JSON, or the form where JSON alone is refused). */
  encoding(): Promise<AuthEncoding>;
  /**
   * A way to authenticate's request (built over client credentials) over the grant the tenant
   * offers (lib/auth/encoding.ts `overGrant`), for `clientId`: the code exchange takes a fresh
   * login's code; where that login gave none, the test stops skipped with its record.
   */
  grantRequest(data: Record<string, unknown>, clientId: string): Promise<Record<string, unknown>>;
  /**
   * The test user's tokens through the authorization code flow with PKCE in the browser
   * (RFC 9700 §2.1.1), never a deprecated grant: the public client, or the confidential
   * (Post) client when `confidential`. offline_access is asked with prompt=consent (OIDC Core §11).
   * One login per client and scope in a worker: the tests that only read with the tokens share
   * it (the same login twice is the same request twice); a test that spends its refresh token
   * asks for a combination nobody else does; `fresh`: a login of its own, for a test that ends
   * the session it made (a logout with its ID token as the hint).
   */
  userTokens(scope: string, o?: { confidential?: boolean; fresh?: boolean }): Promise<UserTokens>;
  /** Where an endpoint is; skips the test when a default path is not served (404/405). */
  endpoint(which: AuthPath): Promise<Endpoint>;
  /**
   * Stops the test when `ex` shows the endpoint does not exist (lib/auth/absent.ts): its flow's
   * own clause fails there, any other test is skipped naming it.
   */
  stopIfAbsent(e: Endpoint, ex: Exchange): void;
  /** POST to the token endpoint (the accepted encoding); tokens in the answer are masked from then on. */
  token(data: Record<string, unknown>): Promise<TokenAnswer>;
  /**
   * The test user's tokens through the password grant with the confidential (Post) client;
   * skips the test, naming the settings, when either is not configured.
   */
  passwordGrant(scope: string): Promise<TokenAnswer>;
  /**
   * POST with the accepted encoding (JSON by §4.3). Sent to an Endpoint, the answer is classified
   * knowing it (a 404 where nothing lists it: no such endpoint, lib/answer-class.ts).
   */
  post(to: string | Endpoint, data: Record<string, unknown>, headers?: Record<string, string>): Promise<Exchange>;
  /** GET with parameters in the query string; to an Endpoint as `post`. */
  get(to: string | Endpoint, query?: Record<string, string>, headers?: Record<string, string>): Promise<Exchange>;
  /**
   * An authorization request through the hosted login in Chromium (the login walk), as the
   * configured test user. Skips the test (with the reason) when there is no Chromium or no test
   * user, and when the walk could not drive a page ("login not driven: …": the suite's gap).
   */
  authorize: AuthorizationRequest;
  /** As authorize, but a page the walk cannot drive is returned (`notDriven`) instead of skipping. */
  walk: AuthorizationRequest;
  /**
   * GET a logout URL; a page in answer (a logout confirmation) is walked in the browser,
   * confirmed, and followed to where it sends the browser (any of `returnUris`).
   */
  logout(e: Endpoint, url: string, returnUris: string[]): Promise<LogoutAnswer>;
  /** Masks a value in every report from now on (codes, tokens met outside a token answer). */
  secret(value: string | null | undefined): void;
}
