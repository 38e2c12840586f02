// The conformance reporter, writing into the directory a mutation or bench run names
// (IDM_REPORTS_DIR, set by mutation/suite.ts), so concurrent suite runs never share reports/conformance.json.
// Passed with `--reporter`, it also replaces the HTML/JUnit/Allure reporters those runs
// do not need.
import { runSettings } from '../lib/config/run.ts';
import ConformanceReporter, { type ConformanceReporterOptions } from '../reporters/conformance-reporter.ts';

export default class MutationRunReporter extends ConformanceReporter {
  constructor(options: ConformanceReporterOptions = {}) {
    super({ ...options, outputDir: runSettings().reportsDir });
  }
}
