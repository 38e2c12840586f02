// Allure 3 CLI configuration for `npm run report` (offline, no Java).
// History: every `allure generate` appends this run to historyPath (JSON Lines) and reads
// the earlier entries from it, so keeping that one file between runs keeps the trends
// (the nightly workflow carries it over as an artifact). IDM_REPORTS_DIR moves it all.
const reports = process.env.IDM_REPORTS_DIR || './reports';

export default {
  name: 'idm-conformance',
  output: `${reports}/allure-report`,
  historyPath: `${reports}/allure-history/history.jsonl`,
  historyLimit: 60,
  plugins: {
    awesome: {
      options: {
        reportName: 'idm-conformance — API conformance',
        reportLanguage: 'en',
        singleFile: false,
        groupBy: ['epic', 'feature', 'story'],
      },
    },
  },
};
