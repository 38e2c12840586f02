// allure-playwright, but each run starts from an empty results folder: Allure would
// otherwise read stale results of earlier runs as retries. Trends come from the history
// file of reporters/allurerc.mjs, not from old results.
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AllureReporter } from 'allure-playwright';

type AllurePlaywrightReporterConfig = NonNullable<ConstructorParameters<typeof AllureReporter>[0]>;

export default class FreshAllureReporter extends AllureReporter {
  constructor(config: AllurePlaywrightReporterConfig = {}) {
    super(config);
    clearFiles(config.resultsDir ?? 'allure-results');
  }
}

/** File by file and best effort: a reporter must never stop the run it reports on. */
function clearFiles(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    try {
      rmSync(join(dir, name), { recursive: true, force: true });
    } catch {
      // another process may be writing here at the same moment; its file stays
    }
  }
}
