// Where each clause lives in the suite, computed once: the schema keywords labelled with it
// (x-clause), the generated cases that carry it, the conformance tests that declare it (from
// Playwright's own listing of the `conformance` project: the tests a run runs), the rules
// judged on every answer of a run, the runtime and spec sources that name it, the mutants
// labelled with it, and the last run's verdict. `npm run clauses -- --trace <id>` prints it
// and selftest/contract-coverage.spec.ts judges it, so the trace and the coverage check read
// the same data and cannot disagree.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { allClauses } from '../contract/clauses.ts';
import { ANSWER_RULES } from '../lib/answer-rules.ts';
import { runSettings } from '../lib/config/run.ts';
import * as g from '../generators/index.ts';
import { BENIGN, MUTANTS } from '../mutation/mutants.ts';
import { RUN_LEVEL_CLAUSES } from '../reporters/auth-errors.ts';
import type { ConformanceReport } from '../reporters/model.ts';
import { clausesOfType, loadSchemaFiles, TYPES, type TypeName, typeNames } from '../schemas/index.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const EXP: g.ExperimentOptions = {
  featureFlagId: 'flg_7Hq2kPzR',
  variationIds: ['var_control', 'var_treatment'],
  runTag: 'idm-trace',
};

export interface SourceRef {
  file: string;
  line: number;
}
export interface TestRef extends SourceRef {
  title: string;
}
export interface SchemaLabel {
  /** `schemas/<file>#<JSON pointer>` of the node carrying the x-clause. */
  at: string;
  /** The keyword the label applies to, or `*` for a label on the whole node. */
  keyword: string;
}
export interface CaseRef {
  list: 'updateViolationCases' | 'experimentViolationCases' | 'updateBoundaryCases' | 'experimentBoundaryCases';
  id: string;
  description: string;
  /** Whether a spec consumes the list (calls the function that produces it). */
  consumed: boolean;
}
/** A schema type a check validates an answer against, under the clause of that check. */
export interface Validation {
  type: string;
  under: string;
}
export interface MutantRef {
  id: string;
  kind: 'mutant' | 'benign';
  fault: string;
  description: string;
}

/** Everything the suite holds about the clauses, indexed by clause id. */
export interface TraceData {
  schema: Map<string, SchemaLabel[]>;
  /** Clauses of the schema types the specs or the runtime validate against (`expectSchema(clause, type, …)`), with that clause. */
  validated: Map<string, Validation[]>;
  cases: Map<string, CaseRef[]>;
  /** The tests a run runs, by the clauses they declare. */
  tests: Map<string, TestRef[]>;
  /** Clauses judged on every answer of a run (lib/answer-rules.ts) or over the run (reporters/auth-errors.ts), with the rule. */
  runWide: Map<string, string[]>;
  /** Quoted literal mentions in lib/, specs/ and reporters/ (shown by the trace; they exercise nothing). */
  named: Map<string, SourceRef[]>;
  mutants: Map<string, MutantRef[]>;
  /** The last run's conformance.json, if there is one. */
  report: {
    path: string;
    endedAt: string;
    target: string | null;
    clauses: Map<string, ConformanceReport['clauses'][number]>;
  } | null;
}

/**
 * What of the data counts as exercising a `must` clause (the coverage rule): a test that runs
 * declares it, a rule judged on every answer of a run of those tests judges it, or a check one
 * of them declares validates against a schema that labels it. A clause merely named in a module,
 * or carried by a case list, counts for nothing: a test module the run does not import still
 * names its clauses.
 */
export function exercisedBy(id: string, d: TraceData): string[] {
  const why: string[] = [];
  if (d.tests.get(id)?.length) why.push('declared by a test that runs');
  if (d.tests.size > 0) for (const rule of d.runWide.get(id) ?? []) why.push(`judged by a rule of every run: ${rule}`);
  for (const v of d.validated.get(id) ?? [])
    if (d.tests.get(v.under)?.length)
      why.push(`in schema ${v.type}, validated under ${v.under}, which a test declares`);
  return why;
}

/** Must clauses nothing exercises, as `id (§section)`. */
export function orphans(d: TraceData): string[] {
  return allClauses()
    .filter((c) => c.kind === 'must' && exercisedBy(c.id, d).length === 0)
    .map((c) => `${c.id} (§${c.section})`);
}

/** An empty trace (nothing exercises anything): the coverage self-test shows its rule can fail. */
export function emptyTrace(): TraceData {
  return {
    schema: new Map(),
    validated: new Map(),
    cases: new Map(),
    tests: new Map(),
    runWide: new Map(),
    named: new Map(),
    mutants: new Map(),
    report: null,
  };
}

