// The security specs' own logins through the login page (lib/auth/login-walk.ts): one implicit
// authorization request and its outcome, judged further only where the implicit flow gave what
// its own clause requires (lib/auth/flow-products.ts); otherwise the test is skipped naming it.
import type { Flows } from '../../../lib/auth/flow-fixtures.ts';
import { newState } from '../../../lib/auth/pkce.ts';
import type { AuthorizeOutcome } from '../../../lib/auth/login-walk.ts';
import { skipTest } from '../../../lib/declare.ts';
import { implicitGave, productsSkip } from '../../../lib/auth/flow-products.ts';

export interface Login {
  out: AuthorizeOutcome;
  nonce: string;
}

/**
 * Logs in with an implicit `response_type` (`token` among its values); skips the test naming
 * auth.flow.implicit unless the fragment carries what that clause requires.
 */
export async function implicitLogin(
  flows: Flows,
  o: { responseType: string; clientId: string; redirectUri: string; scope: string },
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
  const out = await flows.authorize(await flows.endpoint('authorize'), params, [o.redirectUri]);
  skipTest(productsSkip(implicitGave(out, state)));
  return { out, nonce };
}

/** The string member `name` of a JSON answer, or null. */
export function member(body: unknown, name: string): string | null {
  const v = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  return typeof v === 'string' && v !== '' ? v : null;
}
