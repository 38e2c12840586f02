// `npm run cases [-- --check]`: writes (or checks) contract/cases/resource-server-update.json
// from the generators (generators/cases.ts).
import { main } from '../generators/cases.ts';

process.exit(main(process.argv.slice(2)));
