// What the answer to an experiment creation must satisfy (§2.4, §4.2), one named condition per
// rule: a valid creation accepted, the created experiment's types and values, and what the spec
// leaves open recorded. The gate runs each on an answer it has classified first (lib/twin-gate.ts
// `call`), so a 5xx is mgmt.error.server-fault's alone; the rules after `created` are judged only
// on an accepted creation (an error answer is no experiment).
import { fieldsOf } from '../../schemas/index.ts';
import { answerEvidence, passes, PASSES } from '../answer-class.ts';
import { describeAnswer, describeBody } from '../answer-words.ts';
import { condition, perClause, type Condition } from '../condition.ts';
import type { Exchange } from '../http.ts';
import { strategyConfirmation } from '../strategy.ts';
import type { TwinGate } from '../twin-gate.ts';
import { deepEqual, isObject, short } from '../values.ts';

/** A creation: what was sent, and what it is in a few words. */
export interface Creation {
  what: string;
  ex: Exchange;
  sent: Record<string, unknown>;
  /** The configured name of the strategy attribute (IDM_STRATEGY_FIELD). */
  strategyField: string;
}

/** `clause` holds when the creation was answered with a 2xx (§4.2); a conflict (409) is named as one. */
export const acceptedUnder = perClause((clause) =>
  condition({
    clauses: [clause],
    cite: '§4.2',
    judge: (v, { what, ex }: { what: string; ex: Exchange }) => {
      const { answer } = ex;
      const ok = passes(answer, PASSES.success);
      const conflict = ex.status === 409 ? ' (a conflict, though the name was this creation’s own)' : '';
      return v.that(
        ok,
        `${what}: ${ok ? 'created' : `expected a 2xx, got ${describeAnswer(ex)}${conflict}`}`,
        ex,
        answerEvidence(answer),
      );
    },
  }),
);

/** §4.2: a valid payload creates the experiment. */
export const created = acceptedUnder('exp.create.accepted');

/** §4.2 shows no success status: the one given is recorded. */
const successStatus = condition({
  clauses: ['exp.create.success.status'],
  cite: '§4.2 (not shown: recorded)',
  judge: (v, { ex }: Creation) => v.observe(`answered ${ex.status}`),
});

/**
 * §2.4: the created experiment is a JSON object of the Experiment type; the schema's own clauses
 * (required fields, id pattern, is_valid type, date-time formats) are judged with it.
 */
const experimentTypes = condition({
  clauses: [
    'exp.response.types',
    'exp.response.required-fields',
    'exp.response.id.pattern',
    'exp.response.is_valid.type',
    'exp.response.timestamps.format',
  ],
  cite: '§2.4, §4.2',
  judge: async (v, { ex }: Creation) => {
    if (!isObject(ex.body)) return v.that(false, `the created experiment is no JSON object:${describeBody(ex)}`, ex);
    return v.schema('Experiment', ex.body, ex);
  },
});

/** §2.4 states no order of created_at and updated_at: whether updated_at ≥ created_at is recorded. */
const timestampsOrder = condition({
  clauses: ['exp.response.timestamps.order'],
  cite: '§2.4 (not stated: recorded)',
  judge: (v, { ex }: Creation) => {
    const body = isObject(ex.body) ? ex.body : {};
    if (typeof body.created_at !== 'string' || typeof body.updated_at !== 'string') return null;
    const later = Date.parse(body.updated_at) >= Date.parse(body.created_at);
    return v.observe(later ? 'updated_at ≥ created_at' : 'updated_at < created_at');
  },
});

const ECHOED = ['name', 'feature_flag_id', 'description', 'authentication_flow', 'assignment_config', 'allocations'];

/** §4.2: the created experiment carries the values sent, where it includes them. */
const echo = condition({
  clauses: ['exp.response.echo'],
  cite: '§4.2',
  judge: (v, { ex, sent }: Creation) => {
    const body = isObject(ex.body) ? ex.body : {};
    const fields = ECHOED.filter((f) => f in sent);
    const differing = fields.filter((f) => f in body && !carries(body[f], sent[f]));
    const missing = fields.filter((f) => !(f in body));
    return v.that(
      differing.length === 0,
      differing.length === 0
        ? `sent values come back${missing.length ? ` (absent: ${missing.join(', ')})` : ''}`
        : `differ from what was sent: ${differing.map((f) => `${f}: sent ${short(sent[f])}, got ${short(body[f])}`).join('; ')}`,
      ex,
    );
  },
});

