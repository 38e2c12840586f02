// When the suite takes the allocation-strategy field's name as confirmed (lib/strategy.ts):
// only an accepted creation whose answer carries the configured field with a value of the
// §2.4 enum confirms it; everything else leaves the enum unasserted, with a reason that
// names what was seen and the setting to change.
import { test, expect } from '@playwright/test';
import type { Exchange } from '../lib/http.ts';
import { received } from '../lib/answer-class.ts';
import { isOutsider, notAssertedSkip, strategyConfirmation } from '../lib/strategy.ts';

const FIELD = 'allocation_strategy';
const EXPERIMENT = {
  id: 'exp_7Hq2kPzR',
  name: 'x',
  is_valid: true,
  created_at: '2026-11-22T03:00:00Z',
  updated_at: '2026-11-22T03:00:00Z',
};

function answer(status: number, body: unknown): Exchange {
  return received({
    request: {
      method: 'POST',
      url: 'http://127.0.0.1:4810/api/v2/experimentation/experiments',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      data: {},
    },
    status,
    headers: { 'content-type': 'application/json' },
    text: JSON.stringify(body),
    body,
  });
}

test('an accepted creation carrying the field with percentage or segment confirms the name', () => {
  for (const [status, value] of [
    [201, 'percentage'],
    [200, 'segment'],
  ] as const) {
    const c = strategyConfirmation(answer(status, { ...EXPERIMENT, [FIELD]: value }), FIELD);
    expect(c).toMatchObject({ confirmed: true, value });
  }
  expect(
    strategyConfirmation(answer(201, { ...EXPERIMENT, traffic_strategy: 'segment' }), 'traffic_strategy').confirmed,
  ).toBe(true);
});

const NOT_CONFIRMED: Array<{ title: string; ex: Exchange; says: RegExp }> = [
  {
    title: 'the field is absent from the answer',
    ex: answer(201, EXPERIMENT),
    says: /does not carry it \(it carries created_at, id, is_valid, name, updated_at\)/,
  },
  {
    title: 'another field carries the strategy',
    ex: answer(201, { ...EXPERIMENT, traffic_strategy: 'percentage' }),
    says: /does not carry it/,
  },
  {
    title: 'the field carries a value outside the enum',
    ex: answer(201, { ...EXPERIMENT, [FIELD]: 'weighted' }),
    says: /as "weighted", not a value of the enum/,
  },
  { title: 'the field carries null', ex: answer(201, { ...EXPERIMENT, [FIELD]: null }), says: /as null/ },
  {
    title: 'the valid creation was refused',
    ex: answer(400, { statusCode: 400, message: `${FIELD}: Additional properties not allowed` }),
    says: /answered 400/,
  },
  { title: 'the answer is not an object', ex: answer(201, [EXPERIMENT]), says: /not a JSON object/ },
];
for (const c of NOT_CONFIRMED) {
  test(`not confirmed when ${c.title}; the reason says so and names IDM_STRATEGY_FIELD`, () => {
    const got = strategyConfirmation(c.ex, FIELD);
    expect(got.confirmed).toBe(false);
    expect(got.message).toMatch(c.says);
    const { text: reason, by, cause } = notAssertedSkip(got);
    expect({ by, cause }).toEqual({ by: 'run', cause: { setting: 'IDM_STRATEGY_FIELD' } });
    expect(reason).toMatch(
      /^exp\.create\.strategy\.enum not asserted: strategy field "allocation_strategy" not confirmed/,
    );
    expect(reason).toContain('IDM_STRATEGY_FIELD');
  });
}

test('outsiders are every value but the two enum members, compared exactly', () => {
  expect(['percentage', 'segment'].filter(isOutsider)).toEqual([]);
  expect(
    ['Percentage', 'SEGMENT', ' percentage', '', 'random', 1, null, true, ['segment'], { segment: 1 }].every(
      isOutsider,
    ),
  ).toBe(true);
});
