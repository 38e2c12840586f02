// The management specs' structure holds what it promises (issue 39): every judgement goes through a
// named condition run by the gate (lib/condition.ts, lib/twin-gate.ts), every refusal through the
// gate beside its twin; no spec outside specs/authentication/ calls a check of its own, writes a
// condition inline, or compares a status by hand where the classification decides.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** What a management spec may not do itself. */
const OUTSIDE_THE_CONDITIONS: ReadonlyArray<[RegExp, string]> = [
  [/\bcheck\.(that|observe|expect\w*)\s*\(/, 'a check of its own (a named condition judges, through gate.call)'],
  [/\bcondition\s*[<(]/, 'a condition written inline (conditions live in lib/)'],
  [/\bclauses:\s*\[/, 'a condition-shaped object written inline'],
  [/\bex\.status\s*[<>]=?\s*[2-5]00\b/, 'a status range compared by hand (lib/answer-class.ts classifies)'],
];

test('no management spec judges outside the named conditions and the gate', () => {
  const found: string[] = [];
  for (const file of managementSpecs()) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const [re, what] of OUTSIDE_THE_CONDITIONS) if (re.test(line)) found.push(`${file}:${i + 1}: ${what}`);
    });
  }
  expect(found).toEqual([]);
  // And the gate is what they use (the settings rows through their driver, lib/api-tokens/rows.ts).
  const unjudged = managementSpecs().filter(
    (f) =>
      !/\bgate\.(call|refusedWith|holds|faultedFor)\(|refusedBesideTwin\(|runRows\(|import '/.test(
        readFileSync(join(ROOT, f), 'utf8'),
      ),
  );
  expect(unjudged).toEqual([]);
});

test('the structure check can fail: a line with a check of its own is found', () => {
  const line = "      check.that('rs.update.applied', ok, 'sent values come back', ex);";
  expect(OUTSIDE_THE_CONDITIONS.some(([re]) => re.test(line))).toBe(true);
});

// Helpers

/** Every spec module outside specs/authentication/. */
function managementSpecs(): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(join(ROOT, dir))) {
      const path = join(dir, name);
      if (statSync(join(ROOT, path)).isDirectory()) {
        if (path !== join('specs', 'authentication')) walk(path);
      } else if (name.endsWith('.ts')) out.push(relative(ROOT, join(ROOT, path)));
    }
  };
  walk('specs');
  return out.sort();
}
