// The dependency direction (docs/ARCHITECTURE.md): the reference tenant imports nothing from
// the suite, and the suite reaches the tenant only through its public entry,
// reference/src/index.ts (the mutation harness; nothing else imports it at all).
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const IMPORT = /^\s*(?:import|export)\b[^'"]*?from\s+['"](\.{1,2}\/[^'"]+)['"]/gm;

test('reference/ imports nothing from outside it', () => {
  const out = imports('reference').filter(({ target }) => !target.startsWith('reference/'));
  expect(out.map((i) => `${i.file} → ${i.target}`)).toEqual([]);
});

test('the suite reaches the reference tenant only through reference/src/index.ts, from mutation/', () => {
  const dirs = readdirSync(ROOT).filter(
    (d) => d !== 'reference' && d !== 'node_modules' && !d.startsWith('.') && statSync(join(ROOT, d)).isDirectory(),
  );
  const into = dirs.flatMap(imports).filter(({ target }) => target.startsWith('reference/'));
  expect(
    into
      .filter((i) => i.target !== 'reference/src/index.ts' || !i.file.startsWith('mutation/'))
      .map((i) => `${i.file} → ${i.target}`),
  ).toEqual([]);
  expect(into.length, 'the harness imports the tenant').toBeGreaterThan(0);
});

// Helpers

function imports(dir: string): Array<{ file: string; target: string }> {
  const abs = join(ROOT, dir);
  return readdirSync(abs).flatMap((name) => {
    const p = join(abs, name);
    if (statSync(p).isDirectory()) return imports(relative(ROOT, p));
    if (!p.endsWith('.ts')) return [];
    const src = readFileSync(p, 'utf8');
    return [...src.matchAll(IMPORT)].map((m) => ({
      file: relative(ROOT, p),
      target: relative(ROOT, resolve(dirname(p), m[1] ?? '')),
    }));
  });
}
