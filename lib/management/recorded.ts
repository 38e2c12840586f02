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
  condition<Answered>({
    clauses: [clause],
    cite: 'not shown by the spec: recorded',
    judge: (check, { what, ex, extra = '' }) => {
      check.observe(clause, `${what}: answered ${describeAnswer(ex)}${extra}`, ex);
      return null;
    },
  }),
);

/** §7.1: "Shape of the management API error body: not shown" — recorded for refusals only (a success has none). */
export const errorBodyRecorded = condition<Answered>({
  clauses: ['rs.update.error.body'],
  cite: '§7.1',
  judge: (check, { what, ex }) => {
    if (ex.answer.class !== 'refused') return null;
    check.observe('rs.update.error.body', `${what}: the ${ex.status}'s body${describeBody(ex)}`, ex);
    return null;
  },
});

/**
 * A case this target does not get, recorded under its clause: the value would change a field the
 * suite could not put back (lib/staging.ts). A must clause recorded only so is not judged: the run's.
 */
export function notSentHere(clause: string): Condition<string> {
  return condition<string>({
    clauses: [clause],
    cite: 'staging safety (lib/staging.ts)',
    judge: (check, description) => {
      check.observe(
        clause,
        `not sent to this target: ${description} would change a field that cannot be restored (IDM_ALLOW=lifetime,irreversible to send it)`,
      );
      return null;
    },
  });
}
