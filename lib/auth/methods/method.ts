// What a way to authenticate of §5.2 is, as a row of lib/auth/methods/: its clauses, how a
// client of it authenticates a request, its named faults (its clients' settings: clients.ts).
import type { Config, MtlsClient } from '../../config.ts';
import type { Exchange } from '../../http.ts';
import type { Checks } from '../../checks.ts';
import type { MethodId } from './clients.ts';
import type { AuthEncoding } from '../encoding.ts';
import type { AttackRow } from '../attacks/catalogue.ts';
import type { SkipRecord } from '../../skip-record.ts';

/** One way to authenticate as the report and the OpenAPI document name it. */
export interface AuthMethod {
  name: string;
  /** The clause of the accepted case; the method's other clauses start with it. */
  clause: string;
}

/** What a client of a method sends: the body and the headers that authenticate it. */
export interface MethodRequest {
  data: Record<string, unknown>;
  headers: Record<string, string>;
  /** The assertion's jti, when the method signs one (its replay is recorded). */
  jti?: string;
}

/** A configured client of a method, as the method authenticates it. */
export interface MethodClient {
  id: string;
  /** The mTLS client, for the headers the edge forwards. */
  mtls?: MtlsClient;
  secret?: string;
}

export interface MethodFault {
  id: string;
  /** "a wrong client secret": what is wrong, for the test title and the evidence. */
  what: string;
  /** The clause the refusal is judged under, when not the method's refusal clause. */
  clause?: string;
  /** Which clients it is sent for (default: every configured client of the method). */
  for?(c: MethodClient, cfg: Config): boolean;
  /** Why it is not sent at all, when the configuration leaves it out (null: it is sent). */
  unset?(cfg: Config): SkipRecord | null;
  /** Its row in the attack catalogue, when it is one (its answer goes to the report's attack section). */
  attack?: AttackRow;
}

/** A way to authenticate at the token endpoint (the client-credentials grant). */
export interface TokenMethod extends AuthMethod {
  /** Its value in IDM_NOT_OFFERED, and its row of clients (clients.ts). */
  id: MethodId;
  /** The clause the faults' refusals are judged under. */
  refusedClause: string;
  /** More clauses the accepted case records (the form-encoded Basic header, the assertion's replay). */
  acceptClauses: readonly string[];
  /** The skip record when no client of it is configured: the settings to set (the run's). */
  needs: SkipRecord;
  clients(cfg: Config): MethodClient[];
  request(cfg: Config, c: MethodClient, fault?: string): Promise<MethodRequest>;
  faults: readonly MethodFault[];
  /** The answer the encoding probe got to this very request (lib/auth/encoding.ts), not sent again. */
  known?(enc: AuthEncoding, c: MethodClient): Exchange | null;
  /**
   * The accepted case, when the method has more than one right form (the assertion's audience):
   * each sent in a fixed order until one is taken; the first taken, else the first, is the twin.
   */
  accept?(
    cfg: Config,
    c: MethodClient,
    send: (r: MethodRequest) => Promise<Exchange>,
  ): Promise<{ req: MethodRequest; ex: Exchange }>;
  /** How the accepted case is described in its evidence. */
  describe(cfg: Config, c: MethodClient): string;
  /** What the accepted case also records, beside its answer. */
  besides?(o: {
    cfg: Config;
    check: Checks;
    enc: AuthEncoding;
    c: MethodClient;
    req: MethodRequest;
    ex: Exchange;
    send(r: MethodRequest): Promise<Exchange>;
  }): Promise<void>;
}

/** The client-credentials grant every way of authenticating at the token endpoint is tried with. */
export const cc = (cfg: Config): Record<string, unknown> => ({
  grant_type: 'client_credentials',
  audience: cfg.audience,
});

/** A confidential client sending its client ID alone (§5.2: that way is for public applications). */
export const ID_ALONE: MethodFault = {
  id: 'id-alone',
  what: 'its client ID alone (a confidential client)',
  clause: 'auth.method.client-id-only.confidential-refused',
};
