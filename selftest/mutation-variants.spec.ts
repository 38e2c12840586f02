// The mutant catalogue itself: every mutant is labelled with a real catalogue clause, covers
// the fault kinds of issue 6, and is alive — its probe sees something the reference tenant
// does not show. A dead mutant would "survive" the suite for nothing; a benign variant that
// carries a probe is held to the same.
import { test, expect } from '@playwright/test';
import { isDeepStrictEqual } from 'node:util';
import { allClauses } from '../contract/clauses.ts';
import { listedTests } from '../bin/clause-trace.ts';
import { BENIGN, MUTANTS, VARIANTS } from '../mutation/mutants.ts';
import { probeClient, type Probe } from '../mutation/probes.ts';
import { startHarnessTenant } from '../mutation/tenant.ts';
import type { FaultKind, Variant } from '../mutation/variant.ts';

const kinds = new Map(allClauses().map((c) => [c.id, c.kind]));

test('variant ids are unique and there are at least 40 mutants', () => {
  const ids = VARIANTS.map((v) => v.id);
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
  expect(MUTANTS.filter((m) => !m.equivalent).length).toBeGreaterThanOrEqual(40);
});

test('every mutant breaks a must clause of the catalogue, or says why it is equivalent', () => {
  for (const m of MUTANTS) {
    expect(m.clause, m.id).not.toBeNull();
    const kind = kinds.get(m.clause!);
    expect(kind, `${m.id}: ${m.clause} is not in contract/clauses.json`).toBeDefined();
    if (m.equivalent) {
      expect(kind, `${m.id} is marked equivalent but ${m.clause} is a must clause`).not.toBe('must');
      expect(m.equivalent, m.id).toContain(m.clause!);
    } else {
      expect(kind, `${m.id}: ${m.clause} is not a must clause`).toBe('must');
    }
  }
});

test('benign variants differ only where the catalogue observes or the spec says nothing', () => {
  for (const b of BENIGN) {
    if (b.clause === null) continue;
    expect(kinds.get(b.clause), `${b.id}: ${b.clause}`).toMatch(/^(observe|not-exercisable)$/);
  }
  for (const v of VARIANTS) {
    for (const c of [...(v.grep ?? []), ...(v.grepAll ?? [])]) expect(kinds.has(c), `${v.id} greps ${c}`).toBe(true);
    // A same-verdict variant runs a whole half of the suite: a grep would be dead data.
    if (v.asDefault) expect(v.grep ?? v.grepAll, `${v.id} runs ${v.asDefault.apis} whole`).toBeUndefined();
  }
});

test('the fast selection of every variant names a clause some test declares (else it runs no test)', () => {
  // Playwright's own listing, as the clause trace reads it; a variant picked with --only runs its selection too.
  const declared = listedTests();
  const empty = VARIANTS.filter((v) => !v.asDefault)
    .map((v) => ({ v, sel: v.grepAll ?? v.grep ?? (v.clause ? [v.clause] : []) }))
    .filter(
      ({ v, sel }) =>
        sel.length > 0 && !(v.grepAll ? sel.every((c) => declared.has(c)) : sel.some((c) => declared.has(c))),
    )
    .map(({ v, sel }) => `${v.id} (${sel.join(', ')})`);
  expect(empty).toEqual([]);
});

test('the catalogue covers every fault kind of issue 6', () => {
  const required: FaultKind[] = [
    'limit-off-by-one',
    'missing-validation',
    'unknown-field-accepted',
    'over-strict',
    'wrong-status',
    'response-schema',
    'not-persisted',
    'partial-write',
    'path-handling',
    'form-refused',
    'auth-bypass',
    'scope-message',
    'rate-limit',
  ];
  const present = new Set(MUTANTS.map((m) => m.fault));
  expect(required.filter((k) => !present.has(k))).toEqual([]);
  // Both directions of a limit, and every authorization bypass the spec lists.
  expect(MUTANTS.some((m) => m.fault === 'limit-off-by-one' && m.id.endsWith('-accepted'))).toBe(true);
  expect(MUTANTS.some((m) => m.fault === 'limit-off-by-one' && m.id.endsWith('-rejected'))).toBe(true);
  for (const c of [
    'auth.mgmt.no-token',
    'auth.mgmt.bad-signature',
    'auth.mgmt.expired-token',
    'auth.mgmt.wrong-audience',
    'auth.mgmt.missing-scope',
  ]) {
    expect(
      MUTANTS.some((m) => m.fault === 'auth-bypass' && m.clause === c),
      c,
    ).toBe(true);
  }
});

test('every mutant has a probe', () => {
  expect(MUTANTS.filter((m) => !m.probe).map((m) => m.id)).toEqual([]);
});

test.describe('each mutant is alive: its probe differs from the reference tenant', () => {
  test.describe.configure({ mode: 'parallel' });
  for (const m of MUTANTS) test(m.id, () => expectDiffers(m, m.probe!));
});

// A benign variant identical to the reference would pass the suite for nothing too.
test.describe('each benign variant with a probe differs from the reference tenant', () => {
  test.describe.configure({ mode: 'parallel' });
  for (const b of BENIGN) if (b.probe) test(b.id, () => expectDiffers(b, b.probe!));
});

// Helpers

async function expectDiffers(v: Variant, probe: Probe): Promise<void> {
  const ref = await startHarnessTenant('reference', { port: 0 });
  const other = await startHarnessTenant(v, { port: 0 });
  try {
    const seenRef = await probe(probeClient(ref.tenant.url, () => ref.mintExpiredToken()));
    const seenOther = await probe(probeClient(other.tenant.url, () => other.mintExpiredToken()));
    expect(
      isDeepStrictEqual(seenRef, seenOther),
      `${v.id}: reference saw ${JSON.stringify(seenRef)}, variant saw ${JSON.stringify(seenOther)}`,
    ).toBe(false);
  } finally {
    await Promise.all([ref.tenant.close(), other.tenant.close()]);
  }
}
