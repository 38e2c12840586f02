// The accepted-twin rule, written once: a refusal proves something only beside the same request,
// made right, accepted in the same run (as the OpenID Foundation's modules call the precondition
// with callAndStopOnFailure, then one condition per rule). A Twin is what an accepted case gave;
// only this gate makes one, and every refusal condition takes one — a refusal cannot be judged
// without its twin. Beside a twin that failed, the refusal's clauses are skipped naming it and
// its cause; a wrong request the tenant accepted fails its clause whatever the twin did.
import type { TestInfo } from '@playwright/test';
import type { Checks } from '../checks.ts';
import { skipClauses } from '../declare.ts';
import type { Exchange } from '../http.ts';
import { clauseSkip } from '../skip-record.ts';
import { isObject, short } from '../values.ts';
import { expectIssued, failureCause, issued, notExercised } from './acceptance.ts';
import type { AttackRow } from './attacks/catalogue.ts';
import { recordAttack, type AttackOutcome } from './attacks/record.ts';

/** What the accepted case gave: made by the gate only. */
export interface Twin {
  readonly clause: string;
  readonly ok: boolean;
  /** Why it was not accepted (one line), when it was not. */
  readonly cause: string;
  readonly [TWIN]: true;
}
declare const TWIN: unique symbol;

const CLIENT_FAULT = 'auth.error.client-fault-4xx';

export interface RefusalOptions {
  /** Observe clause that records the exact status and error code. */
  statusClause?: string;
  /** The answer came from the token endpoint: RFC 6749 §5.2's `error` member applies, and a 4xx must carry no token. */
  tokenEndpoint?: boolean;
  /** false when the request itself is right and refused for another reason (a blocked login). */
  faulty?: boolean;
  /** The row of the attack catalogue this wrong request is (its answer goes to the report's attack section). */
  attack?: AttackRow;
  /** Said beside the attack's answer in the report (e.g. the key URL the tenant fetched). */
  attackNote?: string;
}

/** The clauses a client authentication's refusal judges besides its own (§5.2, §7.3, RFC 6749 §5.2). */
export const CLIENT_AUTH_REFUSAL_CLAUSES: readonly string[] = [
  CLIENT_FAULT,
  'auth.error.object',
  'auth.error.oauth-error',
  'auth.method.client-auth-status',
];

/** A refusal at the token endpoint by a client authentication (§5.2): status and error code recorded. */
export const CLIENT_AUTH: RefusalOptions = { statusClause: 'auth.method.client-auth-status', tokenEndpoint: true };
/** A grant refused at the token endpoint in a flow: status and error code recorded with the flows'. */
export const FLOW_GRANT: RefusalOptions = { statusClause: 'auth.flow.refusals', tokenEndpoint: true };

export class TwinGate {
  constructor(
    private readonly check: Checks,
    private readonly info: TestInfo,
  ) {}

  /**
   * The accepted case at the token endpoint: `clause` holds when a token was issued (RFC 6749
   * §5.1), the answer then validating as a token answer. `note` says how it was sent.
   */
  async issued(clause: string, ex: Exchange, what: string, note = ''): Promise<Twin> {
    const ok = await expectIssued(this.check, clause, ex, what, note);
    return twin(clause, ok, ok ? '' : failureCause(ex));
  }

  /** An accepted case judged elsewhere (or not a verdict of its own): only what it gave. */
  given(clause: string, ok: boolean, cause: string): Twin {
    return twin(clause, ok, cause);
  }

  /** An accepted case that is itself a rule: `clause` holds when `ok`. */
  accepted(clause: string, ok: boolean, message: string, cause: string, ex?: Exchange): Twin {
    this.check.that(clause, ok, message, ex);
    return twin(clause, ok, cause);
  }

  /** The first twin that failed, or the first of them: several accepted cases one refusal needs all of. */
  all(...twins: Twin[]): Twin {
    return twins.find((t) => !t.ok) ?? (twins[0] as Twin);
  }

  /**
   * A wrong request refused: a 4xx (§7.3) with an error object, at the token endpoint with an
   * `error` member (RFC 6749 §5.2) and no token; the exact status and code recorded. A 5xx fails
   * auth.error.client-fault-4xx alone (one cause, one failure); an issued token fails `clause`
   * whatever the twin did.
   */
  refused(t: Twin, clause: string, ex: Exchange, what: string, o: RefusalOptions = {}): boolean {
    const verdict = this.judgeRefusal(t, clause, ex, what, o);
    if (o.attack) {
      const outcome: AttackOutcome = verdict
        ? 'refused'
        : issued(ex) || (!o.tokenEndpoint && ex.status >= 200 && ex.status < 300)
          ? 'accepted'
          : ex.status >= 500
            ? 'fault'
            : !t.ok
              ? 'not judged'
              : 'wrong refusal';
      recordAttack(
        this.info,
        o.attack,
        ex,
        outcome,
        o.attackNote ?? (t.ok ? '' : notExercised(t.clause, t.cause).text),
      );
    }
    return verdict;
  }

  /**
   * A wrong credential refused with the one status the spec names (§7.1: 401 for an invalid
   * token), beside its accepted twin; anything else fails `clause`, an acceptance whatever the twin did.
   */
  refusedWith(
    t: Twin,
    clause: string,
    ex: Exchange,
    status: number,
    what: string,
    attack?: AttackRow,
    note = '',
  ): boolean {
    const accepted = ex.status >= 200 && ex.status < 300;
    const ok = !t.ok && !accepted ? this.skip(t, clause) : this.check.expectStatus(clause, ex, status, what);
    if (attack)
      recordAttack(
        this.info,
        attack,
        ex,
        ok ? 'refused' : accepted ? 'accepted' : ex.status >= 500 ? 'fault' : t.ok ? 'wrong refusal' : 'not judged',
        note || (t.ok ? '' : notExercised(t.clause, t.cause).text),
      );
    return ok;
  }

