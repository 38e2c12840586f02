// lib/lost-writes.ts against a small fake tenant: a conformant one costs no request and is
// never blamed; a state gone back to an earlier one that a second try does not show again is
// a lost write naming the write it undid; a change that comes back when made again is the
// request's own (fields not sent reset, a write never stored); a change carrying a refused
// body's values is a refused write that wrote, left to rs.update.error.400.no-write; a fault
// while making sure leaves the answer unjudged, naming mgmt.error.server-fault.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Exchange } from '../lib/http.ts';
import { received } from '../lib/answer-class.ts';
import { StateLedger, WriteWatch } from '../lib/lost-writes.ts';
import type { ResourceServer } from '../lib/staging.ts';

const S0: ResourceServer = {
  id: 'rs_x',
  name: 'Start',
  scopes: [{ value: 'read:things' }],
  token_lifetime: 86400,
  allow_offline_access: false,
};

test('a conformant tenant: no finding and no request beyond the test’s own', async () => {
  const t = fakeTenant();
  const w = watchOn(t);
  await w.send({ name: 'A' });
  await w.send({ token_lifetime: 3600 });
  await w.send({});
  await w.send({ name: 'A', bad: true }, 400);
  await w.send({});
  expect(w.watch.found).toEqual([]);
  expect(t.requests).toBe(5);
});

test('a write lost later: named once, with the write it undid, on the answer it disturbed', async () => {
  const t = fakeTenant();
  const w = watchOn(t);
  await w.send({ name: 'A' });
  t.state = { ...S0 }; // the write of name A is lost
  const read = await w.send({});
  expect(w.watch.found).toHaveLength(1);
  const lost = w.watch.disturbance(read);
  expect(lost?.cause).toEqual({ clause: 'rs.update.persisted' });
  expect(lost?.text).toContain('(rs.update.persisted: PATCH {"name":"A"} in "a test"');
  expect(w.watch.found[0]!.message).toContain('name back to the values before it');
  expect(w.watch.current().name).toBe('A'); // put back, and the same request answered as expected
});

test('fields not sent reset by every update: made again, the change comes back — not a lost write', async () => {
  const t = fakeTenant((s, body) => ({ ...s, scopes: [], ...body }));
  const w = watchOn(t);
  await w.send({}); // scopes emptied: no earlier state shows it yet
  await w.send({ scopes: S0.scopes });
  const read = await w.send({}); // emptied again, as the first answer was
  expect(w.watch.disturbance(read)).toBeUndefined();
  expect(w.watch.found).toEqual([]);
});

test('a write never stored: the old state comes back on every read — not a lost write', async () => {
  const t = fakeTenant();
  t.stores = false;
  const w = watchOn(t);
  await w.send({ name: 'A' });
  const read = await w.send({});
  expect(w.watch.disturbance(read)).toBeUndefined();
  expect(w.watch.found).toEqual([]);
});

test('a refused body that wrote: the change carries its values — left to the no-write clause, no request sent', async () => {
  const t = fakeTenant();
  const w = watchOn(t);
  await w.send({ name: 'A' });
  await w.send({ name: 'Start' });
  await w.send({ name: 'A', colour: 'blue' }, 400, { name: 'A' }); // refused, and name A written
  const before = t.requests;
  const read = await w.send({});
  expect(w.watch.disturbance(read)).toBeUndefined();
  expect(t.requests).toBe(before + 1);
});

test('a fault while making sure of a change: the answer is not judged across, naming the fault clause — neither lost nor the request’s own', async () => {
  const t = fakeTenant();
  const w = watchOn(t);
  await w.send({ name: 'A' });
  t.state = { ...S0 }; // the write of name A is lost…
  t.faultAt = t.requests + 2; // …and the check's read after the pause is answered 500
  const read = await w.send({});
  expect(w.watch.found).toEqual([]);
  expect(w.watch.disturbance(read)?.cause).toEqual({ clause: 'mgmt.error.server-fault', answer: 'fault' });
  // Still watching: the next write lost is made sure of, and found.
  await w.send({ name: 'B' });
  t.state = { ...S0 };
  const again = await w.send({});
  expect(w.watch.found).toHaveLength(1);
  expect(w.watch.disturbance(again)?.cause).toEqual({ clause: 'rs.update.persisted' });
});

// Helpers

interface FakeTenant {
  state: ResourceServer;
  stores: boolean;
  requests: number;
  /** The request (1-based count) answered 500, unprocessed. */
  faultAt?: number;
  patch(body: Record<string, unknown>, status?: number, leak?: Record<string, unknown>): Exchange;
}

/** A tenant of one resource server; `apply` is its update rule. */
function fakeTenant(
  apply: (s: ResourceServer, body: Record<string, unknown>) => ResourceServer = (s, b) => ({ ...s, ...b }),
): FakeTenant {
  const t: FakeTenant = {
    state: { ...S0 },
    stores: true,
    requests: 0,
    patch(body, status = 201, leak) {
      t.requests++;
      if (t.requests === t.faultAt) return exchange(500, { error: 'Internal Server Error' });
      if (status !== 201) {
        if (leak) t.state = { ...t.state, ...leak };
        return exchange(status, { error: 'refused' });
      }
      const next = apply(t.state, body);
      if (t.stores) t.state = next;
      return exchange(201, next);
    },
  };
  return t;
}

/** A watch over `t`, and a `send` doing what the rs fixture does with each request. */
function watchOn(t: FakeTenant) {
  const ledger = new StateLedger(mkdtempSync(join(tmpdir(), 'idm-selftest-lost-')));
  ledger.record(S0, { test: 'global setup', by: 'the snapshot', wrote: false });
  const watch = new WriteWatch({
    ledger,
    test: 'a test',
    start: { ...S0 },
    read: async () => t.patch({}),
    write: async (body) => t.patch(body),
    describe: (body) => JSON.stringify(body),
    settleMs: 5,
  });
  const send = async (body: Record<string, unknown>, status = 201, leak?: Record<string, unknown>) => {
    const request = async () => t.patch(body, status, leak);
    const ex = await request();
    if (ex.status < 300) await watch.answered(ex, body, `PATCH ${JSON.stringify(body)}`, request);
    else watch.refusedWrite(body);
    return ex;
  };
  return { watch, send };
}

function exchange(status: number, body: unknown): Exchange {
  return received({
    request: { method: 'PATCH', url: 'https://tenant.test/api/v2/resource-servers/rs_x', headers: {} },
    status,
    headers: {},
    text: JSON.stringify(body),
    body: structuredClone(body),
  });
}
