// Every refusal on a live credential (lib/auth/live-credential.ts, issue 40 item 4): against
// tenants made of a few lines — one whose codes survive refusals, one that lets a misused code
// die, one that takes a downgrade and so spends the code — each wrong presentation is answered on
// a code that was live when it met it, and a fresh code is taken only where one was spent or killed.
import { expect, test } from '@playwright/test';
import { onLiveCredentials } from '../lib/auth/live-credential.ts';
import type { TokenAnswer } from '../lib/auth/flow-types.ts';
import { received } from '../lib/answer-class.ts';
import type { RawExchange } from '../lib/http.ts';

/** A tenant of single-use codes: `kills` says whether a refusal spends the code, `takes` which wrong ones it accepts. */
function tenant(o: { kills: boolean; takes?: string[] }) {
  let next = 0;
  const live = new Set<string>();
  const metDead: string[] = [];
  const answer = (ok: boolean): TokenAnswer => {
    const ex = received({
      request: { method: 'POST', url: 'http://t/token', headers: {} },
      status: ok ? 200 : 400,
      headers: {},
      text: '',
      body: ok ? { access_token: 'a', token_type: 'Bearer' } : { error: 'invalid_grant' },
    } as RawExchange);
    return { ex, accessToken: ok ? 'a' : null, refreshToken: null, tokenType: ok ? 'Bearer' : null };
  };
  const present = (code: string, wrong: string | null): TokenAnswer => {
    if (!live.has(code)) {
      if (wrong) metDead.push(wrong);
      return answer(false);
    }
    const ok = wrong === null || (o.takes ?? []).includes(wrong);
    if (ok || o.kills) live.delete(code);
    return answer(ok);
  };
  return {
    metDead,
    fresh: async () => {
      const c = `code-${next++}`;
      live.add(c);
      return c;
    },
    genuine: async (c: string) => present(c, null),
    attempt: (id: string) => ({ id, send: async (c: string) => present(c, id) }),
  };
}

const ids = ['downgrade', 'elsewhere', 'no-uri', 'other-client'];

test('codes that survive refusals: one code, every refusal on it, the right exchange after them the twin', async () => {
  const t = tenant({ kills: false });
  const run = await onLiveCredentials({
    first: await t.fresh(),
    fresh: t.fresh,
    genuine: t.genuine,
    attempts: ids.map(t.attempt),
  });
  expect(run.credentials).toBe(1);
  expect([...run.answers.keys()]).toEqual(ids);
  expect(run.twin?.accessToken).toBe('a');
  expect(t.metDead).toEqual([]);
});

test('a tenant that lets a misused code die: each refusal on a code of its own, none on a dead one', async () => {
  const t = tenant({ kills: true });
  const run = await onLiveCredentials({
    first: await t.fresh(),
    fresh: t.fresh,
    genuine: t.genuine,
    attempts: ids.map(t.attempt),
  });
  expect(run.answers.size).toBe(ids.length);
  for (const id of ids) expect(run.answers.get(id)?.ex.status, id).toBe(400);
  // Each answer kept was its code's first presentation; the dead-code answers were sent again.
  expect(run.twinCredential, 'a fresh code exchanged right is the twin').not.toBeNull();
  expect(run.credentials).toBe(ids.length + 1);
});

test('a downgrade taken spends the code: the exchange without redirect_uri is sent again on a fresh one, and taken there too', async () => {
  const t = tenant({ kills: false, takes: ['downgrade', 'no-uri'] });
  const run = await onLiveCredentials({
    first: await t.fresh(),
    fresh: t.fresh,
    genuine: t.genuine,
    attempts: ids.map(t.attempt),
  });
  expect(run.answers.get('downgrade')?.ex.status).toBe(200);
  expect(run.answers.get('no-uri')?.ex.status, 'judged on a live code: taken').toBe(200);
  expect(run.answers.get('elsewhere')?.ex.status).toBe(400);
  expect(run.answers.get('other-client')?.ex.status).toBe(400);
  expect(run.twin?.accessToken).toBe('a');
});

test('no fresh code for a re-run: that attempt has no answer (its clause is not judged on a dead code)', async () => {
  const t = tenant({ kills: true });
  let given = 0;
  const run = await onLiveCredentials({
    first: await t.fresh(),
    fresh: async () => (given++ < 1 ? t.fresh() : null),
    genuine: t.genuine,
    attempts: ids.map(t.attempt),
  });
  expect([...run.answers.keys()]).toEqual(['downgrade', 'elsewhere']);
});
