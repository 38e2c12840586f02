// §4: "Request bodies are accepted as application/json or application/x-www-form-urlencoded" —
// each encoding accepted, and the same flat update giving the same resource server either way.
import { describeAnswer } from '../answer-words.ts';
import { condition } from '../condition.ts';
import type { Exchange } from '../http.ts';
import { deepEqual, isObject, short } from '../values.ts';

export const FORM = 'mgmt.request.form';

/** §4 (§4.1: success is 201): an update sent in `encoding` is accepted. */
function acceptedAs(clause: string, encoding: string) {
  return condition<Exchange>({
    clauses: [clause],
    cite: '§4, §4.1',
    judge: (check, ex) =>
      check.that(clause, ex.status === 201, `PATCH as ${encoding}: expected 201, got ${describeAnswer(ex)}`, ex),
  });
}

export const jsonAccepted = acceptedAs('mgmt.request.json', 'application/json');
export const formAccepted = acceptedAs(FORM, 'application/x-www-form-urlencoded');

/** §4: the same flat update as a form gives the resource server the JSON request gives. */
export const formSameAsJson = condition<{ asForm: Exchange; asJson: Exchange }>({
  clauses: [FORM],
  cite: '§4',
  judge: (check, { asForm, asJson }) => {
    if (!isObject(asJson.body) || !isObject(asForm.body)) return null;
    const a = asJson.body;
    const b = asForm.body;
    const differing = Object.keys({ ...a, ...b }).filter((k) => !deepEqual(a[k], b[k]));
    return check.that(
      FORM,
      differing.length === 0,
      differing.length === 0
        ? 'form and JSON give the same resource server'
        : `form and JSON differ: ${differing.map((k) => `${k}: JSON ${short(a[k])}, form ${short(b[k])}`).join('; ')}`,
      asForm,
    );
  },
});
