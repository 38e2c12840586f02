// Every catalogue id can be baselined: the known-deviation baseline, the reporter's tag
// reading and lib/declare.ts share the catalogue grammar (contract/grammar.ts), so an id
// the catalogue accepts (underscores included) is one a team can list as a deviation.
import { test, expect } from '@playwright/test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allClauses } from '../contract/clauses.ts';
import { CLAUSE_TAG_PATTERN } from '../contract/grammar.ts';
import { clauses as declare, OPERATIONS } from '../lib/declare.ts';
import { loadBaseline, parseBaseline } from '../reporters/baseline.ts';
import { buildReport } from '../reporters/build-report.ts';
import { loadContractCatalogue } from '../reporters/catalogue.ts';
import type { TestOutcome } from '../reporters/model.ts';

test('every catalogue id is accepted in a baseline entry', () => {
  const doc = allClauses().map((c) => ({ clause: c.id, reason: 'known deviation' }));
  expect(parseBaseline(doc, 'all-ids').map((e) => e.clause)).toEqual(allClauses().map((c) => c.id));
  expect(
    allClauses().some((c) => c.id.includes('_')),
    'the catalogue has ids with underscores',
  ).toBe(true);
});

test('a baselined failing must clause becomes expected-failure, for every must clause', async () => {
  const catalogue = await loadContractCatalogue();
  const musts = catalogue.filter((c) => c.kind === 'must');
  const dir = mkdtempSync(join(tmpdir(), 'idm-baseline-'));
  const path = join(dir, 'known-deviations.json');
  writeFileSync(path, JSON.stringify(musts.map((c) => ({ clause: c.id, reason: `deviates on ${c.id}` }))));
  // One failing test per clause, declared the way specs declare it and read back the way the reporter reads tags.
  const tests: TestOutcome[] = musts.map((c) => {
    const fromTags = (declare(OPERATIONS.update, c.id).tag as string[]).map((t) => CLAUSE_TAG_PATTERN.exec(t)?.[1]);
    expect(fromTags, `tag of ${c.id}`).toEqual([c.id]);
    return {
      title: c.id,
      file: 'specs/x.spec.ts',
      status: 'failed',
      clauses: [c.id],
      checks: [{ clause: c.id, outcome: 'failed', message: 'deviates' }],
    };
  });
  const { report } = buildReport({
    catalogue,
    tests,
    baseline: { path, entries: loadBaseline(path) },
    playwrightStatus: 'failed',
    globalErrors: [],
    otherFailures: [],
    meta: {
      suite: { name: 'idm-conformance', version: '0.0.0' },
      target: 'http://127.0.0.1:4810',
      seed: 1,
      depth: 'quick',
      startedAt: new Date(0),
      endedAt: new Date(1),
    },
  });
  const notExpected = report.clauses
    .filter((c) => c.kind === 'must' && c.status !== 'expected-failure')
    .map((c) => `${c.id}: ${c.status}`);
  expect(notExpected).toEqual([]);
  expect(report.gate.exitCode, report.gate.reasons.join('\n')).toBe(0);
});
