// The conformance reporter, writing into the directory a mutation or bench run names
// (IDM_MUTATION_REPORT_DIR), so concurrent suite runs never share reports/conformance.json.
// Passed with `--reporter`, it also replaces the HTML/JUnit/Allure reporters those runs
// do not need.
import ConformanceReporter, { type ConformanceReporterOptions } from '../reporters/conformance-reporter.ts';

export default class MutationRunReporter extends ConformanceReporter {
  constructor(options: ConformanceReporterOptions = {}) {
    super({ ...options, outputDir: process.env.IDM_MUTATION_REPORT_DIR ?? options.outputDir ?? 'reports' });
  }
}