export function traceData(opts: { tests?: Map<string, TestRef[]>; reportsDir?: string } = {}): TraceData {
  // The spec files and the test modules they import (specs/0-long-pole/resource-server.spec.ts).
  const specFiles = sourceFiles('specs').filter((f) => f.endsWith('.ts'));
  const specSrc = specFiles.map((f) => readFileSync(join(ROOT, f), 'utf8')).join('\n');
  const runtimeSrc = `${specSrc}\n${sourceFiles('lib')
    .map((f) => readFileSync(join(ROOT, f), 'utf8'))
    .join('\n')}`;
  return {
    schema: schemaLabels(),
    validated: validatedSchemaClauses(runtimeSrc),
    cases: caseRefs(specSrc),
    tests: opts.tests ?? listedTests(),
    runWide: runWideRules(),
    named: namedIn([...specFiles, ...sourceFiles('lib'), ...sourceFiles('reporters')]),
    mutants: mutantRefs(),
    report: lastReport(opts.reportsDir ?? runSettings().reportsDir),
  };
}

/**
 * The conformance tests and the clauses they declare, as Playwright lists them (so tests built
 * from case lists count with their real titles and lines). The listing reads the embedded
 * defaults, never the user's .env: the catalogue of tests does not depend on the target.
 */
export function listedTests(): Map<string, TestRef[]> {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env))
    if (!k.startsWith('IDM_') && !k.startsWith('TEST_') && k !== 'PW_TS_ESM_LOADER_ON') env[k] = v;
  env.IDM_ENV_FILE = '/dev/null';
  // The port is the user's (environment or .env), so the listing's tenant never collides.
  env.IDM_EMBEDDED_PORT = String(runSettings().embeddedPort);
  const cli = join(ROOT, 'node_modules', '@playwright', 'test', 'cli.js');
  const out = spawnSync(process.execPath, [cli, 'test', '--project=conformance', '--list', '--reporter=json'], {
    cwd: ROOT,
    env,
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  });
  if (out.status !== 0)
    throw new Error(`playwright --list failed (${out.status}): ${(out.stderr || out.stdout).slice(0, 500)}`);
  const byClause = new Map<string, TestRef[]>();
  const walk = (suite: ListedSuite, path: string[]): void => {
    const here = suite.title && !suite.title.endsWith('.ts') ? [...path, suite.title] : path;
    for (const spec of suite.specs ?? []) {
      const ref: TestRef = { file: spec.file, line: spec.line, title: [...here, spec.title].join(' › ') };
      const ids = new Set(
        (spec.tests ?? []).flatMap((t) =>
          (t.annotations ?? []).filter((a) => a.type === 'clause' && a.description).map((a) => a.description as string),
        ),
      );
      for (const id of ids) push(byClause, id, ref);
    }
    for (const child of suite.suites ?? []) walk(child, here);
  };
  for (const s of (JSON.parse(out.stdout) as { suites: ListedSuite[] }).suites) walk(s, []);
  return byClause;
}

// Helpers

interface ListedSuite {
  title: string;
  specs?: Array<{
    title: string;
    file: string;
    line: number;
    tests?: Array<{ annotations?: Array<{ type: string; description?: string }> }>;
  }>;
  suites?: ListedSuite[];
}

function push<T>(m: Map<string, T[]>, k: string, v: T): void {
  const list = m.get(k);
  if (list) list.push(v);
  else m.set(k, [v]);
}

function schemaLabels(): Map<string, SchemaLabel[]> {
  const out = new Map<string, SchemaLabel[]>();
  const walk = (node: unknown, file: string, pointer: string): void => {
    if (!node || typeof node !== 'object') return;
    if (Array.isArray(node)) {
      for (const [i, n] of node.entries()) walk(n, file, `${pointer}/${i}`);
      return;
    }
    for (const [k, v] of Object.entries(node)) {
      if (k === 'x-clause') {
        const at = `schemas/${file}#${pointer}`;
        if (typeof v === 'string') push(out, v, { at, keyword: '*' });
        else for (const [keyword, id] of Object.entries(v as Record<string, string>)) push(out, id, { at, keyword });
      } else walk(v, file, `${pointer}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`);
    }
  };
  for (const [file, doc] of Object.entries(loadSchemaFiles())) walk(doc, file, '');
  // The default clause of a type applies when nothing more specific does.
  for (const t of typeNames)
    push(out, TYPES[t].defaultClause, { at: `schemas/${TYPES[t].file}#`, keyword: `default of ${t}` });
  return out;
}

