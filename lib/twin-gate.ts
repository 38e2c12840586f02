// The accepted-twin rule, written once: a refusal proves something only beside the same request,
// made right, accepted in the same run (as the OpenID Foundation's modules call the precondition
// with callAndStopOnFailure, then one condition per rule). A Twin is what an accepted case gave;
// only this gate makes one, and every refusal condition takes one — a refusal cannot be judged
// without its twin. Beside a twin that failed, the refusal's clauses are skipped naming it and
// its cause; a wrong request the tenant accepted fails its clause whatever the twin did.
import type { TestInfo } from '@playwright/test';
import type { Checks } from './checks.ts';
import { skipClauses } from './declare.ts';
import { clauseSkip, faultSkip, type SkipRecord } from './skip-record.ts';
import type { Exchange } from './http.ts';
import { isObject } from './values.ts';
import { describeBody, notIssuedCause } from './answer-words.ts';
import { answerEvidence, describeClass, passes, PASSES, type Classified } from './answer-class.ts';
import { judgeBy, type Condition, type Judged } from './condition.ts';

/** What the accepted case gave: made by the gate only. */
export interface Twin {
  readonly clause: string;
  readonly ok: boolean;
  /** Why it was not accepted (one line), when it was not. */
  readonly cause: string;
  readonly [TWIN]: true;
}
declare const TWIN: unique symbol;

/** What a flow or an accepted case gave, as its own clause judges it: the twin of what is judged beside it. */
export interface Gave {
  /** The accepted case's own clause. */
  readonly clause: string;
  readonly ok: boolean;
  /** What it gave, in one line (the clause's evidence, and the skip text of what needed it). */
  readonly seen: string;
}

/** What a wrong request came to, decided once: refused as the carrier must, let in, a fault, or not judged. */
export type AttackOutcome = 'refused' | 'accepted' | 'wrong refusal' | 'fault' | 'not judged' | 'not made';

/** A wrong request that is a row of the attack catalogue (lib/auth/attacks/catalogue.ts): its id and its clause. */
export interface Listed {
  readonly id: string;
  readonly clause: string;
}

/** Lists what a row of the catalogue came to (the report's attack section); handed to the gate by its fixture. */
export type ListAttack = (row: Listed, ex: Exchange | null, outcome: AttackOutcome, note: string) => void;

const CLIENT_FAULT = 'auth.error.client-fault-4xx';
/** §7.1 lists the management API's error statuses; a 5xx is none of them (RFC 9110 §15.6). */
export const MGMT_FAULT = 'mgmt.error.server-fault';
/** The clauses a service fault fails: never a counterexample of a property (lib/property.ts). */
export const FAULT_CLAUSES: ReadonlySet<string> = new Set([CLIENT_FAULT, MGMT_FAULT]);
/** The clause of the management token's twin: the genuine token's empty update, as the setup sent it. */
const SETUP_READ = 'auth.mgmt.bearer-jwt';

export interface RefusalOptions {
  /** Observe clause that records the exact status and error code. */
  statusClause?: string;
  /** The answer came from the token endpoint: RFC 6749 §5.2's `error` member applies, and a 4xx must carry no token. */
  tokenEndpoint?: boolean;
  /** false when the request itself is right and refused for another reason (a blocked login). */
  faulty?: boolean;
  /** The row of the attack catalogue this wrong request is (its answer goes to the report's attack section). */
  attack?: Listed;
  /** Said beside the attack's answer in the report (e.g. the key URL the tenant fetched). */
  attackNote?: string;
}

/** The clauses a client authentication's refusal judges besides its own (§5.2, §7.3, RFC 6749 §5.2). */
export const CLIENT_AUTH_REFUSAL_CLAUSES: readonly string[] = [
  CLIENT_FAULT,
  'auth.error.object',
  'auth.error.oauth-error',
  'auth.method.client-auth-status',
  'auth.error.fields',
];

