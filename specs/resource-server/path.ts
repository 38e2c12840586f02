// The path parameter of PATCH /resource-servers/{id} (§4.1, §7.1): the id, or the
// identifier (audience) percent-encoded; an unknown id; the system resource server.
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../../lib/declare.ts';
import { resourceServerPath } from '../../lib/http.ts';
import { isObject, short } from '../../lib/values.ts';
import { clauseSkip, runSkip } from '../../lib/skip-record.ts';

test.describe('update a resource server: the path parameter', () => {
  test(
    'the resource server is updated when named by its id',
    clauses(OPERATIONS.update, 'rs.update.path.by-id', 'version.mgmt.path-prefix'),
    async ({ run, rs, check }) => {
      const name = `${run.runTag} by id`;
      const ex = await rs.update({ name });
      const body = isObject(ex.body) ? ex.body : {};
      check.that(
        'rs.update.path.by-id',
        ex.status === 201 && body.id === rs.id && body.name === name,
        `PATCH /resource-servers/${rs.id} {name}: answered ${ex.status} with id ${short(body.id)}, name ${short(body.name)}`,
        ex,
      );
      check.that(
        'version.mgmt.path-prefix',
        ex.status === 201 &&
          new URL(ex.request.url).pathname.endsWith(`/api/v2/resource-servers/${encodeURIComponent(rs.id)}`),
        `the update is served under /api/v2 (answered ${ex.status})`,
        ex,
      );
    },
  );

  test(
    'the resource server is updated when named by its identifier, percent-encoded',
    clauses(OPERATIONS.update, 'rs.update.path.by-identifier'),
    async ({ run, rs, check }) => {
      skipTest(rs.identifier === null && runSkip({}, 'the configured resource server shows no identifier'));
      const name = `${run.runTag} by identifier`;
      const ex = await rs.update({ name }, { via: rs.identifier! });
      const body = isObject(ex.body) ? ex.body : {};
      // Same object: the name written through the identifier reads back through the id.
      const back = await rs.read();
      // A write lost before the read-back shows another name there (said under rs.update.persisted).
      const lost = rs.lostWrite(back);
      if (lost && ex.status === 201 && body.id === rs.id)
        return skipClauses(test.info(), lost, 'rs.update.path.by-identifier');
      const backName = isObject(back.body) ? back.body.name : undefined;
      // A name that does not read back counts against the identifier only beside its twin: the
      // same write through the id that does. A tenant that keeps no write is rs.update.persisted's.
      if (!lost && ex.status === 201 && body.id === rs.id && backName !== name) {
        const twin = `${run.runTag} by id`;
        await rs.update({ name: twin });
        const twinBack = await rs.read();
        if (!rs.lostWrite(twinBack) && isObject(twinBack.body) && twinBack.body.name !== twin)
          return skipClauses(
            test.info(),
            clauseSkip(
              'rs.update.persisted',
              `not judged: a name written through the id does not read back either (${short(twinBack.body.name)}), so the identifier's read-back says nothing of the path`,
            ),
            'rs.update.path.by-identifier',
          );
      }
      check.that(
        'rs.update.path.by-identifier',
        ex.status === 201 && body.id === rs.id,
        `PATCH /resource-servers/${encodeURIComponent(rs.identifier!)} {name}: answered ${ex.status} with id ${short(body.id)}`,
        ex,
      );
      check.that(
        'rs.update.path.by-identifier',
        backName === name,
        `read back by id: name ${short(backName)} (written ${short(name)} through the identifier)`,
        back,
      );
    },
  );

  test(
    'an update naming no existing resource server is refused with a 4xx (code recorded)',
    clauses(OPERATIONS.update, 'rs.update.path.unknown-id', 'rs.update.path.unknown-id.status'),
    async ({ run, mgmt, check }) => {
      const ex = await mgmt.patch(resourceServerPath(`rs_${run.runTag.replace(/-/g, '_')}_missing`), { data: {} });
      check.expectRejected('rs.update.path.unknown-id', ex, 'PATCH an unknown id');
      check.observe('rs.update.path.unknown-id.status', `unknown id answered ${ex.status}`, ex);
    },
  );

  test(
    'an update of the system resource server is refused with 400',
    clauses(OPERATIONS.update, 'rs.update.error.400.system'),
    async ({ run, mgmt, check }) => {
      // On a shared tenant the body stays empty: were the update wrongly accepted, nothing changes.
      const body = run.cfg.embedded ? { name: `${run.runTag} system` } : {};
      const ex = await mgmt.patch(resourceServerPath(run.cfg.systemResourceServerId), { data: body });
      // Named by its identifier (IDM_SYSTEM_RESOURCE_SERVER_ID, by default `<base>/api/v2/`; ids
      // carry no `/` or `:`), an answer other than 400 counts only beside the twin: the configured
      // resource server found by its identifier.
      const identifier = typeof run.snapshot.identifier === 'string' ? run.snapshot.identifier : null;
      if (ex.status !== 400 && identifier && /[/:]/.test(run.cfg.systemResourceServerId)) {
        const twin = await mgmt.patch(resourceServerPath(identifier), { data: {} });
        if (twin.status < 200 || twin.status >= 300)
          return skipClauses(
            test.info(),
            clauseSkip(
              'rs.update.path.by-identifier',
              `not judged: the configured resource server is not found by its identifier either (PATCH {} answered ${twin.status}), so the system resource server cannot be named`,
            ),
            'rs.update.error.400.system',
          );
      }
      check.expectStatus(
        'rs.update.error.400.system',
        ex,
        400,
        `PATCH the system resource server (${run.cfg.systemResourceServerId})`,
      );
    },
  );
});
