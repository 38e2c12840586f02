// No function and no test body in lib/ or specs/ is over 80 lines (issue 46): a long procedure is
// rows of data and short steps, each named for what it does. Measured on the TypeScript syntax tree,
// from the line a function starts on to the line it ends on.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { expect, test } from '@playwright/test';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const MAX_LINES = 80;

test(`no function or test body in lib/ or specs/ is over ${MAX_LINES} lines`, () => {
  const long = [...files('lib'), ...files('specs')].flatMap((f) => longFunctions(f));
  expect(long).toEqual([]);
});

test('the measure can fail: a function of 81 lines is found', () => {
  const body = Array.from({ length: 79 }, (_, i) => `  const a${i} = ${i};`).join('\n');
  expect(longFunctions('x.ts', `export function f() {\n${body}\n}\n`)).toEqual(['x.ts:1 (81 lines)']);
});

// Helpers

/** Every function, arrow or method over the bound: `file:line (n lines)`. */
function longFunctions(file: string, text = readFileSync(join(ROOT, file), 'utf8')): string[] {
  const src = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (n: ts.Node): void => {
    if (ts.isFunctionLike(n) && 'body' in n && n.body) {
      const from = src.getLineAndCharacterOfPosition(n.getStart()).line + 1;
      const lines = src.getLineAndCharacterOfPosition(n.getEnd()).line + 2 - from;
      if (lines > MAX_LINES) found.push(`${file}:${from} (${lines} lines)`);
    }
    ts.forEachChild(n, visit);
  };
  visit(src);
  return found;
}

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const p = join(ROOT, dir, name);
    if (statSync(p).isDirectory()) return files(relative(ROOT, p));
    return p.endsWith('.ts') ? [relative(ROOT, p)] : [];
  });
}
