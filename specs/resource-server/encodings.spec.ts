// §4: request bodies are accepted as application/json and as
// application/x-www-form-urlencoded; the same flat update gives the same result either way.
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS } from '../../lib/declare.ts';
import { deepEqual, isObject, short } from '../../lib/values.ts';

test.describe('update a resource server: body encodings', () => {
  test(
    'the same flat update sent as JSON and as a form gives the same resource server',
    clauses(OPERATIONS.update, 'mgmt.request.json', 'mgmt.request.form'),
    async ({ run, rs, check }) => {
      const web = typeof run.snapshot.token_lifetime_for_web === 'number' ? run.snapshot.token_lifetime_for_web : 0;
      const life = (n: number): number => Math.min(2592000, Math.max(web, 3600) + n);
      const flat = (tag: string, n: number, flag: boolean) =>
        rs.safe({
          name: `${run.runTag} ${tag}`,
          token_lifetime: life(n),
          allow_offline_access: flag,
          skip_consent_for_verifiable_first_party_clients: !flag,
        });
      const target = flat('encodings', 17, true);

      const asJson = await rs.update(target);
      check.expectStatus('mgmt.request.json', asJson, 201, 'PATCH as application/json');
      // Move away, so the form request has something to change.
      await rs.update(flat('elsewhere', 99, false));
      const asForm = await rs.update(target, { encoding: 'form' });
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
