// One cause, one failure, by construction (issue 30, item 3): what a flow gave, decided once, the
// way the flow's own clause decides it. The flow's clause is judged on this very verdict, and a
// clause that judges the flow's products (its ID token, its refresh, its user info, a revocation's
// effect) is judged only where it holds, else skipped naming the flow's clause: the two cannot
// disagree, and a flow that failed is one failure, never a second one under its products' rules.
import type { Exchange } from '../http.ts';
import type { SkipRecord } from '../skip-record.ts';
import { isObject } from '../values.ts';
import { describeBody } from '../answer-words.ts';
import type { AuthorizeOutcome } from './login-walk.ts';
import { failureCause, issued, notExercised } from './acceptance.ts';

/** What a flow gave, as its own clause judges it. */
export interface FlowGave {
  /** The flow's own clause. */
  readonly clause: string;
  readonly ok: boolean;
  /** What the flow gave, in one line (the clause's evidence, and the skip text of what needed it). */
  readonly seen: string;
}

/**
 * Every token-endpoint flow (the code exchanges, password, refresh, client credentials): a token
 * issued (RFC 6749 §5.1, lib/auth/acceptance.ts, which the flows' own clauses are judged with).
 */
export function tokenGave(clause: string, ex: Exchange): FlowGave {
  const ok = issued(ex);
  return { clause, ok, seen: ok ? `answered ${ex.status} with a token` : failureCause(ex) };
}

/**
 * auth.flow.implicit (RFC 6749 §4.2.2): the redirect URI's fragment carries access_token,
 * token_type and the state sent, and the query carries no access token. Any response_type
 * with `token` in it gives these (OIDC Core §3.2.2.5), whatever else it adds.
 */
export function implicitGave(out: AuthorizeOutcome, state: string): FlowGave {
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

/** auth.flow.userinfo (OIDC Core §5.3.2): 200 with a JSON object carrying a sub string. */
export function userInfoGave(ex: Exchange): FlowGave {
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
export function revocationGave(ex: Exchange): FlowGave {
  return { clause: 'auth.flow.revoke', ok: ex.status === 200, seen: `answered ${ex.status}` };
}

/** The record a clause judging a flow's products is skipped with where the flow gave none; null where it did. */
export function productsSkip(g: FlowGave): SkipRecord | null {
  return g.ok ? null : notExercised(g.clause, g.seen);
}
