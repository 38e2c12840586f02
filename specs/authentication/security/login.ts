// The security specs' own logins through the login page (lib/auth/login-walk.ts): one
// authorization request, its outcome, and the reason to skip when it gave nothing to judge
// (the flow's own clauses, auth.flow.*, judge why).
import type { Flows } from '../../../lib/auth/flow-fixtures.ts';
import { newState, type PkcePair } from '../../../lib/auth/pkce.ts';
import type { AuthorizeOutcome } from '../../../lib/auth/login-walk.ts';
import { skipTest } from '../../../lib/declare.ts';
import { clauseSkip } from '../../../lib/skip-record.ts';

export interface Login {
  out: AuthorizeOutcome;
  nonce: string;
}

/** Logs in with `response_type`; skips the test naming `flowClause` when no callback with state came back. */
export async function loginFor(
  flows: Flows,
  flowClause: string,
  o: { responseType: string; clientId: string; redirectUri: string; scope: string; pkce?: PkcePair },
): Promise<Login> {
  const state = newState();
  const nonce = newState();
  const params: Record<string, string> = {
    response_type: o.responseType,
    client_id: o.clientId,
    redirect_uri: o.redirectUri,
    scope: o.scope,
    state,
    nonce,
  };
  if (o.pkce) Object.assign(params, { code_challenge: o.pkce.challenge, code_challenge_method: o.pkce.method });
  const out = await flows.authorize(await flows.endpoint('authorize'), params, [o.redirectUri]);
  const error = out.params.error;
  skipTest(
    (out.callback === null || out.params.state !== state || error !== undefined) &&
      clauseSkip(
        flowClause,
        `the ${o.responseType} login gave nothing to judge (${error ? `error ${error}` : (out.problem ?? 'another state')}) — ${flowClause} says why`,
      ),
  );
  return { out, nonce };
}

/** The string member `name` of a JSON answer, or null. */
export function member(body: unknown, name: string): string | null {
  const v = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' && v !== '' ? v : null;
}
