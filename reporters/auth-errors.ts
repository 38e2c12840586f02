// §7.3 "most of these [error objects] carry an error code and an error description", judged once
// over every authentication-API error the run met (each recorded as an `auth-error` annotation,
// lib/auth/error-records.ts), by kinds of error — an endpoint and an error code — not by answers,
// so that one error met many times (a lockout) does not outvote the rest. The same records show
// "an error object on every 4xx" over the whole run (auth.error.object). Pure.
import type { AuthErrorRecord, CatalogueEntry, CheckRecord, TestOutcome } from './model.ts';
import { clauseSkip, type SkipRecord } from '../lib/skip-record.ts';

export const CODE_AND_DESCRIPTION = 'auth.error.code-and-description';
const ERROR_OBJECT = 'auth.error.object';
const RUN_LEVEL_FILE = '(run)';
/** The clauses judged here, once over the run rather than in a test. */
export const RUN_LEVEL_CLAUSES: readonly string[] = [ERROR_OBJECT, CODE_AND_DESCRIPTION];

export function parseAuthError(description: string): AuthErrorRecord | null {
  try {
    const r = JSON.parse(description) as Partial<AuthErrorRecord>;
    if (typeof r.at !== 'string' || typeof r.status !== 'number' || !Array.isArray(r.members)) return null;
    return {
      at: r.at,
      status: r.status,
      object: r.object === true,
      members: r.members.map(String),
      code: typeof r.code === 'string' ? r.code : null,
      description: r.description === true,
      type: typeof r.type === 'string' ? r.type : null,
    };
  } catch {
    return null;
  }
}

/**
 * The run-level outcome: the majority judged on auth.error.code-and-description and, on
 * auth.error.object, that every 4xx met carried an error object. Null when neither clause is
 * a must of the catalogue or no error was met.
 */
export function judgeAuthErrors(
  tests: readonly TestOutcome[],
  catalogue: readonly CatalogueEntry[],
): TestOutcome | null {
  const must = (id: string) => catalogue.some((c) => c.id === id && c.kind === 'must');
  const seen = tests.flatMap((t) => t.authErrors ?? []);
  if (seen.length === 0 || (!must(CODE_AND_DESCRIPTION) && !must(ERROR_OBJECT))) return null;
  const checks: CheckRecord[] = [];
  const clientFaults = seen.filter((e) => e.status >= 400 && e.status < 500);
  if (must(ERROR_OBJECT) && clientFaults.length > 0) {
    const bare = clientFaults.filter((e) => !e.object);
    checks.push({
      clause: ERROR_OBJECT,
      outcome: bare.length === 0 ? 'passed' : 'failed',
      message:
        bare.length === 0
          ? `all ${clientFaults.length} authentication-API 4xx answers of the run carried an error object`
          : `${bare.length} of ${clientFaults.length} authentication-API 4xx answers carried no error object: ${[...new Set(bare.map((e) => `${e.status} ${e.at} (${e.type ?? 'no Content-Type'})`))].slice(0, 5).join('; ')}`,
    });
  }
  if (!must(CODE_AND_DESCRIPTION)) return runLevel(checks);
  // "Most of these [error objects]": an answer with no object at all is auth.error.object's
  // failure alone (one cause, one failure), never counted again as lacking a code and description.
  const objects = seen.filter((e) => e.object);
  const bare4xx = clientFaults.some((e) => !e.object) && must(ERROR_OBJECT);
  if (objects.length === 0 && bare4xx)
    return runLevel(checks, {
      [CODE_AND_DESCRIPTION]: clauseSkip(
        ERROR_OBJECT,
        `not judged: none of the ${seen.length} authentication-API errors of the run carried an error object (${ERROR_OBJECT})`,
      ),
    });
  const judged = objects.length > 0 ? objects : seen;
  // A kind carries both when every answer of it does.
  const kinds = new Map<string, { answers: number; both: boolean }>();
  for (const e of judged) {
    const key = `${e.at} ${e.code ?? '(no error code)'}`;
    const k = kinds.get(key) ?? { answers: 0, both: true };
    kinds.set(key, { answers: k.answers + 1, both: k.both && e.code !== null && e.description });
  }
  const both = [...kinds.values()].filter((k) => k.both).length;
  const ok = both * 2 > kinds.size;
  const detail = [...kinds]
    .sort((a, b) => b[1].answers - a[1].answers)
    .slice(0, 8)
    .map(([key, k]) => `${key} ${k.both ? 'with' : 'without'} both (${k.answers}×)`)
    .join('; ');
  const apart =
    judged.length < seen.length
      ? ` (${seen.length - judged.length} without an error object left to ${ERROR_OBJECT})`
      : '';
  checks.push({
    clause: CODE_AND_DESCRIPTION,
    outcome: ok ? 'passed' : 'failed',
    message: `${both} of ${kinds.size} kinds of authentication-API error (endpoint × error code, over ${judged.length} error objects) carry an error code and an error description (${ok ? 'a majority' : 'not a majority'})${apart}: ${detail}`,
  });
  return runLevel(checks);
}

function runLevel(checks: CheckRecord[], clauseSkips: Record<string, SkipRecord> = {}): TestOutcome | null {
  if (checks.length === 0 && Object.keys(clauseSkips).length === 0) return null;
  return {
    title: '§7.3 error objects over the whole run',
    file: RUN_LEVEL_FILE,
    status: 'passed',
    clauses: [...new Set([...checks.map((c) => c.clause), ...Object.keys(clauseSkips)])],
    checks,
    ...(Object.keys(clauseSkips).length > 0 ? { clauseSkips } : {}),
  };
}
