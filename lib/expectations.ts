// Compound checks shared by several specs: what a created experiment must carry (§2.4, §4.2).
// Each individual assertion names its own clause. (An accepted update's answer:
// lib/management/update-answer.ts.)
import { fieldsOf } from '../schemas/index.ts';
import type { Checks } from './checks.ts';
import type { Exchange } from './http.ts';
import { strategyConfirmation } from './strategy.ts';
import { deepEqual, isObject, short } from './values.ts';

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
