// How a test declares what it checks: Playwright tags (@<clause id>) and `clause`
// annotations, plus the operation it exercises (Allure feature). Unknown ids throw at
// collection time, so a typo cannot silently report nothing.
import type { TestDetails } from '@playwright/test';
import { CLAUSE_TAG_PATTERN } from '../contract/grammar.ts';
import { assertKnownClause } from './catalogue.ts';

export const OPERATIONS = {
  update: 'Update a resource server',
  experiment: 'Create an experiment',
  token: 'Client-credentials token',
  rateLimit: 'Rate limiting',
  authMethod: 'Authentication methods',
  authApi: 'Authentication API conventions',
  authFlow: 'Authentication flows',
} as const;
export type Operation = (typeof OPERATIONS)[keyof typeof OPERATIONS];

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
