// One cause, one failure, by construction (issue 30, item 3): what a flow gave, decided once, the
// way the flow's own clause decides it. The flow's clause is judged on this very verdict, and a
// clause that judges the flow's products (its ID token, its refresh, its user info, a revocation's
// effect) is judged only where it holds, else skipped naming the flow's clause: the two cannot
// disagree, and a flow that failed is one failure, never a second one under its products' rules.
import type { Exchange } from '../http.ts';
import type { SkipRecord } from '../skip-record.ts';
import { isObject } from '../values.ts';
import { describeBody, notIssuedCause } from '../answer-words.ts';
import { notExercised, type Gave } from '../twin-gate.ts';
import type { AuthorizeOutcome } from './login-walk.ts';

/**
 * Every token-endpoint flow (the code exchanges, password, refresh, client credentials): a token
 * issued (RFC 6749 §5.1, as the answer was read when received: the flows' own clauses are judged with it).
 */
export function tokenGave(clause: string, ex: Exchange): Gave {
  const ok = ex.answer.issued !== null;
  return { clause, ok, seen: ok ? `answered ${ex.status} with a token` : notIssuedCause(ex) };
}

/**
 * auth.flow.implicit (RFC 6749 §4.2.2): the redirect URI's fragment carries access_token,
 * token_type and the state sent, and the query carries no access token. Any response_type
 * with `token` in it gives these (OIDC Core §3.2.2.5), whatever else it adds.
 */
export function implicitGave(out: AuthorizeOutcome, state: string): Gave {
  const missing = ['access_token', 'token_type', 'state'].filter((k) => !out.carriedIn.fragment.includes(k));
  const ok =
    out.callback !== null &&
    missing.length === 0 &&
    out.params.state === state &&
    !out.carriedIn.query.includes('access_token');
  const seen = out.callback
    ? `fragment carries ${out.carriedIn.fragment.join(', ') || 'nothing'}; query carries ${out.carriedIn.query.join(', ') || 'nothing'}${out.params.state !== undefined && out.params.state !== state ? ' (another state)' : ''}${out.params.error ? ` (error ${out.params.error})` : ''} (the tenant answered ${out.chain.join(', ')})`
    : (out.problem ?? 'no redirect');
  return { clause: 'auth.flow.implicit', ok, seen };
}

/**
 * Why a login gave no code, in one line: the tenant's answer when no redirect URI was reached,
 * else what the redirect URI received (its error and description, or the names of what it carried)
 * and the tenant's answers on the way (paths only).
 */
export function noCodeSaid(out: AuthorizeOutcome): string {
  if (!out.callback) return out.problem ?? 'no redirect';
  const { error, error_description: description } = out.params;
  const received = error
    ? `error=${error}${description ? ` (${description})` : ''}`
    : Object.keys(out.params).join(', ') || 'no parameters';
  return `the redirect URI received ${received}; the tenant answered ${out.chain.join(', ')}`;
}

/** auth.flow.userinfo (OIDC Core §5.3.2): 200 with a JSON object carrying a sub string. */
export function userInfoGave(ex: Exchange): Gave {
  const sub = isObject(ex.body) ? ex.body.sub : undefined;
  const ok = ex.status === 200 && typeof sub === 'string' && sub !== '';
  const body = isObject(ex.body)
    ? typeof sub === 'string'
      ? ' with sub'
      : ' without a sub string'
    : ` without a JSON object,${describeBody(ex)}`;
  return { clause: 'auth.flow.userinfo', ok, seen: `answered ${ex.status}${body}` };
}

/** auth.flow.revoke (RFC 7009 §2.2): the revocation is answered 200. */
export function revocationGave(ex: Exchange): Gave {
  return { clause: 'auth.flow.revoke', ok: ex.status === 200, seen: `answered ${ex.status}` };
}

/** The record a clause judging a flow's products is skipped with where the flow gave none; null where it did. */
export function productsSkip(g: Gave): SkipRecord | null {
  return g.ok ? null : notExercised(g.clause, g.seen);
}
