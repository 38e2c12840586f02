// §4.1's path parameter: "the ID or the audience (identifier) of the resource server". An update
// through either reaches the same resource server; the identifier's write reads back by id.
import { describeAnswer } from '../answer-words.ts';
import { condition } from '../condition.ts';
import type { Exchange } from '../http.ts';
import { isObject, short } from '../values.ts';
import { updateSucceeded } from './update-answer.ts';

export const BY_IDENTIFIER = 'rs.update.path.by-identifier';

/** §4.1: named by its id, the resource server is updated: 201, the answer its own, the name written. */
export const updatedById = condition({
  clauses: ['rs.update.path.by-id'],
  cite: '§4.1',
  judge: (v, { ex, id, name }: { ex: Exchange; id: string; name: string }) => {
    const body = isObject(ex.body) ? ex.body : {};
    return v.that(
      updateSucceeded(ex) && body.id === id && body.name === name,
      `PATCH /resource-servers/${id} {name}: answered ${describeAnswer(ex)}, id ${short(body.id)}, name ${short(body.name)}`,
      ex,
    );
  },
});

/** §4.1: named by its identifier (percent-encoded), the same resource server answers. */
export const updatedByIdentifier = condition({
  clauses: [BY_IDENTIFIER],
  cite: '§4.1',
  judge: (v, { ex, id, identifier }: { ex: Exchange; id: string; identifier: string }) => {
    const body = isObject(ex.body) ? ex.body : {};
    return v.that(
      updateSucceeded(ex) && body.id === id,
      `PATCH /resource-servers/${encodeURIComponent(identifier)} {name}: answered ${describeAnswer(ex)}, id ${short(body.id)}`,
      ex,
    );
  },
});
