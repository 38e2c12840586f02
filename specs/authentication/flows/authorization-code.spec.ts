// Authorization code with a PKCE code verifier (§4.3), through the login page in Chromium: RFC 6749
// §4.1 for the round trip (code and state at the redirect URI), RFC 7636 §4.6 for the verifier
// check. One login serves all three: the code is presented with another verifier and with none,
// then with its own, so a code that still gives a token proves each refusal was for its verifier
// (lib/auth/live-credential.ts). The confidential client's exchange (no PKCE) is judged with the
// code-binding rules (specs/authentication/security/).
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS } from '../../../lib/declare.ts';
import { pkcePair } from '../../../lib/auth/pkce.ts';
import type { TokenAnswer } from '../../../lib/auth/flow-fixtures.ts';
import { onLiveCredentials } from '../../../lib/auth/live-credential.ts';
import { codeFor, publicClient, refusedOnLiveCodes, type WrongCode } from './flow-checks.ts';
import { attackRow } from '../../../lib/auth/attacks/catalogue.ts';
import { clientIdOnly, codesTaken } from '../../../lib/auth/conditions.ts';

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
  async ({ run, flows, gate }) => {
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
      const got = await codeFor(flows, gate, clientId, redirectUri, pair);
      return { pair, got };
    };

    const first = await login();
    if (first.got.code === null) {
      const twin = gate.accepted('auth.flow.code.pkce', false, first.got.problem, first.got.problem);
      gate.skip(twin, 'auth.method.client-id-only', WRONG, MISSING);
      return;
    }
    type Code = { code: string; verifier: string };
    const codeOf = (l: Awaited<ReturnType<typeof login>>): Code | null =>
      l.got.code === null ? null : { code: l.got.code, verifier: l.pair.verifier };
    const wrong: WrongCode<Code>[] = [
      {
        id: WRONG,
        what: 'code exchange with another code_verifier',
        row: attackRow('authorization-code', 'wrong-verifier'),
        send: (c) => exchange(c.code, pkcePair().verifier),
      },
      {
        id: MISSING,
        what: 'code exchange with no code_verifier',
        row: attackRow('authorization-code', 'no-verifier'),
        send: (c) => exchange(c.code, undefined),
      },
    ];
    // Each refusal counts only on a live code (issue 40, item 4): the code's own exchange after
    // them shows it survived; where one killed it, the one after is sent again on a fresh login's.
    const live = await onLiveCredentials<Code>({
      first: codeOf(first)!,
      fresh: async () => codeOf(await login()),
      genuine: (c) => exchange(c.code, c.verifier),
      attempts: wrong,
    });
    if (live.credentials > 1) await gate.call(codesTaken, null, { codes: live.credentials, wrong: 'the two refusals' });
    const right = live.twin ?? (await exchange(first.got.code, first.pair.verifier));
    const { note } = await flows.encoding();
    const twin = await gate.issued(
      'auth.flow.code.pkce',
      right.ex,
      'code exchange with its code_verifier (client ID only)',
      note,
    );
    // §5.2 "client ID only, for public applications": this exchange is that method.
    await gate.call(clientIdOnly, null, { twin, ex: right.ex, note });
    refusedOnLiveCodes(gate, twin, live, wrong);
  },
);
