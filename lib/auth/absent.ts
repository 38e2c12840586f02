// Absent endpoints, one rule: an endpoint §4.3 names that is neither declared in IDM_NOT_OFFERED
// nor found fails its flow's own clause once, and every other test that needed it is skipped naming
// that clause (the tenant's, a root cause); a flow the spec only records (observe) is recorded so.
// How "not found" is decided: lib/README.md, *Named flows*.
import type { TestInfo } from '@playwright/test';
import type { Checks } from '../checks.ts';
import { clauseEntry } from '../catalogue.ts';
import type { NamedFlow } from '../config/declarations.ts';
import { skipTest } from '../declare.ts';
import type { Exchange } from '../http.ts';
import { clauseSkip, tenantSkip } from '../skip-record.ts';
import { describeEndpoint, type Endpoint } from './endpoints.ts';

/** The flow each endpoint serves (its IDM_NOT_OFFERED name) and the clause that judges it. */
const FLOW_OF: Record<Endpoint['which'], { flow: NamedFlow | null; clause: string }> = {
  authorize: { flow: null, clause: 'auth.flow.code.pkce' },
  userinfo: { flow: 'userinfo', clause: 'auth.flow.userinfo' },
  revoke: { flow: 'revoke', clause: 'auth.flow.revoke' },
  passwordless: { flow: 'passwordless', clause: 'auth.api.named-flows' },
  logout: { flow: 'logout', clause: 'auth.flow.logout' },
  samlCallback: { flow: 'saml', clause: 'auth.api.saml-exception' },
};

/**
 * Whether an answer says there is no such endpoint (lib/answer-class.ts, rule endpoint-absent): its
 * sender classified it knowing the endpoint it went to (lib/auth/endpoints.ts `contextOf`).
 */
export function missing(ex: Exchange): boolean {
  return ex.answer.rule === 'endpoint-absent';
}

/** What a missing endpoint is, and the two ways to say where it is or that it is not offered. */
export function missingText(e: Endpoint, status: number): string {
  const { flow } = FLOW_OF[e.which];
  const declare = flow === null ? '' : `, or IDM_NOT_OFFERED=${flow} if the tenant does not offer it`;
  return `no ${e.which} endpoint: ${describeEndpoint(e)} answered ${status}; set ${e.setting} to its path${declare}`;
}

/**
 * Judges an endpoint's answer for absence: false when it was there. When it was not, the
 * flow's own clause fails (in the test that declares it) or is recorded (a flow the spec only
 * records), and the test stops; any other test stops skipped, naming that clause.
 */
export function judgeAbsent(on: { check: Checks; info: TestInfo }, e: Endpoint, ex: Exchange): boolean {
  if (!missing(ex)) return false;
  const { clause } = FLOW_OF[e.which];
  const text = missingText(e, ex.status);
  const judged = clauseEntry(clause)?.kind === 'must';
  const own = on.info.annotations.some((a) => a.type === 'clause' && a.description === clause);
  if (own) {
    if (judged) on.check.that(clause, false, text, ex);
    else on.check.observe(clause, text, ex);
  }
  skipTest(
    judged ? clauseSkip(clause, text) : tenantSkip({ answer: 'not-offered', setting: e.setting }, text),
    on.info,
  );
  return true;
}
