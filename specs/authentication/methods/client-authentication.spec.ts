// §5.2, the ways to authenticate at the token endpoint (lib/auth/methods.ts, one row each):
// for every configured client of a method, the right credentials obtain a token (RFC 6749
// §5.1) — the accepted twin — and each named fault, a wrong variant, is refused with a 4xx and
// an error object beside it (the twin gate, lib/twin-gate.ts). The spec states only
// "4xx": the exact status and error code are recorded (auth.method.client-auth-status).
import { test } from '../../../lib/auth/flow-fixtures.ts';
import { clauses, OPERATIONS, skipTest } from '../../../lib/declare.ts';
import { TOKEN_METHODS, type MethodClient, type MethodRequest, type TokenMethod } from '../../../lib/auth/methods.ts';
import { CLIENT_AUTH, CLIENT_AUTH_REFUSAL_CLAUSES } from '../../../lib/twin-gate.ts';
import { grantNote, tokenPost, type AuthEncoding } from '../../../lib/auth/encoding.ts';
import type { Flows } from '../../../lib/auth/flow-types.ts';
import { tokenGave } from '../../../lib/auth/flow-products.ts';
import { notOfferedSkip, type Config } from '../../../lib/config.ts';
import type { ApiClient, Exchange } from '../../../lib/http.ts';
import { keyFetches } from '../../../lib/auth/attacks/send.ts';

const REMOTE_KEY = 'auth.sec.jwt.remote-key';

/** Each client's accepted request and answer, sent once per worker: the twin of all its faults. */
const twins = new Map<string, Promise<{ req: MethodRequest; ex: Exchange }>>();

for (const m of TOKEN_METHODS) {
  test.describe(`${m.name} (§5.2)`, () => {
    test(
      'the right credentials obtain a token',
      clauses(OPERATIONS.authMethod, m.clause, 'auth.token.answer', ...m.acceptClauses),
      async ({ run, anon, check, gate, flows }) => {
        const { cfg } = run;
        skipTest(notOfferedSkip(cfg, m.id));
        const clients = m.clients(cfg);
        skipTest(clients.length === 0 && m.needs);
        const enc = await flows.encoding();
        for (const c of clients) {
          const send = (r: MethodRequest) => sendRequest(flows, anon, enc, cfg, r, c.id);
          const { req, ex } = await accepted(m, c, cfg, send, enc);
          await gate.issued(m.clause, ex, m.describe(cfg, c), `${enc.note}${grantNote(enc)}`);
          await m.besides?.({ cfg, check, enc, c, req, ex, send });
        }
      },
    );

    for (const f of m.faults) {
      const clause = f.clause ?? m.refusedClause;
      test(
        `${f.what} is refused`,
        clauses(OPERATIONS.authMethod, clause, ...CLIENT_AUTH_REFUSAL_CLAUSES),
        async ({ run, anon, gate, flows }) => {
          const { cfg } = run;
          skipTest(notOfferedSkip(cfg, m.id));
          const unset = f.unset?.(cfg) ?? null;
          skipTest(unset);
          const clients = m.clients(cfg).filter((c) => f.for?.(c, cfg) ?? true);
          skipTest(clients.length === 0 && m.needs);
          const enc = await flows.encoding();
          for (const c of clients) {
            const send = (r: MethodRequest) => sendRequest(flows, anon, enc, cfg, r, c.id);
            const { ex: right } = await accepted(m, c, cfg, send, enc);
            const twin = gate.gave(tokenGave(m.clause, right));
            const watch = f.attack ? await keyFetches() : null;
            const wrong = await send(await m.request(cfg, c, f.id));
            gate.refused(twin, clause, wrong, `${c.id} with ${f.what}`, {
              ...CLIENT_AUTH,
              ...(f.attack
                ? { attack: f.attack, attackNote: f.clause === REMOTE_KEY && watch ? await watch() : '' }
                : {}),
            });
          }
        },
      );
    }
  });
}

// Helpers

function accepted(
  m: TokenMethod,
  c: MethodClient,
  cfg: Config,
  send: (r: MethodRequest) => Promise<Exchange>,
  enc: AuthEncoding,
) {
  const key = `${m.id} ${c.id}`;
  let twin = twins.get(key);
  if (!twin) {
    twin = (async () => {
      if (m.accept) return m.accept(cfg, c, send);
      const req = await m.request(cfg, c);
      return { req, ex: m.known?.(enc, c) ?? (await send(req)) };
    })();
    twins.set(key, twin);
    twin.catch(() => twins.delete(key));
  }
  return twin;
}

/** A method's request for client `clientId` over the grant the tenant offers (lib/auth/encoding.ts). */
async function sendRequest(
  flows: Flows,
  anon: ApiClient,
  enc: AuthEncoding,
  cfg: Config,
  r: MethodRequest,
  clientId: string,
): Promise<Exchange> {
  return tokenPost(anon, enc, cfg, await flows.grantRequest(r.data, clientId), { headers: r.headers });
}