/** §2.4 does not name the strategy attribute: what the answer carries under the configured name, beside what was sent. */
const strategyNamed = condition({
  clauses: ['exp.create.strategy.name'],
  cite: '§2.4 (field name not shown: recorded)',
  judge: (v, { ex, sent, strategyField: field }: Creation) => {
    if (!(field in sent)) return null;
    const body = isObject(ex.body) ? ex.body : {};
    return v.observe(
      !(field in body)
        ? strategyConfirmation(ex, field).message
        : deepEqual(body[field], sent[field])
          ? `${field}: the answer carries ${short(body[field])}, as sent`
          : `${field}: the answer carries ${short(body[field])} where ${short(sent[field])} was sent`,
    );
  },
});

const EXPERIMENT_FIELDS = fieldsOf('Experiment').map((f) => f.name);

/** §2.4 does not say the experiment is closed: fields beyond it are recorded (the strategy's under its own clause). */
const extraFields = condition({
  clauses: ['exp.response.extra-fields'],
  cite: '§2.4 (not shown: recorded)',
  judge: (v, { ex, strategyField }: Creation) => {
    const body = isObject(ex.body) ? ex.body : {};
    const extra = Object.keys(body).filter((k) => !EXPERIMENT_FIELDS.includes(k) && k !== strategyField);
    if (extra.length > 0) v.observe(`fields beyond 2.4: ${extra.sort().join(', ')}`);
    return null;
  },
});

const STATUS_VALUES = ['draft', 'active', 'paused', 'completed', 'archived'];

/** §3 lists the status values, not the field that carries one: a field carrying a value of the list is recorded. */
const statusValues = condition({
  clauses: ['exp.status.values'],
  cite: '§3 (field not shown: recorded)',
  judge: (v, { ex }: Creation) => {
    const body = isObject(ex.body) ? ex.body : {};
    const fields = Object.entries(body).filter(([, v]) => typeof v === 'string' && STATUS_VALUES.includes(v));
    return v.observe(
      fields.length > 0
        ? `status value ${fields.map(([k, v]) => `${k}=${v}`).join(', ')}`
        : 'no field carries a value of the status enum',
    );
  },
});

/** §4.1: the management API is served under /api/v2; judged on a creation (a refusal proves nothing of the path). */
export const servedUnderApiV2 = condition({
  clauses: ['version.mgmt.path-prefix'],
  cite: '§4.1',
  judge: (v, ex: Exchange) => {
    if (!passes(ex.answer, PASSES.success)) return null;
    return v.that(
      new URL(ex.request.url).pathname.endsWith('/api/v2/experimentation/experiments'),
      `the creation is served under /api/v2 (answered ${ex.status})`,
      ex,
    );
  },
});

/** What an accepted creation's answer is judged by, after `created`. */
const OF_THE_CREATED = [
  successStatus,
  experimentTypes,
  timestampsOrder,
  echo,
  strategyNamed,
  extraFields,
  statusValues,
];

/** Every condition a valid creation's answer is judged by: for a test's declaration (clausesOf). */
export const CREATED_EXPERIMENT: readonly Condition<never>[] = [created, ...OF_THE_CREATED];

/** A valid creation: accepted (exp.create.accepted), then its answer judged by every rule about a created experiment. */
export async function judgeCreated(gate: TwinGate, c: Creation): Promise<boolean> {
  if ((await gate.call(created, c.ex, c)) !== true) return false;
  for (const rule of OF_THE_CREATED) await gate.call(rule, c.ex, c);
  return true;
}

// Helpers

/** `got` carries `sent`: equal scalars; objects with every sent member carried; arrays item by item. */
function carries(got: unknown, sent: unknown): boolean {
  if (Array.isArray(sent))
    return Array.isArray(got) && got.length === sent.length && sent.every((s, i) => carries(got[i], s));
  if (isObject(sent)) return isObject(got) && Object.entries(sent).every(([k, v]) => k in got && carries(got[k], v));
  return deepEqual(got, sent);
}
