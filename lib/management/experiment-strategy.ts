// The allocation strategy attribute (§2.4) as named conditions: its enum is stated, its field name
// is not, so whether the answer confirms the configured name is recorded (lib/strategy.ts decides
// it), and the enum is judged once it is (specs/experiments/strategy.spec.ts).
import { condition } from '../condition.ts';
import type { Exchange } from '../http.ts';
import { isOutsider, strategyConfirmation } from '../strategy.ts';
import { isObject, short } from '../values.ts';
import { acceptedUnder } from './experiment-answer.ts';

export const STRATEGY_ENUM = 'exp.create.strategy.enum';

/** §2.4: both values of the enum are accepted. */
export const enumValueAccepted = acceptedUnder(STRATEGY_ENUM);

/** §2.4: whether the answer to a valid creation confirms the configured name (recorded: the name is not shown). */
export const nameConfirmed = condition({
  clauses: ['exp.create.strategy.name'],
  cite: '§2.4 (field name not shown: recorded)',
  judge: (v, { ex, field }: { ex: Exchange; field: string }) => v.observe(strategyConfirmation(ex, field).message, ex),
});

/** §2.4: the attribute has the same enum on the response; an answer without it is recorded (its name is not shown). */
export const answeredInEnum = condition({
  clauses: [STRATEGY_ENUM, 'exp.create.strategy.name'],
  cite: '§2.4',
  judge: (v, { ex, field }: { ex: Exchange; field: string }) => {
    const answered = isObject(ex.body) ? ex.body[field] : undefined;
    if (answered === undefined) {
      return v.on('exp.create.strategy.name').observe(`the answer to "segment" does not carry ${field}`, ex);
    }
    return v.that(!isOutsider(answered), `the answer to "segment" carries ${field} ${short(answered)}`, ex);
  },
});
