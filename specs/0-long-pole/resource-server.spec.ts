// Every test that writes the shared resource server, in one file, so that one worker runs them in
// this order while the other runs everything else (why, and why the invalid bodies first: specs/README.md).
// This list is the one place a module of these folders is named: selftest/contract-chain.spec.ts
// fails naming a module of them it does not reach, and selftest/contract-coverage.spec.ts the
// must clauses only a forgotten module declares.
import '../resource-server/rejects-invalid-updates.ts';
import '../resource-server/accepts-valid-updates.ts';
import '../resource-server/encodings.ts';
import '../resource-server/limits.ts';
import '../resource-server/path.ts';
// The settings written above are stored; these rows hold the tokens for the API to them (issue 38).
import '../settings/signing-and-shape.ts';
import '../settings/proof-of-possession.ts';
import '../settings/subject-types.ts';
import '../settings/user-tokens.ts';
