// The resource-server chain (specs/0-long-pole/resource-server.spec.ts) lists its modules by hand,
// in order: Playwright runs only what a spec file imports statically, and the order is the
// chain's (specs/README.md). What the list cannot do is forget one: every module of the folders
// it imports from is reached from it, no import names a module that is not there, the update's
// own tests come before the rows that read what they wrote, and no other spec file runs a module
// of the chain (its tests would leave the chain's worker). The folders are the chain's own
// imports, so a new module or folder needs no entry here, only its line in the chain.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CHAIN = 'specs/0-long-pole/resource-server.spec.ts';
/** The update's own tests: first in the chain, before the rows that read the settings they wrote. */
const FIRST_FOLDER = 'specs/resource-server';

test('the chain reaches every module of its folders, in order, and nothing else runs them', () => {
  expect(chainFaults(read)).toEqual([]);
});

test('the chain check can fail: a forgotten module, a missing one, the order, a second importer', () => {
  const chain = read(CHAIN);
  const [first, ...rest] = importsOf(chain).map((i) => join('specs/0-long-pole', i));
  const forgotten = rest.at(-1) as string;
  const without = (f: string) =>
    f === CHAIN ? chain.replace(`'${relative('specs/0-long-pole', forgotten)}'`, "''") : read(f);
  expect(chainFaults(without)).toContain(`${forgotten}: a module of the chain's folders the chain does not reach`);
  const missing = (f: string) => (f === CHAIN ? `${chain}\nimport '../settings/no-such-module.ts';\n` : read(f));
  expect(chainFaults(missing)).toContain(`${CHAIN} imports specs/settings/no-such-module.ts, which does not exist`);
  const reversed = (f: string) =>
    f === CHAIN
      ? `import '../${relative('specs', forgotten)}';\nimport '../${relative('specs', first as string)}';\n`
      : read(f);
  expect(chainFaults(reversed).some((m) => m.includes('comes before'))).toBe(true);
  const other = 'specs/0-smoke.spec.ts';
  const twice = (f: string) => (f === other ? `import './${relative('specs', forgotten)}';\n${read(f)}` : read(f));
  expect(chainFaults(twice)).toContain(`${other} imports ${forgotten}, a module of the chain: only the chain runs it`);
});

// Helpers

/** What is wrong with the chain, one line each, reading every file through `source`. */
function chainFaults(source: (file: string) => string): string[] {
  const faults: string[] = [];
  const direct = importsOf(source(CHAIN)).map((i) => normalize(join(dirname(CHAIN), i)));
  for (const m of direct) if (!existsSync(join(ROOT, m))) faults.push(`${CHAIN} imports ${m}, which does not exist`);
  const folders = [...new Set(direct.map((m) => dirname(m)))];
  const modules = folders.flatMap(tsFilesUnder);
  const reached = new Set<string>();
  const visit = (file: string): void => {
    for (const i of importsOf(source(file))) {
      const m = normalize(join(dirname(file), i));
      if (reached.has(m) || !modules.includes(m)) continue;
      reached.add(m);
      visit(m);
    }
  };
  visit(CHAIN);
  for (const m of modules)
    if (!reached.has(m)) faults.push(`${m}: a module of the chain's folders the chain does not reach`);
  const lastFirst = direct.findLastIndex((m) => dirname(m) === FIRST_FOLDER);
  const early = direct.findIndex((m) => dirname(m) !== FIRST_FOLDER);
  if (early >= 0 && early < lastFirst)
    faults.push(`${direct[early]} comes before ${direct[lastFirst]}: ${FIRST_FOLDER}/ runs first in the chain`);
  for (const spec of tsFilesUnder('specs').filter((f) => f !== CHAIN && !modules.includes(f)))
    for (const i of importsOf(source(spec))) {
      const m = normalize(join(dirname(spec), i));
      if (modules.includes(m)) faults.push(`${spec} imports ${m}, a module of the chain: only the chain runs it`);
    }
  return faults;
}

/** The relative modules a file imports or re-exports (statically: what Playwright loads). */
function importsOf(text: string): string[] {
  return [...text.matchAll(/^\s*(?:import|export)\s+(?:[^'";]*?\s+from\s+)?'(\.{1,2}\/[^']+)'/gm)].map(
    (m) => m[1] as string,
  );
}

function read(file: string): string {
  return readFileSync(join(ROOT, file), 'utf8');
}

/** `.ts` files under a folder, relative to the repository root. */
function tsFilesUnder(dir: string): string[] {
  if (!existsSync(join(ROOT, dir))) return [];
  return readdirSync(join(ROOT, dir)).flatMap((name) => {
    const p = join(dir, name);
    return statSync(join(ROOT, p)).isDirectory() ? tsFilesUnder(p) : p.endsWith('.ts') ? [p] : [];
  });
}
