// allure-playwright, but each run starts from an empty results folder: Allure would
// otherwise read stale results of earlier runs as retries. Trends come from the history
// file of reporters/allurerc.mjs, not from old results. Files are written without an
// fsync each (reporters/allure-writer.ts).
import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { FullConfig, Suite } from '@playwright/test/reporter';
import { AllureReporter } from 'allure-playwright';
import { UnflushedWriter } from './allure-writer.ts';

type AllurePlaywrightReporterConfig = NonNullable<ConstructorParameters<typeof AllureReporter>[0]>;

export default class FreshAllureReporter extends AllureReporter {
  private readonly resultsDir: string;

  constructor(config: AllurePlaywrightReporterConfig = {}) {
    super(config);
    this.resultsDir = config.resultsDir ?? 'allure-results';
    clearFiles(this.resultsDir);
  }

  /** allure-playwright 3.12 builds its runtime here, with a writer that fsyncs each file: ours does not (allure-writer.ts). */
  override onBegin(suite: Suite): void {
    super.onBegin(suite);
    const runtime = (this as unknown as { allureRuntime?: { writer: unknown } }).allureRuntime;
    if (runtime) runtime.writer = new UnflushedWriter(this.resultsDir);
  }

  /**
   * `merge-reports` (the nightly's shards) configures reporters before any project is
   * known, and allure-playwright 3.12 reads `config.projects[0].outputDir` there, which
   * throws. The folders only serve to locate screenshot diffs, which this suite has none of.
   */
  override onConfigure(config: FullConfig): void {
    const projects =
      config.projects.length > 0
        ? config.projects
        : [{ outputDir: 'test-results', snapshotDir: 'test-results' } as FullConfig['projects'][number]];
    super.onConfigure({ ...config, projects });
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
