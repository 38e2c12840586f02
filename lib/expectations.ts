// Compound checks shared by several specs: what every answer to an accepted update must
// satisfy (§2.1, §4.1), and what a created experiment must carry (§2.4, §4.2). Each
// individual assertion names its own clause.
import { fieldsOf } from '../schemas/index.ts';
import type { Checks } from './checks.ts';
import type { Exchange } from './http.ts';
import { UPDATABLE_FIELDS, type ResourceServer } from './staging.ts';
import { strategyConfirmation } from './strategy.ts';
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

/** Clauses checkCreatedExperiment can record. */
export const EXPERIMENT_ANSWER_CLAUSES = [
  'exp.create.accepted',
  'exp.create.success.status',
  'exp.response.types',
  'exp.response.required-fields',
  'exp.response.id.pattern',
  'exp.response.is_valid.type',
  'exp.response.timestamps.format',
  'exp.response.timestamps.order',
  'exp.response.echo',
  'exp.response.extra-fields',
  'exp.status.values',
  'exp.create.strategy.name',
] as const;

const EXPERIMENT_FIELDS = fieldsOf('Experiment').map((f) => f.name);
const STATUS_VALUES = ['draft', 'active', 'paused', 'completed', 'archived'];

/** Checks the answer to a creation that must succeed. */
export async function checkCreatedExperiment(
  check: Checks,
  ex: Exchange,
  sent: Record<string, unknown>,
  strategyField: string,
): Promise<void> {
  if (!check.expectAccepted('exp.create.accepted', ex, 'create a valid experiment')) return;
  check.observe('exp.create.success.status', `answered ${ex.status}`);
  const body = ex.body;
  if (!isObject(body)) {
    check.that('exp.response.types', false, `answer body is not a JSON object (${typeof body})`, ex);
    return;
  }
  await check.expectSchema('exp.response.types', 'Experiment', body, ex);
  // Required fields, id pattern, is_valid type and date-time formats: the Experiment schema.
  if (typeof body.created_at === 'string' && typeof body.updated_at === 'string') {
    const order =
      Date.parse(body.updated_at) >= Date.parse(body.created_at)
        ? 'updated_at ≥ created_at'
        : 'updated_at < created_at';
    check.observe('exp.response.timestamps.order', order);
  }
  // Values sent come back: name, feature_flag_id, description, allocations as sent, strategy.
  const echoFields = [
    'name',
    'feature_flag_id',
    'description',
    'authentication_flow',
    'assignment_config',
    'allocations',
  ].filter((f) => f in sent);
  const differing = echoFields.filter((f) => f in body && !carries(body[f], sent[f]));
  const missing = echoFields.filter((f) => !(f in body));
  check.that(
    'exp.response.echo',
    differing.length === 0,
    differing.length === 0
      ? `sent values come back${missing.length ? ` (absent: ${missing.join(', ')})` : ''}`
      : `differ from what was sent: ${differing.map((f) => `${f}: sent ${short(sent[f])}, got ${short(body[f])}`).join('; ')}`,
    ex,
  );
  if (strategyField in sent) {
    check.observe(
      'exp.create.strategy.name',
      `${strategyConfirmation(ex, strategyField).message} (sent ${short(sent[strategyField])})`,
    );
  }
  // The strategy attribute belongs to 2.4 under whatever name: its name is recorded above.
  const extra = Object.keys(body).filter((k) => !EXPERIMENT_FIELDS.includes(k) && k !== strategyField);
  if (extra.length > 0) check.observe('exp.response.extra-fields', `fields beyond 2.4: ${extra.sort().join(', ')}`);
  const statusFields = Object.entries(body).filter(([, v]) => typeof v === 'string' && STATUS_VALUES.includes(v));
  check.observe(
    'exp.status.values',
    statusFields.length > 0
      ? `status value ${statusFields.map(([k, v]) => `${k}=${v}`).join(', ')}`
      : 'no field carries a value of the status enum',
  );
}

// Helpers

/** `got` carries `sent`: equal scalars; objects with every sent member carried; arrays item by item. */
function carries(got: unknown, sent: unknown): boolean {
  if (Array.isArray(sent))
    return Array.isArray(got) && got.length === sent.length && sent.every((s, i) => carries(got[i], s));
  if (isObject(sent)) return isObject(got) && Object.entries(sent).every(([k, v]) => k in got && carries(got[k], v));
  return deepEqual(got, sent);
}
