// Rules the spec or a standard states about every answer of a kind, judged on every answer of
// the run (as Schemathesis' checks run on every response), not only in the test written for
// them: each exchange any test's client sends passes through here (lib/fixtures.ts).
// - RFC 6749 §5.1: a token-endpoint answer that carries a token says Cache-Control: no-store.
// - §7.3: an authentication-API error answer is an error object; each is recorded for the
//   run-wide judgement (reporters/auth-errors.ts: an object on every 4xx, most with a code
//   and a description).
import type { TestInfo } from '@playwright/test';
import type { Checks } from './checks.ts';
import type { Config } from './config.ts';
import type { Exchange } from './http.ts';
import { isObject } from './values.ts';
import { recordAuthError } from './auth/error-records.ts';
import { expectNotCacheable } from './auth/token-cache.ts';

export interface AnswerRule {
  /** What the rule says, for a reader of this registry. */
  name: string;
  clause: string;
  /** Whether the rule speaks of this answer. */
  applies(ex: Exchange, cfg: Config): boolean;
  judge(ex: Exchange, on: { check: Checks; info: TestInfo }): void;
}

export const ANSWER_RULES: readonly AnswerRule[] = [
  {
    name: 'a token answer is never stored (RFC 6749 §5.1)',
    clause: 'auth.sec.token.no-store',
    applies: (ex, cfg) => isTokenEndpoint(ex, cfg) && carriesToken(ex),
    judge: (ex, { check }) => void expectNotCacheable(check, ex),
  },
  {
    name: 'an authentication-API error is an error object (§7.3), judged over the run',
    clause: 'auth.error.object',
    applies: (ex, cfg) => ex.status >= 400 && isAuthenticationApi(ex, cfg),
    judge: (ex, { info }) => void recordAuthError(info, ex),
  },
];

/** Every rule that speaks of `ex`, judged in the test that received it. */
export function judgeAnswer(ex: Exchange, cfg: Config, on: { check: Checks; info: TestInfo }): void {
  for (const rule of ANSWER_RULES) if (rule.applies(ex, cfg)) rule.judge(ex, on);
}

// Helpers

/** The authentication API: its origin, outside the management API's /api/v2. */
function isAuthenticationApi(ex: Exchange, cfg: Config): boolean {
  const u = new URL(ex.request.url);
  return u.origin === new URL(cfg.auth.url).origin && !`${u.origin}${u.pathname}`.startsWith(cfg.apiBase);
}

function isTokenEndpoint(ex: Exchange, cfg: Config): boolean {
  const path = (url: string) => new URL(url).pathname.replace(/\/$/, '');
  const u = new URL(ex.request.url);
  return (
    ex.request.method === 'POST' &&
    [cfg.auth.tokenUrl, cfg.tokenUrl].some((t) => new URL(t).origin === u.origin && path(t) === path(u.href))
  );
}

function carriesToken(ex: Exchange): boolean {
  if (ex.status < 200 || ex.status >= 300 || !isObject(ex.body)) return false;
  const body = ex.body;
  return ['access_token', 'refresh_token', 'id_token'].some((k) => typeof body[k] === 'string' && body[k] !== '');
}