/** A refusal at the token endpoint by a client authentication (§5.2): status and error code recorded. */
export const CLIENT_AUTH: RefusalOptions = { statusClause: 'auth.method.client-auth-status', tokenEndpoint: true };
/** A grant refused at the token endpoint in a flow: status and error code recorded with the flows'. */
export const FLOW_GRANT: RefusalOptions = { statusClause: 'auth.flow.refusals', tokenEndpoint: true };

export class TwinGate {
  constructor(
    private readonly check: Checks,
    readonly info: TestInfo,
    /** The management API's base: a fault there is the management fault clause's, elsewhere §7.3's. */
    private readonly apiBase: string,
    private readonly list: ListAttack = () => {},
  ) {}

  /**
   * The management token's accepted twin: the global setup read the configured resource server
   * with the genuine token (PATCH {}, the snapshot), or no test would run.
   */
  setupRead(): Twin {
    return twin(SETUP_READ, true, '');
  }

  /**
   * A named condition on an exchange the gate classifies first: a 5xx is a fault (the fault
   * clause fails once, the condition's clauses are skipped naming it), never the condition's.
   */
  async call<I, C extends string>(c: Condition<I, C>, ex: Exchange | null, input: I, what = ''): Promise<Judged> {
    if (ex?.answer.class === 'fault') return this.faulted(c.clauses, ex, what || describeRequest(ex));
    return judgeBy(c, this.check, input);
  }

  /**
   * The accepted case at the token endpoint, the one acceptance check of a method or flow: `clause`
   * holds when a token was issued (RFC 6749 §5.1), the answer then validating as a token answer
   * (auth.token.answer). `note` says how it was sent where that differs from the spec's convention.
   */
  async issued(clause: string, ex: Exchange, what: string, note = ''): Promise<Twin> {
    const ok = ex.answer.issued !== null;
    const cause = ok ? '' : notIssuedCause(ex);
    this.check.that(clause, ok, `${what} ${ok ? `answered ${ex.status} with a token` : cause}${note}`, ex);
    if (ok) await this.check.expectSchema('auth.token.answer', 'TokenResponse', ex.body, ex);
    return twin(clause, ok, cause);
  }

  /**
   * The twin an accepted exchange makes, judged elsewhere: accepted when the tenant took it; when
   * it was a fault, the fault clause is what the refusals beside it are skipped naming.
   */
  twinOf(clause: string, ex: Exchange): Twin {
    const { answer } = ex;
    return answer.class === 'fault'
      ? twin(this.faultClause(ex), false, `answered ${ex.status}`)
      : twin(clause, answer.class === 'accepted', answer.class === 'accepted' ? '' : `answered ${ex.status}`);
  }

  /** An accepted case judged elsewhere (or not a verdict of its own): only what it gave. */
  given(clause: string, ok: boolean, cause: string): Twin {
    return twin(clause, ok, cause);
  }

  /** What a flow gave, as its own clause judges it (lib/auth/flow-products.ts): the twin of what judges its products. */
  gave(g: Gave): Twin {
    return twin(g.clause, g.ok, g.ok ? '' : g.seen);
  }

  /** An accepted case that is itself a rule: `clause` holds when `ok`. */
  accepted(clause: string, ok: boolean, message: string, cause: string, ex?: Exchange, answer?: Classified): Twin {
    this.check.that(clause, ok, message, ex, answer && answerEvidence(answer));
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
    if (o.attack)
      this.list(
        o.attack,
        ex,
        outcomeOf(t, ex, verdict, o.tokenEndpoint === true),
        o.attackNote ?? (t.ok ? '' : notExercised(t.clause, t.cause).text),
      );
    return verdict;
  }

