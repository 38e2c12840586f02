// §4: request bodies are accepted as application/json and as
// application/x-www-form-urlencoded; the same flat update gives the same result either way.
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS, skipClauses } from '../../lib/declare.ts';
import { clausesOf } from '../../lib/condition.ts';
import { updateSucceeded } from '../../lib/management/update-answer.ts';
import { FORM, formAccepted, formSameAsJson, jsonAccepted } from '../../lib/management/encodings.ts';
import { recorded } from '../../lib/management/recorded.ts';
import { isObject, short } from '../../lib/values.ts';

const NESTED = recorded('mgmt.request.form.nested');

test.describe('update a resource server: body encodings', () => {
  test(
    'the same flat update sent as JSON and as a form gives the same resource server',
    clauses(OPERATIONS.update, ...clausesOf(jsonAccepted, formAccepted, formSameAsJson)),
    async ({ run, rs, gate }) => {
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
      await gate.call(jsonAccepted, asJson, asJson);
      // A write lost between them makes the two answers differ in fields neither sent.
      const lost = rs.lostWrite(asForm, asJson);
      if (lost && updateSucceeded(asForm)) return skipClauses(test.info(), lost, FORM);
      if (!(await gate.call(formAccepted, asForm, asForm))) return;
      if (gate.faultedFor(asJson, [formSameAsJson], 'PATCH as application/json')) return;
      await gate.call(formSameAsJson, asForm, { asForm, asJson });
    },
  );

  test(
    'a nested field sent in a form body: the answer is recorded',
    clauses(OPERATIONS.update, ...clausesOf(NESTED)),
    async ({ rs, gate }) => {
      const ex = await rs.update(
        { scopes: [{ value: 'read:conformance', description: 'form-encoded' }] },
        { encoding: 'form' },
      );
      const scopes = isObject(ex.body) && 'scopes' in ex.body ? `, scopes ${short(ex.body.scopes)}` : '';
      await gate.call(NESTED, ex, { what: 'scopes as JSON text in a form field', ex, extra: scopes });
    },
  );
});
