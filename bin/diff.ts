// npm run diff -- a.json b.json [--json]
// Lists clauses that regressed, recovered or changed observations from run A to run B.
// Exit 0 no regression · 1 at least one clause regressed · 2 bad arguments or files.
import { readFileSync } from 'node:fs';
import { diffReports, renderDiff } from '../reporters/diff.ts';
import type { ConformanceReport } from '../reporters/model.ts';

const args = process.argv.slice(2);
const json = args.includes('--json');
const files = args.filter((a) => a !== '--json');
if (files.length !== 2) fail('usage: npm run diff -- <before/conformance.json> <after/conformance.json> [--json]');

const [a, b] = files.map(readReport) as [ConformanceReport, ConformanceReport];
const d = diffReports(a, b);
process.stdout.write(json ? JSON.stringify(d, null, 2) + '\n' : renderDiff(d));
process.exit(d.regressed.length > 0 ? 1 : 0);

function readReport(path: string): ConformanceReport {
  let doc: unknown;
  try {
    doc = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    return fail(`${path}: cannot read a JSON report (${(err as Error).message.split('\n')[0]})`);
  }
  const r = doc as Partial<ConformanceReport>;
  if (r.schemaVersion !== 1 || !Array.isArray(r.clauses))
    return fail(`${path}: not a conformance.json (schemaVersion 1 with clauses)`);
  return r as ConformanceReport;
}

function fail(message: string): never {
  process.stderr.write(`idm-conformance: IDM_E_CONFIG_INVALID: ${message}\n`);
  process.exit(2);
}
