// What the management API answered where the spec is silent: recorded under an observe clause,
// in words built from the answer's data (lib/answer-words.ts), never judged.
import { describeAnswer, describeBody } from '../answer-words.ts';
import { condition, perClause, type Condition } from '../condition.ts';
import type { Exchange } from '../http.ts';

export interface Answered {
  /** What was sent, in a few words. */
  what: string;
  ex: Exchange;
  /** Said after the answer (e.g. a field of the body). */
  extra?: string;
}

/** `clause` (observe) records what the tenant answered to a request. */
export const recorded = perClause((clause) =>
  condition({
    clauses: [clause],
    cite: 'not shown by the spec: recorded',
    judge: (v, { what, ex, extra = '' }: Answered) => v.observe(`${what}: answered ${describeAnswer(ex)}${extra}`, ex),
  }),
);

/** §7.1: "Shape of the management API error body: not shown" — recorded for refusals only (a success has none). */
export const errorBodyRecorded = condition({
  clauses: ['rs.update.error.body'],
  cite: '§7.1',
  judge: (v, { what, ex }: Answered) => {
    if (ex.answer.class !== 'refused') return null;
    return v.observe(`${what}: the ${ex.status}'s body${describeBody(ex)}`, ex);
  },
});

/**
 * A case this target does not get, recorded under its clause: the value would change a field the
 * suite could not put back (lib/staging.ts). A must clause recorded only so is not judged: the run's.
 */
export function notSentHere(clause: string): Condition<string> {
  return condition({
    clauses: [clause],
    cite: 'staging safety (lib/staging.ts)',
    judge: (v, description: string) =>
      v.observe(
        `not sent to this target: ${description} would change a field that cannot be restored (IDM_ALLOW=lifetime,irreversible to send it)`,
      ),
  });
}