  /** An attack that could not be made from what the carrier offers: its row says why, its clause is not judged by it. */
  notMade(attack: AttackRow, why: string): void {
    recordAttack(this.info, attack, null, 'not made', why);
  }

  private judgeRefusal(t: Twin, clause: string, ex: Exchange, what: string, o: RefusalOptions): boolean {
    if (!t.ok && !issued(ex)) return this.skip(t, clause, ...companions(o));
    const { check } = this;
    const faulty = o.faulty !== false && clause !== CLIENT_FAULT;
    let refused: boolean;
    if (faulty && ex.status >= 500) {
      // Not an acceptance but a service fault (§7.3): said once, where that rule is judged.
      check.that(CLIENT_FAULT, false, `${what}: expected a 4xx, got ${ex.status} (a fault on the service side)`, ex);
      skipClauses(
        this.info,
        clauseSkip(CLIENT_FAULT, `not judged: ${what} answered ${ex.status}, a service fault (${CLIENT_FAULT})`),
        clause,
      );
      refused = false;
    } else {
      refused = check.expectRejected(clause, ex, what);
      if (refused && faulty) check.that(CLIENT_FAULT, true, `${what}: ${ex.status}`);
    }
    if (refused) {
      const obj = isObject(ex.body);
      check.that(
        'auth.error.object',
        obj,
        `${what}: ${ex.status} ${obj ? 'with an error object' : `without a JSON error object: ${short(ex.text)}`}`,
        ex,
      );
      // No object at all is auth.error.object's failure alone: the member is judged inside one.
      if (o.tokenEndpoint && obj) {
        const body = ex.body as Record<string, unknown>;
        check.that(
          'auth.error.oauth-error',
          typeof body.error === 'string' && body.error.length > 0,
          `${what}: token-endpoint error ${typeof body.error === 'string' ? `"${body.error}"` : 'without a string error member'}`,
          ex,
        );
        if (typeof body.access_token === 'string' && body.access_token !== '')
          check.that(clause, false, `${what}: ${ex.status}, yet with an access_token`, ex);
      }
    }
    if (o.statusClause) check.observe(o.statusClause, `${what}: ${ex.status} ${errorCode(ex)}`);
    return refused && !(o.tokenEndpoint && isObject(ex.body) && typeof ex.body.access_token === 'string');
  }

  /**
   * A rule about a wrong request other than its status (never redirected there, not widened,
   * no code after a declined consent): judged beside an accepted twin; `decisive` when what
   * was seen breaks the rule whatever the twin did (the browser was sent there).
   */
  holds(t: Twin, clause: string, ok: boolean, message: string, ex?: Exchange, decisive = false): boolean {
    if (!t.ok && !(decisive && !ok)) return this.skip(t, clause);
    return this.check.that(clause, ok, message, ex);
  }

  /**
   * A request the server cannot read is refused: a 4xx, or a redirect to the tenant's own error
   * page (RFC 6749 §4.1.2.1: inform the resource owner, never redirect to the client).
   */
  notRead(t: Twin, clause: string, ex: Exchange, what: string, clientRedirects: readonly string[]): boolean {
    if (!t.ok) return this.skip(t, clause);
    const page = ownErrorPage(ex, clientRedirects);
    if (page !== null)
      return this.check.that(
        clause,
        true,
        `${what}: ${ex.status} to the tenant's own ${page} (an error shown to the person)`,
      );
    const location = ex.status >= 300 && ex.status < 400 ? ` to ${ex.headers.location ?? '(no Location)'}` : '';
    return this.check.that(
      clause,
      ex.status >= 400 && ex.status < 500,
      `${what}: expected a 4xx, got ${ex.status}${location}`,
      ex,
    );
  }

  /** The clauses of a refusal not judged, naming the twin that failed and why. */
  skip(t: Twin, ...clauses: string[]): false {
    skipClauses(this.info, notExercised(t.clause, t.cause), ...clauses);
    return false;
  }
}

/**
 * A request the server cannot read (no client, no parameters) may be answered by the tenant's
 * own error page behind a redirect: a 3xx to the origin of the request, carrying no code or
 * token and naming no client redirect URI. Anything else is not such a page (null).
 */
export function ownErrorPage(ex: Exchange, clientRedirects: readonly string[]): string | null {
  const location = ex.status >= 300 && ex.status < 400 ? ex.headers.location : undefined;
  if (location === undefined) return null;
  let to: URL;
  try {
    to = new URL(location, ex.request.url);
  } catch {
    return null;
  }
  if (to.origin !== new URL(ex.request.url).origin) return null;
  const carried = [...to.searchParams, ...new URLSearchParams(to.hash.slice(1))];
  if (carried.some(([k]) => ['code', 'access_token', 'id_token'].includes(k))) return null;
  const toClient = (v: string): boolean => clientRedirects.some((r) => v.startsWith(r));
  if (toClient(to.href) || carried.some(([, v]) => toClient(v))) return null;
  return to.pathname;
}

// Helpers

function twin(clause: string, ok: boolean, cause: string): Twin {
  return { clause, ok, cause } as Twin;
}

function companions(o: RefusalOptions): string[] {
  return o.statusClause === 'auth.method.client-auth-status' ? CLIENT_AUTH_REFUSAL_CLAUSES.slice(1) : [];
}

function errorCode(ex: Exchange): string {
  if (isObject(ex.body) && typeof ex.body.error === 'string') return ex.body.error;
  return isObject(ex.body) ? `members ${Object.keys(ex.body).join(', ')}` : 'no error object';
}