function validatedSchemaClauses(runtimeSrc: string): Map<string, Validation[]> {
  const out = new Map<string, Validation[]>();
  const isType = (t: string): t is TypeName => (typeNames as string[]).includes(t);
  // A type counts where a check validates against it by name, not where its name merely appears.
  const pairs = new Set(
    [...runtimeSrc.matchAll(/\bexpectSchema\(\s*['"]([^'"]+)['"]\s*,\s*['"](\w+)['"]/g)].map((m) => `${m[2]} ${m[1]}`),
  );
  // A condition's `v.schema('Type', …)` validates under the first of its clauses (lib/condition.ts).
  for (const part of runtimeSrc.split(/\bclauses:\s*\[/).slice(1)) {
    const under = /^\s*['"]([^'"]+)['"]/.exec(part)?.[1];
    if (under) for (const m of part.matchAll(/\bv\.schema\(\s*['"](\w+)['"]/g)) pairs.add(`${m[1]} ${under}`);
  }
  for (const pair of pairs) {
    const [type, under] = pair.split(' ') as [string, string];
    if (isType(type)) for (const id of clausesOfType(type, { followRefs: true })) push(out, id, { type, under });
  }
  return out;
}

function runWideRules(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const rule of ANSWER_RULES)
    for (const id of rule.condition.clauses) push(out, id, `${rule.name} (lib/answer-rules.ts)`);
  for (const id of RUN_LEVEL_CLAUSES)
    push(out, id, "the run's authentication-API errors, judged over the run (reporters/auth-errors.ts)");
  return out;
}

function caseRefs(specSrc: string): Map<string, CaseRef[]> {
  // A list counts only if a spec calls the function that produces it (or the combined one).
  const calls = (...fns: string[]): boolean => fns.some((fn) => new RegExp(`\\b${fn}\\(`).test(specSrc));
  const out = new Map<string, CaseRef[]>();
  const add = (
    list: CaseRef['list'],
    consumed: boolean,
    cases: ReadonlyArray<{ id: string; clause: string; description: string }>,
  ): void => {
    for (const c of cases) push(out, c.clause, { list, id: c.id, description: c.description, consumed });
  };
  add(
    'updateViolationCases',
    calls('updateViolationCases', 'violationCases', 'updateViolation', 'loadUpdateCases'),
    g.updateViolationCases(),
  );
  add(
    'experimentViolationCases',
    calls('experimentViolationCases', 'violationCases', 'experimentViolation'),
    g.experimentViolationCases(g.experimentPayload(EXP)),
  );
  // loadUpdateCases reads both update lists from contract/cases/ (generators/cases.ts).
  add('updateBoundaryCases', calls('updateBoundaryCases', 'boundaryCases', 'loadUpdateCases'), g.updateBoundaryCases());
  add('experimentBoundaryCases', calls('experimentBoundaryCases', 'boundaryCases'), g.experimentBoundaryCases(EXP));
  return out;
}

function namedIn(files: string[]): Map<string, SourceRef[]> {
  const ids = new Set(allClauses().map((c) => c.id));
  const literal = /(?<=['"`@])([a-z][a-z0-9_-]*(?:\.[a-z0-9_][a-z0-9_-]*)+)(?=['"`])/g;
  const out = new Map<string, SourceRef[]>();
  for (const file of files) {
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((text, i) => {
        for (const m of text.matchAll(literal))
          if (ids.has(m[1] ?? '')) push(out, m[1] as string, { file, line: i + 1 });
      });
  }
  return out;
}

function mutantRefs(): Map<string, MutantRef[]> {
  const out = new Map<string, MutantRef[]>();
  for (const v of [...MUTANTS, ...BENIGN])
    if (v.clause) push(out, v.clause, { id: v.id, kind: v.kind, fault: v.fault, description: v.description });
  return out;
}

function lastReport(dir: string): TraceData['report'] {
  const path = join(dir, 'conformance.json');
  if (!existsSync(path)) return null;
  try {
    const r = JSON.parse(readFileSync(path, 'utf8')) as ConformanceReport;
    return { path, endedAt: r.endedAt, target: r.target, clauses: new Map(r.clauses.map((c) => [c.id, c])) };
  } catch {
    return null;
  }
}

/** `.ts` files under a top-level folder, relative to the repository root. */
function sourceFiles(dir: string): string[] {
  const abs = join(ROOT, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs).flatMap((name) => {
    const p = join(dir, name);
    return statSync(join(ROOT, p)).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}
