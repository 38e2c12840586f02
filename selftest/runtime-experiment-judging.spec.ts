// What the experiment judging decides, read from its records (check and clause-skip annotations),
// and the words it says, built from the data (issue 41): a wrong creation answered 409 is a
// conflict, never the refusal; a refusal counts beside its twin; an answer without a body or with
// a value other than the one sent is said as it is. The texts are free to change: these tests read
// the records for every decision, and hold the words only to the data they must not contradict.
import { expect, test, type TestInfo } from '@playwright/test';
import { Checks, type CheckRecord } from '../lib/checks.ts';
import { createRedactor } from '../lib/redact.ts';
import { TwinGate } from '../lib/twin-gate.ts';
import type { Exchange } from '../lib/http.ts';
import { received } from '../lib/answer-class.ts';
import { refusedBesideTwin } from '../lib/management/experiment-refusals.ts';
import { judgeCreated } from '../lib/management/experiment-answer.ts';
import { recorded } from '../lib/management/recorded.ts';
import { burstUnbreached, type BurstResult } from '../lib/burst.ts';
import { cleanupLine, cleanupReport, type Cleanup } from '../lib/experiment-cleanup.ts';
import { decodeSkip } from '../lib/skip-record.ts';

const API = 'http://127.0.0.1:4810/api/v2';

test('a wrong creation answered 409 is a conflict: its clause is skipped for the run, never passed, and no twin is sent', async ({}, info) => {
  const gate = gateOf(info);
  let twins = 0;
  const judged = await refusedBesideTwin(gate, info, {
    clause: 'exp.create.allocation.types',
    what: 'POST an experiment with allocation weights 50.5 and 49.5',
    statusClause: 'exp.create.rejected.status',
    name: 'idmc-x.000001 experiment',
    wrong: async () => answer(409, { error: 'conflict', message: 'An experiment with this name already exists' }),
    right: async () => {
      twins++;
      return answer(201, { id: 'exp_1' });
    },
  });
  expect(judged).toBe(false);
  expect(twins).toBe(0);
  expect(checksOf(info).filter((c) => c.clause === 'exp.create.allocation.types')).toEqual([]);
  const skip = clauseSkips(info)['exp.create.allocation.types'];
  expect(skip).toMatchObject({ by: 'run', cause: { answer: 'refused' } });
  expect(checksOf(info).find((c) => c.clause === 'exp.create.rejected.status')?.outcome).toBe('observed');
});

test('a wrong creation refused with a 4xx passes beside its twin accepted under the same name', async ({}, info) => {
  const gate = gateOf(info);
  const names: string[] = [];
  const body = (name: string) => ({ name });
  const judged = await refusedBesideTwin(gate, info, {
    clause: 'exp.create.allocation.types',
    what: 'POST an experiment with allocation weights 50.5 and 49.5',
    statusClause: 'exp.create.rejected.status',
    name: 'idmc-x.000002 experiment',
    wrong: async () => {
      names.push(body('idmc-x.000002 experiment').name);
      return answer(400, undefined, '');
    },
    right: async () => {
      names.push(body('idmc-x.000002 experiment').name);
      return answer(201, { id: 'exp_2' });
    },
  });
  expect(judged).toBe(true);
  expect(new Set(names).size, 'the twin carries the wrong creation’s name').toBe(1);
  expect(checksOf(info).find((c) => c.clause === 'exp.create.allocation.types')?.outcome).toBe('passed');
  expect(checksOf(info).find((c) => c.clause === 'exp.create.accepted')?.outcome).toBe('passed');
  // A bodiless answer is said as one: no "undefined".
  const said = checksOf(info).find((c) => c.clause === 'exp.create.rejected.status')!.message;
  expect(said).not.toContain('undefined');
  expect(said).toContain('400');
});

test('an answer without a JSON body is said by its content type, never as "undefined"', async ({}, info) => {
  const gate = gateOf(info);
  const ex = answer(400, undefined, '<html>Bad request</html>', 'text/html; charset=utf-8');
  await gate.call(recorded('exp.create.assignment_config.subject.values'), ex, { what: 'subject "user"', ex });
  const said = checksOf(info)[0]!.message;
  expect(said).toContain('text/html');
  expect(said).not.toContain('undefined');
});

