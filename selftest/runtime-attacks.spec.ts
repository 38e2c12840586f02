// The attack catalogue (lib/auth/attacks/): each JWT attack is what its row says — verifiable
// only the way the attack intends, never with the tenant's real key — the table covers every
// carrier × attack with a cited clause, and the report reads the records back.
import { test, expect } from '@playwright/test';
import { createHmac } from 'node:crypto';
import { SignJWT, compactVerify, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import { JWT_ATTACKS, JWT_CLAUSES, pemOf } from '../lib/auth/attacks/jwt.ts';
import { ATTACK_ROWS, CARRIERS, citationOf } from '../lib/auth/attacks/catalogue.ts';
import { attackerKeys, closeAttackerHost } from '../lib/auth/attacks/attacker-keys.ts';
import { madeUpCode, madeUpLike } from '../lib/auth/attacks/grants.ts';
import { attacksOf, parseAttack } from '../reporters/attacks.ts';
import { hasClause } from '../contract/clauses.ts';
import { MUTANTS } from '../mutation/mutants.ts';

let genuine: string;
let other: string;
let published: JWK;
let tenantKey: Awaited<ReturnType<typeof generateKeyPair>>;

test.beforeAll(async () => {
  tenantKey = await generateKeyPair('RS256', { extractable: true });
  published = { ...(await exportJWK(tenantKey.publicKey)), kid: 'tenant-1', alg: 'RS256', use: 'sig' };
  const sign = (claims: Record<string, unknown>) =>
    new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: 'tenant-1', typ: 'JWT' }).sign(tenantKey.privateKey);
  genuine = await sign({ iss: 'https://tenant.test/', sub: 'a', exp: Math.floor(Date.now() / 1000) + 600 });
  other = await sign({ iss: 'https://tenant.test/', sub: 'b', exp: Math.floor(Date.now() / 1000) + 600 });
});

test.afterAll(() => closeAttackerHost());

const made = async (id: string): Promise<string> => {
  const t = await JWT_ATTACKS.find((a) => a.id === id)!.make(genuine, { published, other });
  if (typeof t !== 'string') throw new Error(t.notMade);
  return t;
};

test('no JWT attack verifies with the tenant key it impersonates', async () => {
  for (const a of JWT_ATTACKS) {
    const t = await made(a.id);
    await expect(compactVerify(t, tenantKey.publicKey), a.id).rejects.toThrow();
  }
});

test('unsigned attacks carry the alg they name, with and without the trailing dot', async () => {
  for (const [id, alg, dots] of [
    ['unsigned-none', 'none', 2],
    ['unsigned-none-no-dot', 'none', 1],
    ['unsigned-None', 'None', 2],
    ['unsigned-NONE', 'NONE', 2],
    ['unsigned-NONE-no-dot', 'NONE', 1],
  ] as const) {
    const t = await made(id);
    const header = JSON.parse(Buffer.from(t.split('.')[0]!, 'base64url').toString()) as { alg: string };
    expect(header.alg, id).toBe(alg);
    expect(t.split('.').length - 1, id).toBe(dots);
    expect(t.endsWith('.') || dots === 1, id).toBe(true);
  }
});

test('the HMAC attacks are keyed with the published key in the form their row names', async () => {
  const pem = pemOf(published);
  expect(pem.endsWith('\n')).toBe(true);
  const mac = (t: string, alg: string, key: string) =>
    createHmac(alg, key)
      .update(t.slice(0, t.lastIndexOf('.')))
      .digest('base64url') === t.slice(t.lastIndexOf('.') + 1);
  expect(mac(await made('hmac-hs256-pem'), 'sha256', pem)).toBe(true);
  expect(mac(await made('hmac-hs256-pem-no-newline'), 'sha256', pem.slice(0, -1))).toBe(true);
  expect(mac(await made('hmac-hs256-pem-no-newline'), 'sha256', pem)).toBe(false);
  expect(mac(await made('hmac-hs256-jwk-json'), 'sha256', JSON.stringify(published))).toBe(true);
  expect(mac(await made('hmac-hs512-pem'), 'sha512', pem)).toBe(true);
  const noKey = await JWT_ATTACKS.find((a) => a.id === 'hmac-hs256-pem')!.make(genuine, { published: null, other });
  expect(noKey).toEqual({ notMade: expect.stringMatching(/^not made/) });
});

