// Every spec judges through the named conditions and the gate (issues 39 and 46): a judgement is a
// condition of lib/ run by the gate (lib/condition.ts, lib/twin-gate.ts), a refusal goes through
// the gate beside its twin, and what an answer was is read from its class (lib/answer-class.ts):
// no spec calls a check of its own, writes a condition inline, or compares a status by hand.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What a spec may not do itself. */
const OUTSIDE_THE_CONDITIONS: ReadonlyArray<[RegExp, string]> = [
  [/\bcheck\.\w+\s*\(/, 'a check of its own (a named condition judges, through gate.call)'],
  [/\bcondition\s*[<(]/, 'a condition written inline (conditions live in lib/)'],
  [/\bclauses:\s*\[/, 'a condition-shaped object written inline'],
  [/\bclassify\s*\(/, 'an answer classified again (it was read once, when received: ex.answer)'],
  [
    /\.(status|loginStatus)\s*(===?|!==?|[<>]=?)|(===?|!==?|[<>]=?)\s*[\w.!]*\.status\b/,
    'a status compared by hand (the class, or a condition of lib/, decides)',
  ],
];

test('no spec judges outside the named conditions and the gate', () => {
  const found = new Set<string>();
  for (const file of files('specs')) {
    for (const line of readFileSync(join(ROOT, file), 'utf8').split('\n'))
      for (const [re, what] of OUTSIDE_THE_CONDITIONS) if (re.test(line)) found.add(`${file}: ${what}`);
  }
  expect([...found]).toEqual([]);
  // And the gate is what they use.
  const unjudged = files('specs').filter((f) => {
    const text = readFileSync(join(ROOT, f), 'utf8');
    return /\btest\(/.test(text) && !/\bgate\.\w+\(|refusedBesideTwin\(|runRows\(/.test(text);
  });
  expect(unjudged).toEqual([]);
});

test('the structure check can fail: a check of its own, or a status compared, is found', () => {
  for (const line of [
    "      check.that('rs.update.applied', ok, 'sent values come back', ex);",
    '      if (ex.status === 201) await applied(gate, body, ex);',
    '      while (last.status !== 429) last = await login();',
    '      if (429 === res.status) return;',
  ])
    expect(
      OUTSIDE_THE_CONDITIONS.some(([re]) => re.test(line)),
      line,
    ).toBe(true);
  expect(OUTSIDE_THE_CONDITIONS.some(([re]) => re.test('      `answered ${ex.status}`,'))).toBe(false);
});

test('every condition of lib/ records through the verdict bound to its clauses, never through a check', () => {
  const mixed = files('lib').filter((f) =>
    conditionsIn(readFileSync(join(ROOT, f), 'utf8')).some((c) => /\bcheck\.\w+\s*\(/.test(c)),
  );
  expect(mixed).toEqual([]);
  expect(conditionsIn("condition({ clauses: ['a'], judge: (check, x) => check.that('a', x, 'm') })")).toHaveLength(1);
});

// Helpers

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const p = join(ROOT, dir, name);
    if (statSync(p).isDirectory()) return files(relative(ROOT, p));
    return p.endsWith('.ts') ? [relative(ROOT, p)] : [];
  });
}

/** The object literals handed to `condition(…)` in a module's text. */
function conditionsIn(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/\bcondition(<[^(]*?>)?\(\{/g)) {
    let depth = 0;
    let end = m.index + m[0].length - 1;
    for (; end < text.length; end++) {
      if (text[end] === '{') depth++;
      else if (text[end] === '}' && --depth === 0) break;
    }
    found.push(text.slice(m.index, end + 1));
  }
  return found;
}
