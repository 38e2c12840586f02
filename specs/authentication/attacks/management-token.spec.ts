// The JWT attacks of the catalogue (lib/auth/attacks/) on the Management API's bearer token
// (§5.1): each made from the run's genuine management token and presented on the same empty
// update; §7.1 names 401 for an invalid token. The twin is the same request with the genuine
// token, answered 2xx when the global setup read the snapshot. The earlier cases (no token, malformed, another key, expired, another
// audience) are update.spec.ts's, rows of the same catalogue.
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { resourceServerPath } from '../../../lib/http.ts';
import { materialFor } from '../../../lib/auth/attacks/material.ts';
import { sendJwtAttacks } from '../../../lib/auth/attacks/send.ts';
import { JWT_CLAUSES } from '../../../lib/auth/attacks/jwt.ts';

test(
  'an update with a management token made by a JWT attack is refused with 401',
  clauses(OPERATIONS.update, ...JWT_CLAUSES),
  async ({ run, suite, anon, credentials, gate }, info) => {
    const { cfg } = run;
    const path = resourceServerPath(cfg.resourceServerId);
    // The twin: the global setup read the resource server with this very request and the
    // genuine token (PATCH {}, the snapshot), or no test would run.
    const twin = gate.given('auth.mgmt.bearer-jwt', true, '');
    // Another genuine token of the same signer lends its signature: the limited client's, else one for another audience.
    const other =
      suite.state.tokens.limited ??
      (credentials.otherAudience ? await credentials.tokenFor(credentials.otherAudience) : null);
    await sendJwtAttacks({
      carrier: 'management-token',
      genuine: credentials.realToken,
      material: await materialFor(credentials.realToken, other, cfg, anon),
      depth: cfg.depth,
      info,
      secret: (v) => suite.redactor.add(v),
      send: (token) => anon.withAuthorization('jwt-attack', `Bearer ${token}`).patch(path, { data: {} }),
      judge: (row, ex, what, note) =>
        gate.refusedWith(twin, row.clause, ex, 401, `PATCH {} with a management token: ${what}`, row, note),
      notMade: (row, why) => gate.notMade(row, why),
    });
  },
);
