// What the spec states about a write that was answered as stored (§4.1, §2.2): it is there when
// the state is read again (PATCH {}, as the spec shows no read operation), and an empty update is
// a valid one that changes nothing.
import { condition } from '../condition.ts';
import { createdAs } from './update-answer.ts';
import type { Exchange } from '../http.ts';
import { deepEqual, isObject, short } from '../values.ts';

export const PERSISTED = 'rs.update.persisted';

/** §4.1: a write answered 201 reads back: PATCH {} answers the state the update returned. */
export const readsBack = condition({
  clauses: [PERSISTED],
  cite: '§4.1',
  judge: (v, { again, updated }: { again: Exchange; updated: Exchange }) => {
    const same = isObject(again.body) && deepEqual(again.body, updated.body);
    return v.that(
      same,
      same
        ? 'PATCH {} answers the state the update returned'
        : `PATCH {} answered ${again.status} ${short(again.body)} instead of the updated state ${short(updated.body)}`,
      again,
    );
  },
});

/** §4.1: two empty updates in a row answer the same state (nothing written between them is lost). */
export const sameStateTwice = condition({
  clauses: [PERSISTED],
  cite: '§4.1',
  judge: (v, { first, second }: { first: Exchange; second: Exchange }) => {
    const same = isObject(first.body) && isObject(second.body) && deepEqual(first.body, second.body);
    return v.that(
      same,
      same
        ? 'a second PATCH {} answers the same state'
        : `a second PATCH {} answered ${short(second.body)} after ${short(first.body)}`,
      second,
    );
  },
});

/** §2.2: every field of the update body is optional, so {} is a valid update, answered 201 (§4.1). */
export const emptyUpdateAccepted = createdAs('rs.update.optional', '§2.2, §4.1', 'PATCH {}');
