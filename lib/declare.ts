// How a test declares what it checks: Playwright tags (@<clause id>) and `clause`
// annotations, plus the operation it exercises (Allure feature). Unknown ids throw at
// collection time, so a typo cannot silently report nothing.
import { type TestDetails, type TestInfo, test } from '@playwright/test';
import { CLAUSE_TAG_PATTERN } from '../contract/grammar.ts';
import { assertKnownClause } from './catalogue.ts';
import { encodeSkip, type SkipRecord } from './skip-record.ts';

export const OPERATIONS = {
  update: 'Update a resource server',
  settings: 'Resource-server settings in effect',
  experiment: 'Create an experiment',
  token: 'Client-credentials token',
  rateLimit: 'Rate limiting',
  authRateLimit: 'Authentication API rate limiting',
  authMethod: 'Authentication methods',
  authApi: 'Authentication API conventions',
  authFlow: 'Authentication flows',
} as const;
export type Operation = (typeof OPERATIONS)[keyof typeof OPERATIONS];

/** The operations of the Management API: their tests are skipped when only the authentication API is under test (IDM_APIS). */
export const MANAGEMENT_OPERATIONS: ReadonlySet<string> = new Set<Operation>([
  OPERATIONS.update,
  OPERATIONS.settings,
  OPERATIONS.experiment,
  OPERATIONS.token,
  OPERATIONS.rateLimit,
]);

export function clauses(operation: Operation, ...ids: string[]): TestDetails {
  const unique = [...new Set(ids)];
  for (const id of unique) assertKnownClause(id);
  const tag = unique.map((id) => `@${id}`);
  // The reporter reads clauses back from these tags with the same pattern.
  for (const t of tag)
    if (!CLAUSE_TAG_PATTERN.test(t)) throw new Error(`clause tag ${t} does not match the catalogue grammar`);
  return {
    tag,
    annotation: [
      { type: 'operation', description: operation },
      ...unique.map((id) => ({ type: 'clause', description: id })),
    ],
  };
}

/**
 * Marks clauses of a test that goes on as skipped (read by the conformance reporter), each
 * annotation carrying the record itself (lib/skip-record.ts): a refusal whose accepted twin in
 * the same test failed, a flow not offered, a setting that leaves part of a test's cases unsent.
 */
export function skipClauses(info: TestInfo, record: SkipRecord, ...clauseIds: string[]): void {
  for (const clause of clauseIds)
    info.annotations.push({ type: 'clause-skip', description: JSON.stringify({ clause, skip: record }) });
}

/**
 * Skips the running test when a record is given (or several: a test that went on and could not
 * judge some parts for different reasons); each `skip` annotation carries its record as JSON.
 */
export function skipTest(
  record: SkipRecord | readonly SkipRecord[] | null | false | undefined,
  info: TestInfo = test.info(),
): void {
  if (!record) return;
  const all = 'by' in record ? [record] : record;
  const last = all.at(-1);
  if (last === undefined) return;
  for (const r of all.slice(0, -1)) info.annotations.push({ type: 'skip', description: encodeSkip(r) });
  info.skip(true, encodeSkip(last));
}
