// The path parameter of PATCH /resource-servers/{id} (§4.1, §7.1): the id, or the
// identifier (audience) percent-encoded; an unknown id; the system resource server.
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../../lib/declare.ts';
import { clausesOf } from '../../lib/condition.ts';
import { resourceServerPath } from '../../lib/http.ts';
import { isObject, short } from '../../lib/values.ts';
import { runSkip } from '../../lib/skip-record.ts';
import { BY_IDENTIFIER, updatedById, updatedByIdentifier } from '../../lib/management/path.ts';
import { INVALID, refusedAsInvalid, servedUnderPrefix, updateSucceeded } from '../../lib/management/update-answer.ts';
import { PERSISTED } from '../../lib/management/read-back.ts';
import { recorded } from '../../lib/management/recorded.ts';

const UNKNOWN_STATUS = recorded('rs.update.path.unknown-id.status');

test.describe('update a resource server: the path parameter', () => {
  test(
    'the resource server is updated when named by its id',
    clauses(OPERATIONS.update, ...clausesOf(updatedById, servedUnderPrefix)),
    async ({ run, rs, gate }) => {
      const name = `${run.runTag} by id`;
      const ex = await rs.update({ name });
      await gate.call(updatedById, ex, { ex, id: rs.id, name });
      await gate.call(servedUnderPrefix, ex, { ex, path: resourceServerPath(rs.id) });
    },
  );
});

test.describe('update a resource server: the path parameter', () => {
  test(
    'the resource server is updated when named by its identifier, percent-encoded',
    clauses(OPERATIONS.update, ...clausesOf(updatedByIdentifier)),
    async ({ run, rs, gate }, info) => {
      skipTest(rs.identifier === null && runSkip({}, 'the configured resource server shows no identifier'));
      const identifier = rs.identifier!;
      const name = `${run.runTag} by identifier`;
      const ex = await rs.update({ name }, { via: identifier });
      // Same object: the name written through the identifier reads back through the id.
      const back = await rs.read();
      const found = isObject(ex.body) && updateSucceeded(ex) && ex.body.id === rs.id;
      // A write lost before the read-back shows another name there (said under rs.update.persisted).
      const lost = rs.lostWrite(back);
      if (lost && found) return skipClauses(info, lost, BY_IDENTIFIER);
      if (!(await gate.call(updatedByIdentifier, ex, { ex, id: rs.id, identifier }))) return;
      if (gate.faultedFor(back, [updatedByIdentifier], 'PATCH {} after the write through the identifier')) return;
      const backName = isObject(back.body) ? back.body.name : undefined;
      // The read-back counts against the identifier only beside its twin: the same write through
      // the id, read back too (a tenant that keeps no write is rs.update.persisted's).
      let twin = gate.given(PERSISTED, true, '');
      if (!lost && backName !== name) {
        const byId = `${run.runTag} by id`;
        const write = await rs.update({ name: byId });
        const twinBack = await rs.read();
        const kept = rs.lostWrite(twinBack) !== null || (isObject(twinBack.body) && twinBack.body.name === byId);
        // A fault in the twin is the fault clause's to name, never a write that did not read back.
        const fault = [write, twinBack].find((ex) => ex.answer.class === 'fault');
        twin = fault
          ? gate.twinOf(PERSISTED, fault)
          : gate.given(
              PERSISTED,
              kept,
              `a name written through the id does not read back either (${short(isObject(twinBack.body) ? twinBack.body.name : twinBack.status)})`,
            );
      }
      gate.holds(
        twin,
        BY_IDENTIFIER,
        backName === name,
        `read back by id: name ${short(backName)} (written ${short(name)} through the identifier)`,
        back,
      );
    },
  );
});

test.describe('update a resource server: the path parameter', () => {
  test(
    'an update naming no existing resource server is refused with a 4xx (code recorded)',
    clauses(OPERATIONS.update, ...clausesOf('rs.update.path.unknown-id', UNKNOWN_STATUS)),
    async ({ run, mgmt, gate }) => {
      const ex = await mgmt.patch(resourceServerPath(`rs_${run.runTag.replace(/-/g, '_')}_missing`), { data: {} });
      gate.refusedWith(gate.setupRead(), 'rs.update.path.unknown-id', ex, '4xx', 'PATCH an unknown id');
      await gate.call(UNKNOWN_STATUS, ex, { what: 'PATCH {} of an unknown id', ex });
    },
  );
});

test.describe('update a resource server: the path parameter', () => {
  test(
    'an update of the system resource server is refused with 400',
    clauses(OPERATIONS.update, 'rs.update.error.400.system'),
    async ({ run, mgmt, gate }) => {
      const system = run.cfg.systemResourceServerId;
      // On a shared tenant the body stays empty: were the update wrongly accepted, nothing changes.
      const body = run.cfg.embedded ? { name: `${run.runTag} system` } : {};
      const ex = await mgmt.patch(resourceServerPath(system), { data: body });
      // Named by its identifier (IDM_SYSTEM_RESOURCE_SERVER_ID, by default `<base>/api/v2/`; ids
      // carry no `/` or `:`), a refusal counts beside the twin that names a resource server the
      // same way: the configured one found by its identifier. Sent only when the answer is not 400.
      const identifier = typeof run.snapshot.identifier === 'string' ? run.snapshot.identifier : null;
      let twin = gate.setupRead();
      if (!refusedAsInvalid(ex) && identifier && /[/:]/.test(system))
        twin = gate.twinOf(BY_IDENTIFIER, await mgmt.patch(resourceServerPath(identifier), { data: {} }));
      gate.refusedWith(twin, 'rs.update.error.400.system', ex, INVALID, `PATCH the system resource server (${system})`);
    },
  );
});