test('embedded and remote keys verify with the attacker key they carry or name, and the host counts fetches', async () => {
  const embedded = await made('embedded-jwk');
  const jwk = decodeProtectedHeader(embedded).jwk!;
  expect((jwk as Record<string, unknown>).d).toBeUndefined();
  await compactVerify(embedded, await importJWK(jwk, 'RS256'));
  const k = await attackerKeys();
  const jku = await made('jku');
  expect(decodeProtectedHeader(jku).jku).toBe(k.jku);
  const before = k.fetches().jku;
  const set = (await (await fetch(k.jku)).json()) as { keys: JWK[] };
  expect(k.fetches().jku).toBe(before + 1);
  await compactVerify(jku, await importJWK(set.keys[0]!, 'RS256'));
  expect(decodeProtectedHeader(await made('x5u')).x5u).toBe(k.x5u);
});

test('signature attacks keep or borrow what their row says', async () => {
  const cut = (t: string) => t.slice(0, t.lastIndexOf('.'));
  const stripped = await made('signature-stripped');
  expect(stripped).toBe(`${cut(genuine)}.`);
  const borrowed = await made('signature-borrowed');
  expect(cut(borrowed)).toBe(cut(genuine));
  expect(borrowed.slice(borrowed.lastIndexOf('.'))).toBe(other.slice(other.lastIndexOf('.')));
  const tampered = await made('claims-tampered');
  expect(tampered.slice(tampered.lastIndexOf('.'))).toBe(genuine.slice(genuine.lastIndexOf('.')));
  expect(cut(tampered)).not.toBe(cut(genuine));
});

test('the table: every row is a carrier × attack with a cited must clause, every JWT class on every JWT carrier', () => {
  const ids = ATTACK_ROWS.map((r) => r.id);
  expect(new Set(ids).size).toBe(ids.length);
  for (const r of ATTACK_ROWS) {
    expect(CARRIERS[r.carrier], r.id).toBeDefined();
    expect(hasClause(r.clause), r.id).toBe(true);
    expect(citationOf(r), r.id).not.toBe('');
  }
  for (const carrier of ['management-token', 'user-token', 'client-assertion'] as const)
    for (const a of JWT_ATTACKS) expect(ids).toContain(`${carrier}/${a.id}`);
});

test('every attack clause has a faulty variant labelled with it', () => {
  const labelled = new Set(MUTANTS.map((m) => m.clause));
  for (const c of [...JWT_CLAUSES, ...new Set(ATTACK_ROWS.map((r) => r.clause))]) expect(labelled.has(c), c).toBe(true);
});

test('made-up refresh tokens and codes keep the genuine shape and are never the genuine value', async () => {
  const opaque = 'AbC-def_0123456789xyz';
  const fake = await madeUpLike(opaque);
  expect(fake).toHaveLength(opaque.length);
  expect(fake).not.toBe(opaque);
  expect(decodeProtectedHeader(await madeUpLike(genuine)).alg).toBe('none');
  const code = madeUpCode('123456');
  expect(code).toMatch(/^\d{6}$/);
  expect(code).not.toBe('123456');
});

test('the report reads attack records back, sorted by carrier, and refuses malformed ones', () => {
  const rec = {
    row: 'user-token/jku',
    carrier: "User's access token",
    attack: 'jku',
    clause: 'auth.sec.jwt.remote-key',
    citation: 'RFC 8725 §3.10',
    what: 'a jku header',
    status: 401,
    error: 'invalid_token',
    outcome: 'refused',
  };
  const parsed = parseAttack(JSON.stringify(rec));
  expect(parsed).toEqual(rec);
  expect(parseAttack(JSON.stringify({ ...rec, outcome: 'maybe' }))).toBeNull();
  expect(parseAttack('not json')).toBeNull();
  const list = attacksOf([
    { title: 't2', file: 'b.ts', status: 'passed', clauses: [], checks: [], attacks: [parsed!] },
    {
      title: 't1',
      file: 'a.ts',
      status: 'passed',
      clauses: [],
      checks: [],
      attacks: [{ ...parsed!, carrier: 'Client assertion', row: 'client-assertion/jku' }],
    },
  ]);
  expect(list.map((a) => a.row)).toEqual(['client-assertion/jku', 'user-token/jku']);
  expect(list[1]!.test).toBe('b.ts › t2');
});
