// The path parameter of PATCH /resource-servers/{id} (§4.1, §7.1): the id, or the
// identifier (audience) percent-encoded; an unknown id; the system resource server.
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS, skipClauses, skipTest } from '../../lib/declare.ts';
import { resourceServerPath } from '../../lib/http.ts';
import { isObject, short } from '../../lib/values.ts';
import { runSkip } from '../../lib/skip-record.ts';

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
      check.that(
        'rs.update.path.by-identifier',
        ex.status === 201 && body.id === rs.id,
        `PATCH /resource-servers/${encodeURIComponent(rs.identifier!)} {name}: answered ${ex.status} with id ${short(body.id)}`,
        ex,
      );
      const backName = isObject(back.body) ? back.body.name : undefined;
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
      check.expectStatus(
        'rs.update.error.400.system',
        ex,
        400,
        `PATCH the system resource server (${run.cfg.systemResourceServerId})`,
      );
    },
  );
});
