// What a refused update leaves behind (§7.1: a 400 body is invalid as a whole) and what an
// accepted one must still show "a moment" later (§4.1), judged on the one read after a batch.
import { condition } from '../condition.ts';
import type { Exchange } from '../http.ts';
import { PERSISTED } from './read-back.ts';

export const NO_WRITE = 'rs.update.error.400.no-write';

/** §7.1: a body refused with 400 wrote nothing: the state read after the refusals is the one expected. */
export const nothingWritten = condition<{ read: Exchange; refused: number; changed: string[]; culprits: string }>({
  clauses: [NO_WRITE],
  cite: '§7.1',
  judge: (check, { read, refused, changed, culprits }) =>
    check.that(
      NO_WRITE,
      changed.length === 0,
      changed.length === 0
        ? `${refused} refused update(s) left the state unchanged`
        : `${culprits} was refused with 400 but changed ${changed.join('; ')}`,
      read,
    ),
});

/** §4.1: a write answered as stored is still there when read again a moment later. */
export const settledWriteKept = condition<{
  read: Exchange;
  fields: string[];
  kept: boolean;
  after: string;
  seen: string;
}>({
  clauses: [PERSISTED],
  cite: '§4.1',
  judge: (check, { read, fields, kept, after, seen }) =>
    check.that(
      PERSISTED,
      kept,
      kept
        ? `the write before the refused bodies (${fields.join(', ')}) reads back ${after} after its answer`
        : `the write answered as stored before the refused bodies was not there ${after} later: ${seen}`,
      read,
    ),
});
