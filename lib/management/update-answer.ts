// What every answer to an accepted resource-server update must satisfy (§2.1, §4.1), as named
// conditions, each judging one thing on one answer. UPDATE_ANSWER is what a test that judges such
// answers declares (clausesOf), so the list of its clauses is the conditions', never kept by hand.
import { condition, perClause } from '../condition.ts';
import type { Exchange } from '../http.ts';
import { UPDATABLE_FIELDS, type ResourceServer } from '../staging.ts';
import { deepEqual, isObject, short } from '../values.ts';
import { describeAnswer } from '../answer-words.ts';
import type { TwinGate } from '../twin-gate.ts';
import { passes, PASSES } from '../answer-class.ts';

/** An answer and what was sent for it. */
export interface Updated {
  ex: Exchange;
  /** The body that was sent (null when it was not an object, e.g. raw text). */
  sent: Record<string, unknown> | null;
  /** The state before this update, when known: fields not sent keep these values. */
  before: ResourceServer | null;
}

/** §7.1: "400 invalid body", the status a body the spec calls invalid is refused with (the twin gate judges it). */
export const INVALID = 400;
export const refusedAsInvalid = (ex: Exchange): boolean => ex.status === INVALID;

/** §4.1: "Success: HTTP 201", the one status an update is taken with. */
export const updateSucceeded = (ex: Exchange): boolean => ex.status === 201;

/**
 * §4.1: "Success: HTTP 201" — judged under `clause`: the update's own, or the clause of the valid
 * value it carries (a limit's edge, null where allowed), whose acceptance is that rule's.
 */
export const createdUnder = perClause((clause) =>
  condition({
    clauses: [clause],
    cite: '§4.1',
    judge: (v, { ex, what }: { ex: Exchange; what: string }) =>
      v.that(updateSucceeded(ex), `${what}: expected 201, got ${describeAnswer(ex)}`, ex),
  }),
);

/** `createdUnder(clause)` for an update sent one way only, said as `what` (§4's encodings, §2.2's empty body, §5.1's bearer). */
export function createdAs(clause: string, cite: string, what: string) {
  const created = createdUnder(clause);
  return condition({ clauses: [clause], cite, judge: (v, ex: Exchange) => created.judge(v, { ex, what }) });
}

export const updateCreated = createdUnder('rs.update.success.status');

/** §2.1: the answer is the resource server object, closed, each field of its type (the schema names each rule). */
const isResourceServer = condition({
  clauses: ['rs.response.object', 'rs.response.closed', 'rs.response.types'],
  cite: '§2.1',
  judge: (v, ex: Exchange) =>
    isObject(ex.body)
      ? v.schema('ResourceServer', ex.body, ex)
      : v.that(false, `the answer's body is not a JSON object: ${describeAnswer(ex)}`, ex),
});

/** §4.1 (a partial update): each value sent comes back in the answer. */
export const sentValuesBack = condition({
  clauses: ['rs.update.applied', 'rs.response.fields-present'],
  cite: '§4.1, §2.2',
  judge: (v, { ex, sent }: Updated) => {
    const body = ex.body as ResourceServer;
    if (!sent) return null;
    const missing = Object.keys(sent).filter((f) => !(f in body));
    const differing = Object.entries(sent)
      .filter(([f, v]) => f in body && !deepEqual(body[f], v))
      .map(([f, v]) => `${f}: sent ${short(v)}, got ${short(body[f])}`);
    if (missing.length > 0)
      v.on('rs.response.fields-present').observe(`sent field(s) absent from the answer: ${missing.join(', ')}`, ex);
    const carried = Object.keys(sent).filter((f) => !missing.includes(f));
    if (carried.length === 0 && differing.length === 0) return null;
    return v.that(
      differing.length === 0,
      differing.length === 0
        ? `sent values come back: ${carried.join(', ')}`
        : `sent values differ in the answer: ${differing.join('; ')}`,
      ex,
    );
  },
});

/** §4.1, §2.2 (a partial update, all fields optional): fields not sent keep their values. */
const unsentKept = condition({
  clauses: ['rs.update.partial'],
  cite: '§4.1, §2.2',
  judge: (v, { ex, sent, before }: Updated) => {
    if (!sent || !before) return null;
    const changed = unsentChanges(sent, before, ex.body as ResourceServer);
    return v.that(
      changed.length === 0,
      changed.length === 0 ? 'fields not sent keep their values' : `fields not sent changed: ${changed.join('; ')}`,
      ex,
    );
  },
});

/** What §2.1 leaves open: which fields are present, the client_id format, authorization_details items. */
const answerShapeRecorded = condition({
  clauses: ['rs.response.fields-present', 'rs.response.client_id.format', 'rs.response.authorization_details.items'],
  cite: '§2.1 (not shown: recorded)',
  judge: (v, ex: Exchange) => {
    const body = ex.body as ResourceServer;
    v.observe(`fields present: ${Object.keys(body).sort().join(', ')}`);
    if ('client_id' in body) {
      const id = body.client_id;
      v.on('rs.response.client_id.format').observe(
        typeof id === 'string'
          ? `client_id of ${id.length} characters matching ${/^[A-Za-z0-9]+$/.test(id) ? '[A-Za-z0-9]+' : 'other characters'}`
          : `client_id ${short(id)}`,
      );
    }
    if (Array.isArray(body.authorization_details) && body.authorization_details.length > 0) {
      const kinds = [
        ...new Set(
          body.authorization_details.map((i) => (Array.isArray(i) ? 'array' : i === null ? 'null' : typeof i)),
        ),
      ].sort();
      v.on('rs.response.authorization_details.items').observe(
        `authorization_details items of type ${kinds.join(', ')}`,
      );
    }
    return null;
  },
});

