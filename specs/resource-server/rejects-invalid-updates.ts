// PATCH /resource-servers/{id} with bodies that break one clause each (§2.2, §2.3, §7.1,
// §8): every one is refused with 400 and nothing is written. The cases are data, read from
// contract/cases/resource-server-update.json (generated from the schemas and the violation
// list, generators/cases.ts): one test with a step per type of §2.2/§2.3, each case checked
// on its own clause. Each body also carries distinctive valid values (its probe), so one
// read after the whole batch tells whether, and which, a refused write leaked; only an
// unattributable leak is bisected.
import { test } from '../../lib/fixtures.ts';
import type { ResourceServerUnderTest } from '../../lib/fixtures.ts';
import type { Checks } from '../../lib/checks.ts';
import { clauses, OPERATIONS, skipClauses } from '../../lib/declare.ts';
import { allowed, type Config } from '../../lib/config.ts';
import { deepEqual, isObject, short } from '../../lib/values.ts';
import { restoreBody, UPDATABLE_FIELDS, type ResourceServer } from '../../lib/staging.ts';
import { findLeak, withProbe, type ViolationCase } from '../../generators/index.ts';
import { loadUpdateCases } from '../../generators/cases.ts';

/** The type a clause belongs to: `rs.scope.value.length` → `scope`; the body's own rules → `update`. */
const typeOf = (clause: string): string => clause.split('.')[1] ?? clause;
const TITLES: Record<string, string> = {
  update: 'update bodies breaking one rule of §2.2 each',
  scope: 'a Scope breaking one rule of §2.3 each',
  token_encryption: 'a TokenEncryption breaking one rule of §2.3 each',
  encryption_key: 'an EncryptionKey breaking one rule of §2.3 each',
  proof_of_possession: 'a ProofOfPossession breaking one rule of §2.3 each',
  subject_type_authorization: 'a SubjectTypeAuthorization breaking one rule of §2.3 each',
  authorization_policy: 'an AuthorizationPolicy breaking one rule of §2.3 each',
};

const byType = new Map<string, ViolationCase[]>();
for (const c of loadUpdateCases().violations)
  byType.set(typeOf(c.clause), [...(byType.get(typeOf(c.clause)) ?? []), c]);

const ALL = [...byType.values()].flat();

test.describe('update a resource server: invalid bodies', () => {
  test(
    `bodies breaking one rule of §2.2 or §2.3 each (${ALL.length} bodies): each refused with 400, nothing written`,
    clauses(OPERATIONS.update, ...new Set(ALL.map((c) => c.clause)), 'rs.update.error.400.no-write'),
    async ({ run, rs, check }) => {
      let expected: ResourceServer = rs.start;
      const refused: ViolationCase[] = [];
      // One step per type; one read after them all judges no-write for every refused body.
      for (const [type, group] of byType) {
        await test.step(`${TITLES[type] ?? `${type} breaking one rule each`} (${group.length} bodies)`, async () => {
          for (const c of group.map((c) => safeProbe(withProbe(c, run.runTag), run.cfg, run.snapshot))) {
            const ex = await rs.update(c.body);
            check.expectStatus(c.clause, ex, 400, c.description);
            if (ex.status === 400) refused.push(c);
            else if (ex.status >= 200 && ex.status < 300 && isObject(ex.body)) expected = ex.body; // accepted: a failure above, and the new state
          }
        });
      }
      await checkNothingWritten(check, rs, expected, refused, rs.start);
    },
  );

  test(
    'a body that is not valid JSON is refused with 400',
    clauses(OPERATIONS.update, 'rs.update.error.400.malformed-body', 'rs.update.error.body'),
    async ({ rs, check }) => {
      const ex = await rs.update(null, {
        raw: '{"name": "unterminated',
        headers: { 'content-type': 'application/json' },
      });
      check.expectStatus('rs.update.error.400.malformed-body', ex, 400, 'PATCH with a truncated JSON body');
      check.observe('rs.update.error.body', `error body: ${short(ex.body)}`, ex);
    },
  );
});

/** Reads the state once; on a difference names the leaking case by its probe, else bisects. */
async function checkNothingWritten(
  check: Checks,
  rs: ResourceServerUnderTest,
  expected: ResourceServer,
  refused: ViolationCase[],
  snapshot: ResourceServer,
): Promise<void> {
  if (refused.length === 0) return;
  const read = await rs.read();
  // A write lost later changes the state between the reads, whatever the refused bodies did.
  const lost = rs.lostWrite(read);
  if (lost) return skipClauses(test.info(), lost, 'rs.update.error.400.no-write');
  if (!isObject(read.body)) {
    check.that(
      'rs.update.error.400.no-write',
      false,
      `could not read the state back: PATCH {} answered ${read.status}`,
      read,
    );
    return;
  }
  const changed = diff(expected, read.body);
  if (changed.length === 0) {
    check.that(
      'rs.update.error.400.no-write',
      true,
      `${refused.length} refused update(s) left the state unchanged`,
      read,
    );
    return;
  }
  let culprits = findLeak(read.body, refused);
  if (culprits.length === 0 && refused.length === 1) culprits = refused;
  if (culprits.length === 0) culprits = await bisect(rs, refused, snapshot);
  const names =
    culprits.length > 0
      ? culprits.map((c) => `${c.id} (${c.description})`).join(', ')
      : 'a refused update (not attributable)';
  check.that(
    'rs.update.error.400.no-write',
    false,
    `${names} was refused with 400 but changed ${changed.join('; ')}`,
    read,
    culprits[0] ? { counterexample: culprits[0].body } : undefined,
  );
}

/** Replays each refused case alone, from the snapshot, until the state moves. */
async function bisect(
  rs: ResourceServerUnderTest,
  refused: ViolationCase[],
  snapshot: ResourceServer,
): Promise<ViolationCase[]> {
  const out: ViolationCase[] = [];
  for (const c of refused) {
    const now = await rs.read();
    if (isObject(now.body)) {
      const back = restoreBody(snapshot, now.body);
      if (Object.keys(back).length > 0) await rs.update(back);
    }
    await rs.update(c.body);
    const after = await rs.read();
    if (isObject(after.body) && diff(snapshot, after.body).length > 0) out.push(c);
  }
  return out;
}

/** Writable fields (and the identifier) whose values differ. */
function diff(a: ResourceServer, b: ResourceServer): string[] {
  return [...UPDATABLE_FIELDS, 'identifier']
    .filter((f) => f in a && !deepEqual(a[f], b[f]))
    .map((f) => `${f}: ${short(a[f])} → ${short(b[f])}`);
}

/**
 * On a shared tenant, a leaking probe must not lower token_lifetime below the original
 * token_lifetime_for_web (the clamp could not be undone): the probe value is raised.
 */
function safeProbe(c: ViolationCase, cfg: Config, snapshot: ResourceServer): ViolationCase {
  const web = snapshot.token_lifetime_for_web;
  if (allowed(cfg, 'lifetime') || typeof web !== 'number' || !c.probe || !isObject(c.body)) return c;
  const probeLifetime = c.probe.token_lifetime;
  if (typeof probeLifetime !== 'number' || probeLifetime >= web || c.body.token_lifetime !== probeLifetime) return c;
  const raised = Math.min(2592000, web + 1 + (probeLifetime % 1000));
  return { ...c, probe: { ...c.probe, token_lifetime: raised }, body: { ...c.body, token_lifetime: raised } };
}
