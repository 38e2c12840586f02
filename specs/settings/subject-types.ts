// subject_type_authorization's client policy (§2.3) in effect: with require_client_grant a client
// holding a grant for the API obtains a token and a client holding none is refused beside it;
// with deny_all the same client that was given one is refused.
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS, skipClauses } from '../../lib/declare.ts';
import { clausesOf } from '../../lib/condition.ts';
import { runSkip } from '../../lib/skip-record.ts';
import { confirmed, issuedTwin, rowsOf, writeSetting } from '../../lib/api-tokens/rows.ts';
import { apiTokenIssued, grantedClientIssued } from '../../lib/api-tokens/conditions.ts';
import { recorded } from '../../lib/management/recorded.ts';

const REFUSAL_STATUS = recorded('rs.settings.refusal.status');
const GRANT = 'rs.settings.subject_type.client.require_client_grant';
const DENY = 'rs.settings.subject_type.client.deny_all';

test.describe('resource-server settings in effect: subject-type authorization', () => {
  test(
    'client-credentials tokens for the API follow its client policy: require_client_grant, then deny_all',
    clauses(OPERATIONS.settings, ...clausesOf(apiTokenIssued, grantedClientIssued, DENY, REFUSAL_STATUS)),
    async ({ run, rs, gate, anon, suite }, info) => {
      const { cfg } = run;
      const { x, tokens, who } = rowsOf({ run, rs, gate, anon, suite, info });
      if (!(await issuedTwin(x, await tokens.clientCredentials(who), [GRANT, DENY], true)).ok) return;

      const grantPolicy = await writeSetting(
        x,
        { subject_type_authorization: { client: { policy: 'require_client_grant' } } },
        [GRANT, DENY],
      );
      if (grantPolicy && (await confirmed(x, grantPolicy, [GRANT, DENY]))) {
        // The granted client's token is the twin of both refusals: the same API, the same moment.
        const granted = await tokens.clientCredentials(who);
        await gate.call(grantedClientIssued, granted.ex, granted);
        const twin = gate.given(GRANT, granted.access !== null, `${granted.what}: ${granted.ex.status}`);
        const ungranted = cfg.ungranted;
        // Its own credentials shown live, so that its refusal says something of the grant alone.
        const live =
          ungranted !== null && (await tokens.credentialsLive(ungranted, suite.state.tokens.limited ?? null));
        if (ungranted && live) {
          const other = await tokens.clientCredentials({ secret: ungranted });
          gate.refusedWith(twin, GRANT, other.ex, '4xx', `${other.what}, holding no grant for the API`);
          await gate.call(REFUSAL_STATUS, null, { what: `${GRANT}: ${other.what}`, ex: other.ex });
        } else
          skipClauses(
            info,
            runSkip(
              { setting: 'IDM_UNGRANTED_CLIENT_ID' },
              ungranted
                ? `the credentials of ${ungranted.id} obtained no token for the management API (IDM_AUDIENCE) either: its refusal would say nothing of the grant`
                : 'needs a client holding no grant for the API: set IDM_UNGRANTED_CLIENT_ID and IDM_UNGRANTED_CLIENT_SECRET',
            ),
            GRANT,
          );
        if (await writeSetting(x, { subject_type_authorization: { client: { policy: 'deny_all' } } }, [DENY])) {
          const denied = await tokens.clientCredentials(who);
          gate.refusedWith(twin, DENY, denied.ex, '4xx', `${denied.what} under deny_all`);
          await gate.call(REFUSAL_STATUS, null, { what: `${DENY}: ${denied.what}`, ex: denied.ex });
        }
      }
    },
  );
});