  /**
   * A wrong request refused with the status the spec names for it (§7.1: 400 for an invalid body,
   * 401 for an invalid token, 403 for a missing scope), or with any 4xx where it names none, beside
   * its accepted twin; an acceptance fails `clause` whatever the twin did, a 5xx is a fault.
   */
  refusedWith(
    t: Twin,
    clause: string,
    ex: Exchange,
    status: number | '4xx',
    what: string,
    attack?: Listed,
    note = '',
  ): boolean {
    const { answer } = ex;
    const ok =
      !t.ok && answer.class !== 'accepted'
        ? this.skip(t, clause)
        : answer.class === 'fault'
          ? this.faulted([clause], ex, what)
          : this.check.that(
              clause,
              status === '4xx' ? passes(answer, PASSES.refused4xx) : ex.status === status,
              `${what}: expected ${status === '4xx' ? 'a 4xx' : status}, got ${ex.status}: ${describeClass(answer)}`,
              ex,
              answerEvidence(answer),
            );
    if (attack)
      this.list(attack, ex, outcomeOf(t, ex, ok, false), note || (t.ok ? '' : notExercised(t.clause, t.cause).text));
    return ok;
  }

  /** An attack that could not be made from what the carrier offers: its row says why, its clause is not judged by it. */
  notMade(attack: Listed, why: string): void {
    this.list(attack, null, 'not made', why);
  }

  /**
   * An attack sent but not judged, for `cause` (a carrier that took an altered signature checks
   * none: its JWT attacks are that one cause, issue 40 item 8): listed with what the tenant
   * answered, its clause skipped with the record.
   */
  notJudged(attack: Listed, ex: Exchange, cause: SkipRecord): void {
    this.list(attack, ex, 'not judged', cause.text);
    skipClauses(this.info, cause, attack.clause);
  }

  /** The tenant took the wrong credential: a token issued, or (elsewhere than a token endpoint) a 2xx. */
  took(ex: Exchange, tokenEndpoint = false): boolean {
    return taken(ex, tokenEndpoint);
  }

