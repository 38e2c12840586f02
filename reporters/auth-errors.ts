// §7.3 "most of these [error objects] carry an error code and an error description", judged
// once over every authentication-API error the run met (the tests record each as an
// `auth-error` annotation, lib/auth-errors.ts). The verdict is one check on
// auth.error.code-and-description, carried by a run-level outcome: a majority must carry
// both; the members of each are listed. The same records show "an error object on every
// 4xx" over the whole run (auth.error.object). Pure: no Playwright, no file system.
import type { AuthErrorRecord, CatalogueEntry, CheckRecord, TestOutcome } from './model.ts';

export const CODE_AND_DESCRIPTION = 'auth.error.code-and-description';
const ERROR_OBJECT = 'auth.error.object';
const RUN_LEVEL_FILE = '(run)';

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
          : `${bare.length} of ${clientFaults.length} authentication-API 4xx answers carried no error object: ${[...new Set(bare.map((e) => `${e.status} ${e.at}`))].slice(0, 5).join('; ')}`,
    });
  }
  if (!must(CODE_AND_DESCRIPTION)) return runLevel(checks);
  const both = seen.filter((e) => e.code !== null && e.description).length;
  const ok = both * 2 > seen.length;
  const kinds = new Map<string, number>();
  for (const e of seen) {
    const key = `${e.status} ${e.object ? `{${e.members.join(',')}}` : 'no object'}`;
    kinds.set(key, (kinds.get(key) ?? 0) + 1);
  }
  const detail = [...kinds]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([k, n]) => `${n}× ${k}`)
    .join('; ');
  checks.push({
    clause: CODE_AND_DESCRIPTION,
    outcome: ok ? 'passed' : 'failed',
    message: `${both} of ${seen.length} authentication-API errors carry an error code and an error description (${ok ? 'a majority' : 'not a majority'}): ${detail}`,
  });
  return runLevel(checks);
}

function runLevel(checks: CheckRecord[]): TestOutcome | null {
  if (checks.length === 0) return null;
  return {
    title: '§7.3 error objects over the whole run',
    file: RUN_LEVEL_FILE,
    status: 'passed',
    clauses: [...new Set(checks.map((c) => c.clause))],
    checks,
  };
}
