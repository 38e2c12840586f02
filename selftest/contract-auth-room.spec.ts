// The authentication room's structure holds what it promises (issue 25): every refusal under
// specs/authentication/ is judged through the one twin gate (lib/twin-gate.ts), never
// beside it, and what a flow gave is decided as its own clause decides it (issue 30 item 3); the rules about every answer and the rows of the ways to authenticate name
// clauses the catalogue has.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { ANSWER_RULES } from '../lib/answer-rules.ts';
import { AUTH_METHODS, TOKEN_METHODS } from '../lib/auth/methods.ts';
import { clauseEntry } from '../lib/catalogue.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Ways to judge a refusal, or to skip one for its twin, that bypass the gate. */
const OUTSIDE_THE_GATE: ReadonlyArray<[RegExp, string]> = [
  [/\bexpectRejected\s*\(/, 'check.expectRejected (a 4xx judged without its twin)'],
  [/\bnotExercised\s*\(/, 'notExercised (a twin’s failure said by hand)'],
  [/\brequireAccepted\b/, 'requireAccepted'],
  [/\bexpect(Client)?AuthRefusal\b/, 'a refusal API beside the gate'],
  [/\bflows\.refusal\b/, 'flows.refusal'],
  [/not exercised: the accepted case failed/, 'a twin’s failure spelt out by hand'],
  // What a flow gave is decided once, as its own clause decides it (lib/auth/flow-products.ts).
  [/\bgate\.given\([^)]*\bissued\(/, 'a token flow’s outcome decided beside tokenGave'],
  [/\bgate\.given\(\s*'auth\.flow\.(userinfo|revoke|implicit)'/, 'a flow’s outcome decided beside flow-products.ts'],
];

test('no spec under specs/authentication/ judges a refusal outside the twin gate', () => {
  const found: string[] = [];
  for (const file of files('specs/authentication')) {
    const lines = readFileSync(join(ROOT, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      for (const [re, what] of OUTSIDE_THE_GATE) if (re.test(line)) found.push(`${file}:${i + 1}: ${what}`);
    });
  }
  expect(found).toEqual([]);
  // And the gate is what they use.
  const gated = files('specs/authentication').filter((f) =>
    /\bgate\.(refused|holds)\(/.test(readFileSync(join(ROOT, f), 'utf8')),
  );
  expect(gated.length).toBeGreaterThanOrEqual(10);
});

test('every rule about every answer, and every way to authenticate, names must clauses of the catalogue', () => {
  for (const rule of ANSWER_RULES) expect(clauseEntry(rule.condition.clauses[0])?.kind, rule.name).toBe('must');
  for (const m of AUTH_METHODS) expect(clauseEntry(m.clause)?.kind, m.name).toBe('must');
  for (const m of TOKEN_METHODS) {
    for (const id of [m.refusedClause, ...m.faults.map((f) => f.clause ?? m.refusedClause)])
      expect(clauseEntry(id)?.kind, `${m.name}: ${id}`).toBe('must');
    for (const id of m.acceptClauses) expect(clauseEntry(id), `${m.name}: ${id}`).toBeDefined();
    expect(new Set(m.faults.map((f) => f.id)).size, `${m.name}: fault ids are unique`).toBe(m.faults.length);
  }
});

// Helpers

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const p = join(ROOT, dir, name);
    if (statSync(p).isDirectory()) return files(relative(ROOT, p));
    return p.endsWith('.ts') ? [relative(ROOT, p)] : [];
  });
}
