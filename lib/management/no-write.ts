// What a refused update leaves behind (§7.1: a 400 body is invalid as a whole) and what an
// accepted one must still show "a moment" later (§4.1), judged on the one read after a batch.
import { condition } from '../condition.ts';
import type { Exchange } from '../http.ts';
import { PERSISTED } from './read-back.ts';

export const NO_WRITE = 'rs.update.error.400.no-write';

/** §7.1: a body refused with 400 wrote nothing: the state read after the refusals is the one expected. */
export const nothingWritten = condition({
  clauses: [NO_WRITE],
  cite: '§7.1',
  judge: (v, n: { read: Exchange; refused: number; changed: string[]; culprits: string }) =>
    v.that(
      n.changed.length === 0,
      n.changed.length === 0
        ? `${n.refused} refused update(s) left the state unchanged`
        : `${n.culprits} was refused with 400 but changed ${n.changed.join('; ')}`,
      n.read,
    ),
});

/** §4.1: a write answered as stored is still there when read again a moment later. */
export const settledWriteKept = condition({
  clauses: [PERSISTED],
  cite: '§4.1',
  judge: (v, s: { read: Exchange; fields: string[]; kept: boolean; after: string; seen: string }) =>
    v.that(
      s.kept,
      s.kept
        ? `the write before the refused bodies (${s.fields.join(', ')}) reads back ${s.after} after its answer`
        : `the write answered as stored before the refused bodies was not there ${s.after} later: ${s.seen}`,
      s.read,
    ),
});
