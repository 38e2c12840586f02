// §4.1's path parameter: "the ID or the audience (identifier) of the resource server". An update
// through either reaches the same resource server; the identifier's write reads back by id.
import { describeAnswer } from '../answer-words.ts';
import { condition } from '../condition.ts';
import type { Exchange } from '../http.ts';
import { isObject, short } from '../values.ts';

export const BY_IDENTIFIER = 'rs.update.path.by-identifier';

/** §4.1: named by its id, the resource server is updated: 201, the answer its own, the name written. */
export const updatedById = condition<{ ex: Exchange; id: string; name: string }>({
  clauses: ['rs.update.path.by-id'],
  cite: '§4.1',
  judge: (check, { ex, id, name }) => {
    const body = isObject(ex.body) ? ex.body : {};
    return check.that(
      'rs.update.path.by-id',
      ex.status === 201 && body.id === id && body.name === name,
      `PATCH /resource-servers/${id} {name}: answered ${describeAnswer(ex)}, id ${short(body.id)}, name ${short(body.name)}`,
      ex,
    );
  },
});

/** §4.1: named by its identifier (percent-encoded), the same resource server answers. */
export const updatedByIdentifier = condition<{ ex: Exchange; id: string; identifier: string }>({
  clauses: [BY_IDENTIFIER],
  cite: '§4.1',
  judge: (check, { ex, id, identifier }) => {
    const body = isObject(ex.body) ? ex.body : {};
    return check.that(
      BY_IDENTIFIER,
      ex.status === 201 && body.id === id,
      `PATCH /resource-servers/${encodeURIComponent(identifier)} {name}: answered ${describeAnswer(ex)}, id ${short(body.id)}`,
      ex,
    );
  },
});