  private judgeRefusal(t: Twin, clause: string, ex: Exchange, what: string, o: RefusalOptions): boolean {
    if (!t.ok && ex.answer.issued === null) return this.skip(t, clause, ...companions(o));
    const { check } = this;
    const faulty = o.faulty !== false && clause !== CLIENT_FAULT;
    const { answer } = ex;
    let refused: boolean;
    if (faulty && answer.class === 'fault') {
      this.faulted([clause], ex, what);
      refused = false;
    } else {
      refused = check.that(
        clause,
        passes(answer, PASSES.refused4xx),
        `${what}: expected a 4xx, got ${ex.status}: ${describeClass(answer)}`,
        ex,
        answerEvidence(answer),
      );
      if (refused && faulty) check.that(CLIENT_FAULT, true, `${what}: ${ex.status}`);
    }
    if (refused) {
      const obj = isObject(ex.body);
      check.that(
        'auth.error.object',
        obj,
        // Why no object was read (issue 40, item 9): the content type it came as, beside its start.
        `${what}: ${ex.status} ${obj ? 'with an error object' : `without a JSON error object,${describeBody(ex)}`}`,
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
    } else if (!faulty || answer.class !== 'fault') {
      // No refusal, so no error answer: what is judged on one cannot be, without `clause`.
      const judgedOnRefusal = [
        ...(faulty ? [CLIENT_FAULT] : []),
        'auth.error.object',
        ...(o.tokenEndpoint ? ['auth.error.oauth-error'] : []),
      ];
      skipClauses(this.info, clauseSkip(clause, `not judged: ${what} was not refused (${clause})`), ...judgedOnRefusal);
    }
    if (o.statusClause) check.observe(o.statusClause, `${what}: ${ex.status} ${errorCode(ex)}`);
    // §7.3 shows no field names: the members of a refused client authentication's error object are recorded.
    if (refused && o.statusClause === CLIENT_AUTH.statusClause)
      check.observe(
        'auth.error.fields',
        isObject(ex.body)
          ? `error object members: ${Object.keys(ex.body).sort().join(', ')}`
          : `no JSON object,${describeBody(ex)}`,
        ex,
      );
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
   * A 5xx where `clauses` needed an answer (never read, accepted or refused): a service fault,
   * failing the fault clause of its API once (§7.3 for the authentication API, §7.1's statuses
   * for the management API); `clauses` are skipped naming it.
   */
  faulted(clauses: string | readonly string[], ex: Exchange, what: string): false {
    this.skipForFault(typeof clauses === 'string' ? [clauses] : clauses, ex, what);
    return false;
  }

  /**
   * The fault's record when `ex` is a fault, null otherwise; with a fault, every clause of `judged`
   * (conditions, or clause ids) is skipped naming the fault clause (the one cause), so the caller
   * judges nothing more on it and may skip what else rested on the answer with the same record.
   */
  faultedFor(ex: Exchange, judged: ReadonlyArray<Condition<never> | string>, what: string): SkipRecord | null {
    if (ex.answer.class !== 'fault') return null;
    return this.skipForFault(
      judged.flatMap((c) => (typeof c === 'string' ? [c] : c.clauses)),
      ex,
      what,
    );
  }

  private skipForFault(clauses: readonly string[], ex: Exchange, what: string): SkipRecord {
    const { answer } = ex;
    const fault = this.faultClause(ex);
    // A management answer's fault is judged on the answer itself (lib/answer-rules.ts), once.
    if (fault !== MGMT_FAULT)
      this.check.that(
        fault,
        false,
        `${what}: expected a 4xx, got ${ex.status} (${describeClass(answer)}: a fault on the service side)`,
        ex,
        answerEvidence(answer),
      );
    const record = faultSkip(fault, what, ex.status);
    skipClauses(this.info, record, ...new Set(clauses.filter((c) => c !== fault)));
    return record;
  }

  /** The fault clause of the API an exchange went to. */
  faultClause(ex: Exchange): string {
    return ex.request.url.startsWith(this.apiBase) ? MGMT_FAULT : CLIENT_FAULT;
  }

  /** The clauses of a refusal not judged, naming the twin that failed and why. */
  skip(t: Twin, ...clauses: string[]): false {
    skipClauses(this.info, notExercised(t.clause, t.cause), ...clauses);
    return false;
  }
}

// Helpers

/** The record a refusal clause is skipped with when its accepted twin failed: it names the twin's clause. */
export function notExercised(acceptClause: string, cause: string): SkipRecord {
  return clauseSkip(acceptClause, `not exercised: the accepted case failed (${acceptClause}: ${cause})`);
}

/** What an attack came to, decided once: refused as the carrier must, let in, a fault, or not judged. */
function outcomeOf(t: Twin, ex: Exchange, refused: boolean, tokenEndpoint: boolean): AttackOutcome {
  if (refused) return 'refused';
  if (taken(ex, tokenEndpoint)) return 'accepted';
  if (ex.answer.class === 'fault') return 'fault';
  return t.ok ? 'wrong refusal' : 'not judged';
}

/** A wrong credential taken: a token issued, or (elsewhere than a token endpoint) a 2xx. */
function taken(ex: Exchange, tokenEndpoint: boolean): boolean {
  return ex.answer.issued !== null || (!tokenEndpoint && passes(ex.answer, PASSES.success));
}

function describeRequest(ex: Exchange): string {
  return `${ex.request.method} ${decodeURIComponent(new URL(ex.request.url).pathname)}`;
}

function twin(clause: string, ok: boolean, cause: string): Twin {
  return { clause, ok, cause } as Twin;
}

function companions(o: RefusalOptions): string[] {
  return o.statusClause === 'auth.method.client-auth-status' ? CLIENT_AUTH_REFUSAL_CLAUSES.slice(1) : [];
}

function errorCode(ex: Exchange): string {
  if (ex.answer.error !== null) return ex.answer.error;
  return isObject(ex.body) ? `members ${Object.keys(ex.body).join(', ')}` : 'no error object';
}