test('the strategy attribute: a value other than the one sent is never said to be confirmed as sent', async ({}, info) => {
  const gate = gateOf(info);
  const sent = {
    name: 'idmc-x.000003 experiment',
    feature_flag_id: 'flg_7Hq2kPzR',
    allocations: [{ variation_id: 'var_control', weight: 100, is_control: true }],
    allocation_strategy: 'percentage',
  };
  const ex = answer(201, {
    ...sent,
    id: 'exp_3',
    allocation_strategy: 'segment',
    status: 'draft',
    is_valid: true,
    created_at: '2026-11-28T00:00:00Z',
    updated_at: '2026-11-28T00:00:00Z',
  });
  await judgeCreated(gate, { what: 'create', ex, sent, strategyField: 'allocation_strategy' });
  const said = checksOf(info).find((c) => c.clause === 'exp.create.strategy.name')!.message;
  expect(said).toContain('"segment"');
  expect(said).toContain('"percentage"');
  expect(said).not.toMatch(/confirmed|, as sent/);
});

test('a burst without a 429 says what its answers reported, never "?"', () => {
  const r = (remaining: Array<number | null>): BurstResult => ({
    method: 'PATCH',
    url: `${API}/resource-servers/rs_conformance`,
    sent: remaining.length,
    statuses: remaining.map(() => 200),
    remaining,
    zeroRemainingAnswers: 0,
    first: null,
    lastBefore429: null,
    first429: null,
    elapsedMs: 10,
    endedBy: 'requests',
    unanswered: null,
    max: remaining.length,
    inFlight: 4,
  });
  const none = burstUnbreached(r([null, null]), 'updates');
  expect(none).toMatchObject({ by: 'tenant', cause: { answer: 'accepted' } });
  expect(none.text).not.toContain('?');
  expect(burstUnbreached(r([30, 12, 17]), 'updates').text).toContain('12');
});

test('what became of the experiments: said once for a tenant without DELETE, each one left in the data', () => {
  const left = Array.from({ length: 40 }, (_, i) => ({
    id: `exp_${i}`,
    name: `idmc-x.${i} experiment`,
    runTag: 'idmc-x',
    retry: false,
    why: 'DELETE /experimentation/experiments/{id} answered 405',
  }));
  const c: Cleanup = {
    runTags: ['idmc-x'],
    listed: 40,
    deleted: 0,
    left,
    inFlight: [{ name: 'idmc-x.99 experiment', runTag: 'idmc-x' }],
    notOffered: 'DELETE /experimentation/experiments/{id} answered 405',
    requests: 1,
  };
  const line = cleanupLine(c, false);
  expect(line.split('405').length - 1, line).toBe(1);
  expect(line).not.toContain('exp_3');
  expect(line).toContain('idmc-x.99 experiment');
  const report = cleanupReport(c);
  expect(report.left).toHaveLength(41);
  expect(report.left.at(-1)).toMatchObject({ id: '', name: 'idmc-x.99 experiment' });
});

// Helpers

function gateOf(info: TestInfo): TwinGate {
  return new TwinGate(new Checks(info, createRedactor()), info, API);
}

function answer(status: number, body: unknown, text = JSON.stringify(body), type = 'application/json'): Exchange {
  return received({
    request: { method: 'POST', url: `${API}/experimentation/experiments`, headers: {}, body: '{}' },
    status,
    headers: text === '' ? {} : { 'content-type': type },
    text: text ?? '',
    body,
  });
}

function checksOf(info: TestInfo): CheckRecord[] {
  return info.annotations.filter((a) => a.type === 'check').map((a) => JSON.parse(a.description!) as CheckRecord);
}

function clauseSkips(info: TestInfo): Record<string, ReturnType<typeof decodeSkip>> {
  const out: Record<string, ReturnType<typeof decodeSkip>> = {};
  for (const a of info.annotations.filter((x) => x.type === 'clause-skip')) {
    const { clause, skip } = JSON.parse(a.description!) as { clause: string; skip: unknown };
    out[clause] = decodeSkip(JSON.stringify(skip));
  }
  return out;
}
