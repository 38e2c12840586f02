// Compound checks shared by several specs: what every answer to an accepted update must
// satisfy (§2.1, §4.1); a created experiment's are named conditions (lib/management/experiment-answer.ts).
// Each individual assertion names its own clause.
import type { Checks } from './checks.ts';
import type { Exchange } from './http.ts';
import { UPDATABLE_FIELDS, type ResourceServer } from './staging.ts';
import { deepEqual, isObject, short } from './values.ts';

/** Clauses checkUpdateAnswer can record, for the tests' declarations. */
export const UPDATE_ANSWER_CLAUSES = [
  'rs.update.success.status',
  'rs.response.object',
  'rs.response.closed',
  'rs.response.types',
  'rs.response.identifier.immutable',
  'rs.response.is_system.custom-false',
  'rs.response.token_lifetime_for_web.le-token_lifetime',
  'rs.update.applied',
  'rs.update.partial',
  'rs.response.fields-present',
  'rs.response.client_id.format',
  'rs.response.authorization_details.items',
] as const;

export interface UpdateContext {
  /** The body that was sent (null when the body was not an object, e.g. raw text). */
  sent: Record<string, unknown> | null;
  /** State before this update, when known: fields not sent must keep these values. */
  before: ResourceServer | null;
  snapshot: ResourceServer;
}

/** Checks an answer that must be a successful update; returns the new state when there is one. */
export async function checkUpdateAnswer(
  check: Checks,
  ex: Exchange,
  ctx: UpdateContext,
): Promise<ResourceServer | null> {
  check.expectStatus('rs.update.success.status', ex, 201);
  // An error answer is not a resource server: judging its body against 2.1 would blame
  // clauses (closed object, types) for what is really a refused valid body.
  if (ex.status < 200 || ex.status > 299) return null;
  if (!isObject(ex.body)) {
    check.that('rs.response.object', false, `answer body is not a JSON object (${typeof ex.body})`, ex);
    return null;
  }
  const body = ex.body;
  await check.expectSchema('rs.response.object', 'ResourceServer', body, ex);
  // checkInvariants runs on every answer the `rs` fixture sees.
  observeAnswer(check, body);
  if (ctx.sent) {
    const missing: string[] = [];
    const differing: string[] = [];
    for (const [f, v] of Object.entries(ctx.sent)) {
      if (!(f in body)) missing.push(f);
      else if (!deepEqual(body[f], v)) differing.push(`${f}: sent ${short(v)}, got ${short(body[f])}`);
    }
    const sentFields = Object.keys(ctx.sent).filter((f) => !missing.includes(f));
    if (sentFields.length > 0 || differing.length > 0) {
      check.that(
        'rs.update.applied',
        differing.length === 0,
        differing.length === 0
          ? `sent values come back: ${sentFields.join(', ')}`
          : `sent values differ in the answer: ${differing.join('; ')}`,
        ex,
      );
    }
    if (missing.length > 0)
      check.observe('rs.response.fields-present', `sent field(s) absent from the answer: ${missing.join(', ')}`, ex);
    if (ctx.before) {
      const changed = unsentChanges(ctx.sent, ctx.before, body);
      check.that(
        'rs.update.partial',
        changed.length === 0,
        changed.length === 0 ? 'fields not sent keep their values' : `fields not sent changed: ${changed.join('; ')}`,
        ex,
      );
    }
  }
  return body;
}

/** Updatable fields that were not sent and still changed between `before` and `after` (rs.update.partial). */
export function unsentChanges(sent: Record<string, unknown>, before: ResourceServer, after: ResourceServer): string[] {
  return UPDATABLE_FIELDS.filter(
    (f) => !(f in sent) && f in before && f in after && !deepEqual(before[f], after[f]),
  ).map((f) => `${f}: was ${short(before[f])}, now ${short(after[f])}`);
}

/** What §2.1 leaves open: which fields are present, the client_id format, authorization_details items. */
function observeAnswer(check: Checks, body: ResourceServer): void {
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
      ...new Set(body.authorization_details.map((i) => (Array.isArray(i) ? 'array' : i === null ? 'null' : typeof i))),
    ].sort();
    check.observe('rs.response.authorization_details.items', `authorization_details items of type ${kinds.join(', ')}`);
  }
}

/** Invariants of every resource-server answer (§2.1). */
export function checkInvariants(check: Checks, ex: Exchange, body: ResourceServer, snapshot: ResourceServer): void {
  if (typeof snapshot.identifier === 'string' && 'identifier' in body) {
    check.that(
      'rs.response.identifier.immutable',
      body.identifier === snapshot.identifier,
      `identifier: was ${short(snapshot.identifier)}, now ${short(body.identifier)}`,
      ex,
    );
  }
  if ('is_system' in body)
    check.that(
      'rs.response.is_system.custom-false',
      body.is_system === false,
      `is_system of the custom resource server: ${short(body.is_system)}`,
      ex,
    );
  if (typeof body.token_lifetime === 'number' && typeof body.token_lifetime_for_web === 'number') {
    check.that(
      'rs.response.token_lifetime_for_web.le-token_lifetime',
      body.token_lifetime_for_web <= body.token_lifetime,
      `token_lifetime_for_web ${body.token_lifetime_for_web} ${body.token_lifetime_for_web <= body.token_lifetime ? '≤' : '>'} token_lifetime ${body.token_lifetime}`,
      ex,
    );
  }
}
