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

/**
 * §4.1: "Success: HTTP 201" — judged under `clause`: the update's own, or the clause of the valid
 * value it carries (a limit's edge, null where allowed), whose acceptance is that rule's.
 */
export const createdUnder = perClause((clause) =>
  condition<{ ex: Exchange; what: string }>({
    clauses: [clause],
    cite: '§4.1',
    judge: (check, { ex, what }) =>
      check.that(clause, ex.status === 201, `${what}: expected 201, got ${describeAnswer(ex)}`, ex),
  }),
);

export const updateCreated = createdUnder('rs.update.success.status');

/** §2.1: the answer is the resource server object, closed, each field of its type (the schema names each rule). */
const isResourceServer = condition<Exchange>({
  clauses: ['rs.response.object', 'rs.response.closed', 'rs.response.types'],
  cite: '§2.1',
  judge: async (check, ex) => {
    if (!isObject(ex.body))
      return check.that(
        'rs.response.object',
        false,
        `the answer's body is not a JSON object: ${describeAnswer(ex)}`,
        ex,
      );
    return check.expectSchema('rs.response.object', 'ResourceServer', ex.body, ex);
  },
});

/** §4.1 (a partial update): each value sent comes back in the answer. */
export const sentValuesBack = condition<Updated>({
  clauses: ['rs.update.applied', 'rs.response.fields-present'],
  cite: '§4.1, §2.2',
  judge: (check, { ex, sent }) => {
    const body = ex.body as ResourceServer;
    if (!sent) return null;
    const missing = Object.keys(sent).filter((f) => !(f in body));
    const differing = Object.entries(sent)
      .filter(([f, v]) => f in body && !deepEqual(body[f], v))
      .map(([f, v]) => `${f}: sent ${short(v)}, got ${short(body[f])}`);
    if (missing.length > 0)
      check.observe('rs.response.fields-present', `sent field(s) absent from the answer: ${missing.join(', ')}`, ex);
    const carried = Object.keys(sent).filter((f) => !missing.includes(f));
    if (carried.length === 0 && differing.length === 0) return null;
    return check.that(
      'rs.update.applied',
      differing.length === 0,
      differing.length === 0
        ? `sent values come back: ${carried.join(', ')}`
        : `sent values differ in the answer: ${differing.join('; ')}`,
      ex,
    );
  },
});

/** §4.1, §2.2 (a partial update, all fields optional): fields not sent keep their values. */
const unsentKept = condition<Updated>({
  clauses: ['rs.update.partial'],
  cite: '§4.1, §2.2',
  judge: (check, { ex, sent, before }) => {
    if (!sent || !before) return null;
    const changed = unsentChanges(sent, before, ex.body as ResourceServer);
    return check.that(
      'rs.update.partial',
      changed.length === 0,
      changed.length === 0 ? 'fields not sent keep their values' : `fields not sent changed: ${changed.join('; ')}`,
      ex,
    );
  },
});

/** What §2.1 leaves open: which fields are present, the client_id format, authorization_details items. */
const answerShapeRecorded = condition<Exchange>({
  clauses: ['rs.response.fields-present', 'rs.response.client_id.format', 'rs.response.authorization_details.items'],
  cite: '§2.1 (not shown: recorded)',
  judge: (check, ex) => {
    const body = ex.body as ResourceServer;
    check.observe('rs.response.fields-present', `fields present: ${Object.keys(body).sort().join(', ')}`);
    if ('client_id' in body) {
      const v = body.client_id;
      check.observe(
        'rs.response.client_id.format',
        typeof v === 'string'
          ? `client_id of ${v.length} characters matching ${/^[A-Za-z0-9]+$/.test(v) ? '[A-Za-z0-9]+' : 'other characters'}`
          : `client_id ${short(v)}`,
      );
    }
    if (Array.isArray(body.authorization_details) && body.authorization_details.length > 0) {
      const kinds = [
        ...new Set(
          body.authorization_details.map((i) => (Array.isArray(i) ? 'array' : i === null ? 'null' : typeof i)),
        ),
      ].sort();
      check.observe(
        'rs.response.authorization_details.items',
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
const identifierKept = condition<Seen>({
  clauses: ['rs.response.identifier.immutable'],
  cite: '§2.1',
  judge: (check, { ex, snapshot }) => {
    const body = ex.body as ResourceServer;
    if (typeof snapshot.identifier !== 'string' || !('identifier' in body)) return null;
    return check.that(
      'rs.response.identifier.immutable',
      body.identifier === snapshot.identifier,
      `identifier: was ${short(snapshot.identifier)}, now ${short(body.identifier)}`,
      ex,
    );
  },
});

/** §2.1: is_system is false for a custom resource server (the one the suite may modify). */
const customNotSystem = condition<Seen>({
  clauses: ['rs.response.is_system.custom-false'],
  cite: '§2.1',
  judge: (check, { ex }) => {
    const body = ex.body as ResourceServer;
    if (!('is_system' in body)) return null;
    return check.that(
      'rs.response.is_system.custom-false',
      body.is_system === false,
      `is_system of the custom resource server: ${short(body.is_system)}`,
      ex,
    );
  },
});

/** §2.1, §8: token_lifetime_for_web cannot exceed token_lifetime. */
const webWithinLifetime = condition<Seen>({
  clauses: ['rs.response.token_lifetime_for_web.le-token_lifetime'],
  cite: '§2.1, §8',
  judge: (check, { ex }) => {
    const body = ex.body as ResourceServer;
    if (typeof body.token_lifetime !== 'number' || typeof body.token_lifetime_for_web !== 'number') return null;
    const ok = body.token_lifetime_for_web <= body.token_lifetime;
    return check.that(
      'rs.response.token_lifetime_for_web.le-token_lifetime',
      ok,
      `token_lifetime_for_web ${body.token_lifetime_for_web} ${ok ? '≤' : '>'} token_lifetime ${body.token_lifetime}`,
      ex,
    );
  },
});

/** §9: the management API's path prefix is /api/v2. */
export const servedUnderPrefix = condition<{ ex: Exchange; path: string }>({
  clauses: ['version.mgmt.path-prefix'],
  cite: '§9',
  judge: (check, { ex, path }) =>
    check.that(
      'version.mgmt.path-prefix',
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
