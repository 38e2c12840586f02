// §7.3 "most of these [error objects] carry an error code and an error description", judged
// once over every authentication-API error the run met (the tests record each as an
// `auth-error` annotation, lib/auth-errors.ts). The verdict is one check on
// auth.error.code-and-description, carried by a run-level outcome: a majority must carry
// both; the members of each are listed. Pure: no Playwright, no file system.
import type { AuthErrorRecord, CatalogueEntry, TestOutcome } from './model.ts';

export const CODE_AND_DESCRIPTION = 'auth.error.code-and-description';
export const RUN_LEVEL_FILE = '(run)';

export function parseAuthError(description: string): AuthErrorRecord | null {
  try {
    const r = JSON.parse(description) as Partial<AuthErrorRecord>;
    if (typeof r.at !== 'string' || typeof r.status !== 'number' || !Array.isArray(r.members)) return null;
    return { at: r.at, status: r.status, object: r.object === true, members: r.members.map(String), code: typeof r.code === 'string' ? r.code : null, description: r.description === true };
  } catch {
    return null;
  }
}

/** The run-level outcome judging the majority, or null when the clause is unknown or no error was met. */
export function judgeAuthErrors(tests: readonly TestOutcome[], catalogue: readonly CatalogueEntry[]): TestOutcome | null {
  if (!catalogue.some((c) => c.id === CODE_AND_DESCRIPTION && c.kind === 'must')) return null;
  const seen = tests.flatMap((t) => t.authErrors ?? []);
  if (seen.length === 0) return null;
  const both = seen.filter((e) => e.code !== null && e.description).length;
  const ok = both * 2 > seen.length;
  const kinds = new Map<string, number>();
  for (const e of seen) {
    const key = `${e.status} ${e.object ? `{${e.members.join(',')}}` : 'no object'}`;
    kinds.set(key, (kinds.get(key) ?? 0) + 1);
  }
  const detail = [...kinds].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([k, n]) => `${n}× ${k}`).join('; ');
  return {
    title: '§7.3 error objects over the whole run',
    file: RUN_LEVEL_FILE,
    status: 'passed',
    clauses: [CODE_AND_DESCRIPTION],
    checks: [{
      clause: CODE_AND_DESCRIPTION,
      outcome: ok ? 'passed' : 'failed',
      message: `${both} of ${seen.length} authentication-API errors carry an error code and an error description (${ok ? 'a majority' : 'not a majority'}): ${detail}`,
    }],
  };
}
