// §4: "Request bodies are accepted as application/json or application/x-www-form-urlencoded" —
// each encoding accepted, and the same flat update giving the same resource server either way.
import { condition } from '../condition.ts';
import type { Exchange } from '../http.ts';
import { deepEqual, isObject, short } from '../values.ts';
import { createdAs } from './update-answer.ts';

export const FORM = 'mgmt.request.form';

/** §4 (§4.1: success is 201): an update sent in either encoding is accepted. */
export const jsonAccepted = createdAs('mgmt.request.json', '§4, §4.1', 'PATCH as application/json');
export const formAccepted = createdAs(FORM, '§4, §4.1', 'PATCH as application/x-www-form-urlencoded');

/** §4: the same flat update as a form gives the resource server the JSON request gives. */
export const formSameAsJson = condition({
  clauses: [FORM],
  cite: '§4',
  judge: (v, { asForm, asJson }: { asForm: Exchange; asJson: Exchange }) => {
    if (!isObject(asJson.body) || !isObject(asForm.body)) return null;
    const a = asJson.body;
    const b = asForm.body;
    const differing = Object.keys({ ...a, ...b }).filter((k) => !deepEqual(a[k], b[k]));
    return v.that(
      differing.length === 0,
      differing.length === 0
        ? 'form and JSON give the same resource server'
        : `form and JSON differ: ${differing.map((k) => `${k}: JSON ${short(a[k])}, form ${short(b[k])}`).join('; ')}`,
      asForm,
    );
  },
});
