// §4: request bodies are accepted as application/json and as
// application/x-www-form-urlencoded; the same flat update gives the same result either way.
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS, skipClauses } from '../../lib/declare.ts';
import { deepEqual, isObject, short } from '../../lib/values.ts';

test.describe('update a resource server: body encodings', () => {
  test(
    'the same flat update sent as JSON and as a form gives the same resource server',
    clauses(OPERATIONS.update, 'mgmt.request.json', 'mgmt.request.form'),
    async ({ run, rs, check }) => {
      const web = typeof run.snapshot.token_lifetime_for_web === 'number' ? run.snapshot.token_lifetime_for_web : 0;
      const target = rs.safe({
        name: `${run.runTag} encodings`,
        token_lifetime: Math.min(2592000, Math.max(web, 3600) + 17),
        allow_offline_access: true,
        skip_consent_for_verifiable_first_party_clients: false,
      });

      // The form first, from a state it must change (the run-tagged name is new): a form that
      // is not applied then answers another resource server than the JSON request after it.
      const asForm = await rs.update(target, { encoding: 'form' });
      const asJson = await rs.update(target);
      check.expectStatus('mgmt.request.json', asJson, 201, 'PATCH as application/json');
      // A write lost between them makes the two answers differ in fields neither sent.
      const lost = rs.lostWrite(asForm, asJson);
      if (lost && asForm.status === 201) return skipClauses(test.info(), lost, 'mgmt.request.form');
      check.expectStatus('mgmt.request.form', asForm, 201, 'PATCH as application/x-www-form-urlencoded');
      if (isObject(asJson.body) && isObject(asForm.body)) {
        const a = asJson.body;
        const b = asForm.body;
        const differing = Object.keys({ ...a, ...b }).filter((k) => !deepEqual(a[k], b[k]));
        check.that(
          'mgmt.request.form',
          differing.length === 0,
          differing.length === 0
            ? 'form and JSON give the same resource server'
            : `form and JSON differ: ${differing.map((k) => `${k}: JSON ${short(a[k])}, form ${short(b[k])}`).join('; ')}`,
          asForm,
        );
      }
    },
  );

  test(
    'a nested field sent in a form body: the answer is recorded',
    clauses(OPERATIONS.update, 'mgmt.request.form.nested'),
    async ({ rs, check }) => {
      const ex = await rs.update(
        { scopes: [{ value: 'read:conformance', description: 'form-encoded' }] },
        { encoding: 'form' },
      );
      check.observe(
        'mgmt.request.form.nested',
        `scopes as JSON text in a form field answered ${ex.status}${isObject(ex.body) && 'scopes' in ex.body ? `, scopes ${short(ex.body.scopes)}` : ''}`,
        ex,
      );
    },
  );
});
