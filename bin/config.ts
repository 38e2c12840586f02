// `npm run config`: the effective configuration, one line per setting (its value, secrets as
// ***, and where it came from: environment, .env, embedded default, default), then what the
// run will skip because of what is unset. A configuration a run would refuse ends here the
// same way: one line, exit 2. `npm run config -- --readme` rewrites the README's table from
// the declarations (selftest/config-declarations.spec.ts fails while the two differ).
import { readFileSync, writeFileSync } from 'node:fs';
import { findChromium, noChromiumReason } from '../lib/auth/browser.ts';
import { fromSettings, separateAuthUrl } from '../lib/config.ts';
import { exitWith, isIdmError } from '../lib/errors.ts';
import { explain, settingsTable } from '../lib/config/explain.ts';
import { README, replaceTable } from '../lib/config/readme.ts';
import { parseSettings } from '../lib/config/parse.ts';
import { readSources } from '../lib/config/sources.ts';

if (process.argv.includes('--readme')) {
  writeFileSync(README, replaceTable(readFileSync(README, 'utf8'), settingsTable()));
  process.stdout.write(`${README}: configuration table written from lib/config/declarations.ts\n`);
} else {
  try {
    const { merged, fromFile, envFile } = readSources();
    const settings = parseSettings(merged, { fromFile, envFile });
    const cfg = fromSettings(settings);
    const browser = findChromium(cfg.auth.chromium);
    const noBrowser = browser.path ? null : noChromiumReason(browser);
    const authUrl = separateAuthUrl(cfg);
    process.stdout.write(`${explain(settings, { baseUrl: cfg.baseUrl, authUrl, noBrowser }).join('\n')}\n`);
  } catch (e) {
    if (isIdmError(e)) exitWith(e);
    throw e;
  }
}
