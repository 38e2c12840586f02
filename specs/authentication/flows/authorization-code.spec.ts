// Authorization code with a PKCE code verifier (§4.3), through the login page in Chromium
// (lib/auth/login-walk.ts): RFC 6749 §4.1 for the round trip (code and state at the redirect
// URI), RFC 7636 §4.6 for the verifier check. One login serves all three: the code is first
// presented with another and with no code_verifier, then with its own. A code that still gives
// a token after both proves each refusal was for its verifier, not for a dead code; a tenant
// may let a misused code die (RFC 6749 §4.1.2), and then fresh logins give the accepted twin
// and the refusal that met a dead code. The confidential client's exchange (no PKCE) and
// its single use are judged with the code-binding rules (specs/authentication/security/).
import { FLOW_GRANT } from '../../../lib/twin-gate.ts';
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { pkcePair } from '../../../lib/auth/pkce.ts';
import { failureCause, issued } from '../../../lib/auth/acceptance.ts';
import type { TokenAnswer } from '../../../lib/auth/flow-fixtures.ts';
import { codeFor, publicClient } from './flow-checks.ts';
import { attackRow } from '../../../lib/auth/attacks/catalogue.ts';

const WRONG = 'auth.flow.code.pkce.wrong-verifier';
const MISSING = 'auth.flow.code.pkce.missing-verifier';

test(
  'authorization code with PKCE (public client): refused with another or no code_verifier, then its own verifier gives a token',
  clauses(
    OPERATIONS.authFlow,
    'auth.flow.code.pkce',
    'auth.token.answer',
    'auth.method.client-id-only',
    'auth.api.named-flows',
    WRONG,
    MISSING,
    'auth.flow.refusals',
  ),
  async ({ run, flows, check, gate }) => {
    const { clientId, redirectUri } = publicClient(run.cfg);
    const exchange = (code: string, verifier: string | undefined): Promise<TokenAnswer> =>
      flows.token({
        grant_type: 'authorization_code',
        client_id: clientId,
        code,
        redirect_uri: redirectUri,
        ...(verifier ? { code_verifier: verifier } : {}),
      });
    /** A fresh code and the exchange with its own verifier, or why there is none. */
    const login = async () => {
      const pair = pkcePair();
      const got = await codeFor(flows, check, clientId, redirectUri, pair);
      return { pair, got };
    };

    const first = await login();
    if (first.got.code === null) {
      const twin = gate.accepted('auth.flow.code.pkce', false, first.got.problem, first.got.problem);
      gate.skip(twin, 'auth.method.client-id-only', WRONG, MISSING);
      return;
    }
    const code = first.got.code;
    const wrong = await exchange(code, pkcePair().verifier);
    let missing = await exchange(code, undefined);
    let right = await exchange(code, first.pair.verifier);
    if (!issued(right.ex)) {
      // The code died on the way (or the flow fails): a fresh code exchanged right is the twin.
      check.observe(
        'auth.flow.refusals',
        `after the two refusals the code's own exchange ${failureCause(right.ex)}: the tenant let the refusals consume it; fresh logins give the twin`,
        right.ex,
      );
      const again = await login();
      if (again.got.code !== null) right = await exchange(again.got.code, again.pair.verifier);
      // `wrong` met a live code; `missing` may have met one `wrong` had already killed.
      if (issued(right.ex) && !issued(missing.ex)) {
        const third = await login();
        if (third.got.code !== null) missing = await exchange(third.got.code, undefined);
      }
    }

    const { note } = await flows.encoding();
    const twin = await gate.issued(
      'auth.flow.code.pkce',
      right.ex,
      'code exchange with its code_verifier (client ID only)',
      note,
    );
    // §5.2 "client ID only, for public applications": this exchange is that method.
    check.that(
      'auth.method.client-id-only',
      twin.ok,
      `the public client's code exchange with its client ID alone ${twin.ok ? `answered ${right.ex.status} with a token` : twin.cause}${note}`,
      right.ex,
    );
    gate.refused(twin, WRONG, wrong.ex, 'code exchange with another code_verifier', {
      ...FLOW_GRANT,
      attack: attackRow('authorization-code', 'wrong-verifier'),
    });
    gate.refused(twin, MISSING, missing.ex, 'code exchange with no code_verifier', {
      ...FLOW_GRANT,
      attack: attackRow('authorization-code', 'no-verifier'),
    });
  },
);
