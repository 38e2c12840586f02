// What the spec states about a refused management credential besides its status (§7.1): the
// 403's message. The statuses themselves are the twin gate's (lib/twin-gate.ts refusedWith).
import { condition } from '../condition.ts';
import type { Exchange } from '../http.ts';
import { short } from '../values.ts';

export const MISSING_SCOPE = 'auth.mgmt.missing-scope';
const SCOPE = 'update:resource_servers';

/**
 * §7.1: the 403's message states that one of update:resource_servers is expected. The spec names
 * no field of the error body, so the scope is searched in its text; judged beside a 403 only.
 */
export const namesScope = condition({
  clauses: ['auth.mgmt.missing-scope.names-scope'],
  cite: '§7.1',
  judge: (v, ex: Exchange) =>
    v.that(
      ex.text.includes(SCOPE),
      ex.text.includes(SCOPE)
        ? `the 403 body names ${SCOPE}`
        : `the 403 body does not name ${SCOPE}: ${short(ex.text)}`,
      ex,
    ),
});