/** An answer carrying the resource server, beside the snapshot the run started from. */
export interface Seen {
  ex: Exchange;
  snapshot: ResourceServer;
}

/** §2.1: the identifier "cannot be changed once set". */
const identifierKept = condition({
  clauses: ['rs.response.identifier.immutable'],
  cite: '§2.1',
  judge: (v, { ex, snapshot }: Seen) => {
    const body = ex.body as ResourceServer;
    if (typeof snapshot.identifier !== 'string' || !('identifier' in body)) return null;
    return v.that(
      body.identifier === snapshot.identifier,
      `identifier: was ${short(snapshot.identifier)}, now ${short(body.identifier)}`,
      ex,
    );
  },
});

/** §2.1: is_system is false for a custom resource server (the one the suite may modify). */
const customNotSystem = condition({
  clauses: ['rs.response.is_system.custom-false'],
  cite: '§2.1',
  judge: (v, { ex }: Seen) => {
    const body = ex.body as ResourceServer;
    if (!('is_system' in body)) return null;
    return v.that(body.is_system === false, `is_system of the custom resource server: ${short(body.is_system)}`, ex);
  },
});

/** §2.1, §8: token_lifetime_for_web cannot exceed token_lifetime. */
const webWithinLifetime = condition({
  clauses: ['rs.response.token_lifetime_for_web.le-token_lifetime'],
  cite: '§2.1, §8',
  judge: (v, { ex }: Seen) => {
    const body = ex.body as ResourceServer;
    if (typeof body.token_lifetime !== 'number' || typeof body.token_lifetime_for_web !== 'number') return null;
    const ok = body.token_lifetime_for_web <= body.token_lifetime;
    return v.that(
      ok,
      `token_lifetime_for_web ${body.token_lifetime_for_web} ${ok ? '≤' : '>'} token_lifetime ${body.token_lifetime}`,
      ex,
    );
  },
});

/** §9: the management API's path prefix is /api/v2. */
export const servedUnderPrefix = condition({
  clauses: ['version.mgmt.path-prefix'],
  cite: '§9',
  judge: (v, { ex, path }: { ex: Exchange; path: string }) =>
    v.that(
      passes(ex.answer, PASSES.success) && new URL(ex.request.url).pathname.endsWith(`/api/v2${path}`),
      `${ex.request.method} ${path} is served under /api/v2 (answered ${ex.status})`,
      ex,
    ),
});

/** The invariants of every resource-server answer, judged by the `rs` fixture on each it sees. */
export const INVARIANTS = [identifierKept, customNotSystem, webWithinLifetime] as const;

/** Every condition an accepted update's answer is held to. */
export const UPDATE_ANSWER = [
  updateCreated,
  isResourceServer,
  sentValuesBack,
  unsentKept,
  answerShapeRecorded,
  ...INVARIANTS,
] as const;

/**
 * An answer that must be a successful update: 201, a closed §2.1 object carrying what was sent,
 * fields not sent kept. Returns the new state when the answer is one. A 5xx skips every clause
 * here naming the fault clause (judged on the answer itself).
 */
export async function judgeUpdateAnswer(gate: TwinGate, u: Updated): Promise<ResourceServer | null> {
  const { ex } = u;
  const what = `PATCH ${u.sent ? short(u.sent) : 'a raw body'}`;
  if (gate.faultedFor(ex, UPDATE_ANSWER, what)) return null;
  await gate.call(updateCreated, ex, { ex, what });
  // An error answer is not a resource server: judging its body against §2.1 would blame the
  // object's clauses for what is really a refused valid body.
  if (!passes(ex.answer, PASSES.success)) return null;
  if (!(await gate.call(isResourceServer, ex, ex)) && !isObject(ex.body)) return null;
  await gate.call(answerShapeRecorded, ex, ex);
  await gate.call(sentValuesBack, ex, u);
  await gate.call(unsentKept, ex, u);
  return ex.body as ResourceServer;
}

/** The resource server an answer carries: an accepted answer's JSON object (lib/answer-class.ts), else null. */
export function stateOf(ex: Exchange): ResourceServer | null {
  return passes(ex.answer, PASSES.success) && isObject(ex.body) ? ex.body : null;
}

/** Updatable fields that were not sent and still changed between `before` and `after` (rs.update.partial). */
export function unsentChanges(sent: Record<string, unknown>, before: ResourceServer, after: ResourceServer): string[] {
  return UPDATABLE_FIELDS.filter(
    (f) => !(f in sent) && f in before && f in after && !deepEqual(before[f], after[f]),
  ).map((f) => `${f}: was ${short(before[f])}, now ${short(after[f])}`);
}
