// What the spec states about a write that was answered as stored (§4.1, §2.2): it is there when
// the state is read again (PATCH {}, as the spec shows no read operation), and an empty update is
// a valid one that changes nothing.
import { describeAnswer } from '../answer-words.ts';
import { condition } from '../condition.ts';
import type { Exchange } from '../http.ts';
import { deepEqual, isObject, short } from '../values.ts';

export const PERSISTED = 'rs.update.persisted';

/** §4.1: a write answered 201 reads back: PATCH {} answers the state the update returned. */
export const readsBack = condition<{ again: Exchange; updated: Exchange }>({
  clauses: [PERSISTED],
  cite: '§4.1',
  judge: (check, { again, updated }) => {
    const same = isObject(again.body) && deepEqual(again.body, updated.body);
    return check.that(
      PERSISTED,
      same,
      same
        ? 'PATCH {} answers the state the update returned'
        : `PATCH {} answered ${again.status} ${short(again.body)} instead of the updated state ${short(updated.body)}`,
      again,
    );
  },
});

/** §4.1: two empty updates in a row answer the same state (nothing written between them is lost). */
export const sameStateTwice = condition<{ first: Exchange; second: Exchange }>({
  clauses: [PERSISTED],
  cite: '§4.1',
  judge: (check, { first, second }) => {
    const same = isObject(first.body) && isObject(second.body) && deepEqual(first.body, second.body);
    return check.that(
      PERSISTED,
      same,
      same
        ? 'a second PATCH {} answers the same state'
        : `a second PATCH {} answered ${short(second.body)} after ${short(first.body)}`,
      second,
    );
  },
});

/** §2.2: every field of the update body is optional, so {} is a valid update, answered 201 (§4.1). */
export const emptyUpdateAccepted = condition<Exchange>({
  clauses: ['rs.update.optional'],
  cite: '§2.2, §4.1',
  judge: (check, ex) =>
    check.that('rs.update.optional', ex.status === 201, `PATCH {}: expected 201, got ${describeAnswer(ex)}`, ex),
});
