// npm run report — the Allure HTML report of the last run, generated offline with the
// allure 3 CLI (no Java) into reports/allure-report. Each generation appends the run to
// reports/allure-history/history.jsonl (reporters/allurerc.mjs), so trends build up as
// long as that file is kept between runs. IDM_REPORTS_DIR moves all three.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exitWith, isIdmError } from '../lib/errors.ts';
import { runSettings } from '../lib/config/run.ts';

const REPORTS = reportsDir();
const RESULTS = join(REPORTS, 'allure-results');
const CONFIG = fileURLToPath(new URL('../reporters/allurerc.mjs', import.meta.url));

if (!existsSync(RESULTS) || !readdirSync(RESULTS).some((f) => f.endsWith('-result.json'))) {
  process.stderr.write(
    `idm-conformance: IDM_E_CONFIG_MISSING: no Allure results in ${RESULTS}; run \`npm run conformance\` first\n`,
  );
  process.exit(2);
}
// allure generate writes over the folder without emptying it: stale files of an earlier
// report would mix with this one. The history lives elsewhere and is kept.
rmSync(join(REPORTS, 'allure-report'), { recursive: true, force: true });
// the package exports only its API (dist/index.js); the CLI sits at the package root
const cli = join(dirname(createRequire(import.meta.url).resolve('allure')), '..', 'cli.js');
const r = spawnSync(process.execPath, [cli, 'generate', RESULTS, '--config', CONFIG, ...process.argv.slice(2)], {
  stdio: 'inherit',
});
if (r.status === 0)
  process.stdout.write(
    `Allure report: ${join(REPORTS, 'allure-report', 'index.html')} (history: ${join(REPORTS, 'allure-history', 'history.jsonl')})\n`,
  );
process.exit(r.status ?? 1);

function reportsDir(): string {
  try {
    return runSettings().reportsDir;
  } catch (e) {
    if (isIdmError(e)) exitWith(e);
    throw e;
  }
}
