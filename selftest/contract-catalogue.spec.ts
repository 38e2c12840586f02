// The clause catalogue: well-formed, unique, anchored in the spec, honest about
// kinds, and the only source of clause ids used anywhere in the code.
import { test, expect } from '@playwright/test';
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  allClauses,
  clause,
  hasClause,
  specAnchor,
  specSections,
  specText,
  githubAnchor,
  CATALOGUE_PATH,
  CLAUSE_ID_PATTERN,
} from '../contract/clauses.ts';
import { clausesInSchemas } from '../schemas/index.ts';
import { allMutations } from '../generators/index.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

test('catalogue ids are unique and well-formed', () => {
  const raw = JSON.parse(readFileSync(CATALOGUE_PATH, 'utf8')) as Array<{ id: string }>;
  const seen = new Map<string, number>();
  for (const c of raw) seen.set(c.id, (seen.get(c.id) ?? 0) + 1);
  expect(
    [...seen].filter(([, n]) => n > 1).map(([id]) => id),
    'duplicate ids',
  ).toEqual([]);
  expect(
    raw.filter((c) => !CLAUSE_ID_PATTERN.test(c.id)).map((c) => c.id),
    'ids not <area>.<subject>.<rule>',
  ).toEqual([]);
  // The loader validates kind, severity and reason; this throws on the first bad entry.
  expect(allClauses().length).toBe(raw.length);
});

test('the catalogue covers the sections the contract issue names', () => {
  const covered = new Set(allClauses().map((c) => c.section));
  for (const s of ['2.1', '2.2', '2.3', '2.4', '3', '4.1', '4.2', '4.3', '5.1', '5.2', '7.1', '7.2', '7.3', '8', '9']) {
    expect(covered, `no clause quotes section ${s}`).toContain(s);
  }
  expect(allClauses().length).toBeGreaterThanOrEqual(90);
});

test('every section a clause names exists in the spec and resolves to an anchor and text', () => {
  const sections = new Set(specSections());
  for (const c of allClauses()) {
    for (const s of [c.section, ...(c.restated_in ?? [])]) {
      expect(sections, `${c.id}: section ${s}`).toContain(s);
      expect(specAnchor(s)).toMatch(/^spec\.md#[a-z0-9_-]+$/);
      expect(specText(s).length).toBeGreaterThan(20);
    }
  }
});

test('spec anchors follow GitHub heading slugs', () => {
  expect(githubAnchor('2.2 Request body of the update operation (all fields optional; no other fields allowed)')).toBe(
    '22-request-body-of-the-update-operation-all-fields-optional-no-other-fields-allowed',
  );
  expect(specAnchor('8')).toBe('spec.md#8-limits');
  expect(specAnchor('5.2')).toBe('spec.md#52-authentication-api-five-ways-to-authenticate');
  expect(specText('4', { ownOnly: true })).toContain('application/x-www-form-urlencoded');
  expect(specText('4', { ownOnly: true })).not.toContain('### 4.1');
  expect(specText('2')).toContain('### 2.4 Experiment');
});

test('a stale or misspelt id fails loudly', () => {
  expect(() => clause('rs.update.name.max-lenght')).toThrow(/unknown clause id "rs.update.name.max-lenght"/);
  expect(hasClause('rs.update.name.max-length')).toBe(true);
  expect(() => specAnchor('10.1')).toThrow(/no section "10.1"/);
});

test('kinds are honest: nothing "not shown" is a must, and observations say why', () => {
  for (const c of allClauses()) {
    if (/not shown/i.test(c.text)) expect(c.kind, `${c.id} quotes "not shown" but is a must`).not.toBe('must');
    if (c.kind === 'must') expect(c.reason, c.id).toBeNull();
    else expect(c.reason, c.id).toBeTruthy();
  }
  // Judgement calls the contract issue spells out.
  expect(clause('rs.update.error.409.identifier-conflict').kind).toBe('not-exercisable');
  expect(clause('mgmt.transport.https').kind).toBe('observe');
  expect(clause('exp.create.success.status').kind).toBe('observe');
  expect(clause('exp.create.rejected.status').kind).toBe('observe');
  expect(clause('exp.create.name.length').kind).toBe('must');
  expect(clause('limits.length.unit').text).toMatch(/code points/);
});

test('every clause id the schemas and generators name is in the catalogue', () => {
  const used = [...clausesInSchemas(), ...allMutations().map((m) => m.clause)];
  expect(used.filter((id) => !hasClause(id))).toEqual([]);
});

test('every clause-id literal in specs/, lib/, generators/, schemas/, reporters/ is in the catalogue', () => {
  // Area prefixes come from the catalogue itself, so a new area is picked up without editing this test.
  const areas = [...new Set(allClauses().map((c) => c.id.split('.')[0]))];
  const literal = new RegExp(`['"\`@]((?:${areas.join('|')})\\.[a-z0-9_-]+(?:\\.[a-z0-9_-]+)*)(?=['"\`\\s,)\\]])`, 'g');
  const stale: string[] = [];
  for (const dir of ['specs', 'lib', 'generators', 'schemas', 'reporters']) {
    for (const file of sourceFiles(join(ROOT, dir))) {
      const src = readFileSync(file, 'utf8');
      for (const m of src.matchAll(literal)) {
        const id = m[1] ?? '';
        // `${...}` templates and file names (x.json, y.ts) are not clause ids.
        if (
          /\.(json|ts|js|md|html)$/.test(id) ||
          src.slice((m.index ?? 0) + 1 + id.length, (m.index ?? 0) + 3 + id.length) === '${'
        )
          continue;
        // A property run's `name: '…'` is a label, not a clause reference.
        if (/name:\s*$/.test(src.slice(Math.max(0, (m.index ?? 0) - 12), m.index ?? 0))) continue;
        // A two-segment literal that prefixes catalogue ids is a filter ('rs.update'), not an id.
        if (id.split('.').length === 2 && allClauses().some((c) => c.id.startsWith(`${id}.`))) continue;
        if (!hasClause(id) && !fixtureId(file, id)) stale.push(`${relative(ROOT, file)}: ${id}`);
      }
    }
  }
  expect(stale, 'clause ids not in contract/clauses.json').toEqual([]);
});

// Helpers

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (name !== 'node_modules' && !name.startsWith('fixtures')) out.push(...sourceFiles(p));
    } else if (/\.(ts|json)$/.test(name)) out.push(p);
  }
  return out;
}

/** Ids deliberately absent from the catalogue (tests of stale-id handling) are marked in place. */
function fixtureId(file: string, id: string): boolean {
  const src = readFileSync(file, 'utf8');
  return new RegExp(`${id.replace(/\./g, '\\.')}['"\`][^\\n]*stale-id-fixture`).test(src);
}
