// lib/curl.ts: the reproduction printed with every failure must be runnable as pasted and
// must not carry a bearer token the tenant issued, while a credential the suite forged is
// printed as sent (lib/credential-origin.ts). "Shell-safe" is judged by the shell itself: bash
// parses the command with `curl` replaced by a function that prints its arguments, and the
// arguments must be exactly what the request held (after redaction). One case also runs the
// real curl against a local server and compares what arrived.
import { spawn, spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { expect, test } from '@playwright/test';
import { forgedCredential, renderCurl, shellQuote, type CurlRequest } from '../lib/curl.ts';
import { createRedactor } from '../lib/redact.ts';
import { alterToken, forgeExpired, forgeLike, MALFORMED_TOKENS } from '../lib/auth/forge.ts';
import { JWT_ATTACKS } from '../lib/auth/attacks/jwt.ts';
import { INVALID_CREDENTIALS, type CredentialContext } from '../lib/credentials.ts';
import type { Config } from '../lib/config.ts';

const SECRET = 'idmc-selftest-curl-secret-77';
const TOKEN = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJjb25mb3JtYW5jZS1mdWxsIn0.c2lnbmF0dXJlLWJ5dGVzLXNlbGZ0ZXN0';
const ENV_TOKEN = 'token-from-the-environment';
const redactor = () => createRedactor([SECRET, TOKEN]);
/** Tokens the tenant issued (any value: only their origin counts). */
const EXPIRED_BY_TENANT = 'eyJhbGciOiJSUzI1NiJ9.eyJleHAiOjF9.ZXhwaXJlZC1ieS10aGUtdGVuYW50';
const ISSUED_ELSEWHERE = 'eyJhbGciOiJSUzI1NiJ9.eyJhdWQiOiJ4In0.aXNzdWVkLWZvci1hbm90aGVyLWF1ZGllbmNl';
/** A published public key for the HMAC confusion attack (its value only keys the HMAC). */
const PUBLIC_JWK = {
  kty: 'RSA',
  n: 'sXchDaQebHnPiGvyDOAT4saGEUetSyo9MKLOoWFsueri23bOdgWp4Dy1WlUzewbgBHod5pcM9H95GQRV3JDXboIRROSBigeC5yjU1hGzHHyXss8UDprecbAYxknTcQkhslANGRUZmdTOQ5qTRsLAt6BTYuyvVRdhS8exSZEy_c4gs_7svlJJQ4H9_NxsiIoLwAEk7-Q3UXERGYw_75IDrGA84-lA_-Ct4eTlXHBIY2EaV7t7LjJaynVJCpkv4LKjTTAumiGUIuQhrNhZLuF_RJLqHpM2kgWFLU7-VTdL1VbC2tejvcI2BlMkEpk1BzBZI0KQB0GaDWFLN-aEAw3vRw',
  e: 'AQAB',
};

/** The arguments bash passes to `curl` for a rendered command (curl is a function here). */
function shellArgs(command: string): string[] {
  const script = `curl() { printf '%s\\0' "$@"; }\n${command}\n`;
  const r = spawnSync('bash', ['-c', script], {
    env: { PATH: process.env.PATH, IDM_ACCESS_TOKEN: ENV_TOKEN },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`bash could not run the command (${r.status}): ${r.stderr}\n${command}`);
  const parts = r.stdout.split('\0');
  parts.pop(); // after the last NUL
  return parts;
}

/** What the arguments must be for a request, given the redacted values. */
function expectedArgs(req: CurlRequest, token = ENV_TOKEN): string[] {
  const r = redactor();
  const out = ['-sS', '-i', '-X', req.method.toUpperCase(), r.text(req.url)];
  for (const [k, v] of Object.entries(req.headers)) {
    if (k.toLowerCase() === 'authorization')
      out.push(
        '-H',
        /^bearer\s/i.test(v)
          ? `Authorization: Bearer ${token}`
          : `Authorization: ${/^(\w+)\s/.exec(v)?.[1] ?? 'Bearer'} <redacted>`,
      );
    else out.push('-H', `${k}: ${r.text(v)}`);
  }
  if (req.body !== undefined) out.push('--data-raw', r.text(req.body));
  return out;
}

const CASES: Array<{ title: string; req: CurlRequest; contains?: string[]; absent?: string[] }> = [
  {
    title: 'a PATCH with a bearer token reads the token from $IDM_ACCESS_TOKEN',
    req: {
      method: 'PATCH',
      url: 'http://127.0.0.1:4810/api/v2/resource-servers/rs_conformance',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"name":"x"}',
    },
    contains: ['"Authorization: Bearer $IDM_ACCESS_TOKEN"'],
    absent: [TOKEN],
  },
  {
    title: 'a single quote in the body is escaped',
    req: {
      method: 'PATCH',
      url: 'http://127.0.0.1:4810/api/v2/resource-servers/rs_1',
      headers: { 'content-type': 'application/json' },
      body: `{"name":"O'Brien's API"}`,
    },
    contains: [`'\\''`],
  },
  {
    title: 'shell metacharacters in the body stay literal',
    req: {
      method: 'POST',
      url: 'http://127.0.0.1:4810/x',
      headers: {},
      body: '$(touch /tmp/idm-pwned) `id` $HOME ; | & > < * ? ! \\ "',
    },
  },
  {
    title: 'a multi-line body',
    req: {
      method: 'POST',
      url: 'http://127.0.0.1:4810/x',
      headers: { 'content-type': 'text/plain' },
      body: 'line1\nline2\r\n\ttab',
    },
  },
  {
    title: 'a percent-encoded identifier in the path',
    req: {
      method: 'patch',
      url: 'http://127.0.0.1:4810/api/v2/resource-servers/https%3A%2F%2Fapi.conformance.test%2F',
      headers: {},
    },
  },
  {
    title: 'a client secret in a form body is masked',
    req: {
      method: 'POST',
      url: 'http://127.0.0.1:4810/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `grant_type=client_credentials&client_id=c&client_secret=${SECRET}`,
    },
    absent: [SECRET],
  },
  {
    title: 'HTTP Basic credentials are masked, scheme kept',
    req: {
      method: 'POST',
      url: 'http://127.0.0.1:4810/oauth/token',
      headers: { Authorization: 'Basic Y29uZm9ybWFuY2UtZnVsbDpzZWNyZXQ=' },
    },
    contains: ["'Authorization: Basic <redacted>'"],
    absent: ['Y29uZm9ybWFuY2UtZnVsbDpzZWNyZXQ='],
  },
  {
    title: 'a bearer credential no forger made is taken for the run token: read from $IDM_ACCESS_TOKEN',
    req: { method: 'PATCH', url: 'http://127.0.0.1:4810/x', headers: { Authorization: 'Bearer not.a.real-token' } },
    contains: ['$IDM_ACCESS_TOKEN'],
    absent: ['not.a.real-token'],
  },
  {
    title: 'an empty body is still sent as --data-raw',
    req: { method: 'PATCH', url: 'http://127.0.0.1:4810/x', headers: {}, body: '' },
    contains: ["--data-raw ''"],
  },
];

test.describe('renderCurl: cases', () => {
  for (const c of CASES) {
    test(c.title, () => {
      const cmd = renderCurl(c.req, redactor());
      expect(cmd.startsWith('curl ')).toBe(true);
      for (const s of c.contains ?? []) expect(cmd).toContain(s);
      for (const s of c.absent ?? []) expect(cmd).not.toContain(s);
      expect(shellArgs(cmd)).toEqual(expectedArgs(c.req));
    });
  }
});

/** The shell's arguments for a request whose Authorization the command shows as `shown`. */
function argsShowing(req: CurlRequest, shown: string): string[] {
  const r = redactor();
  return [
    '-sS',
    '-i',
    '-X',
    req.method,
    r.text(req.url),
    ...Object.entries(req.headers).flatMap(([k, v]) => ['-H', k === 'authorization' ? `Authorization: ${shown}` : v]),
  ];
}

test.describe('renderCurl: forged credentials as sent, issued ones by an environment variable', () => {
  const send = (authorization: string): CurlRequest => ({
    method: 'PATCH',
    url: 'http://127.0.0.1:4810/api/v2/resource-servers/rs_conformance',
    headers: { authorization },
  });

  test('every forger registers what it makes: the command sends exactly that credential', async () => {
    const made = [
      await forgeLike(TOKEN),
      await forgeExpired(TOKEN),
      ...Object.values(MALFORMED_TOKENS),
      ...(await Promise.all(
        JWT_ATTACKS.filter((a) => ['unsigned-none', 'hmac-hs256-pem', 'signature-stripped'].includes(a.id)).map((a) =>
          a.make(TOKEN, { published: PUBLIC_JWK, other: null }),
        ),
      )),
    ];
    for (const credential of made) {
      expect(typeof credential).toBe('string');
      const req = send(`Bearer ${credential as string}`);
      const cmd = renderCurl(req, redactor());
      expect(shellArgs(cmd), cmd).toEqual(argsShowing(req, `Bearer ${credential as string}`));
      expect(forgedCredential(req)).toBe(credential);
    }
  });

  test('a credential carrying the tenant’s signature is the issued one’s: never printed, read from the environment', async () => {
    const tampered = await JWT_ATTACKS.find((a) => a.id === 'claims-tampered')!.make(TOKEN, {
      published: null,
      other: null,
    });
    for (const credential of [TOKEN, alterToken(TOKEN), tampered as string]) {
      const req = send(`Bearer ${credential}`);
      const cmd = renderCurl(req, redactor());
      expect(cmd).not.toContain(credential);
      expect(shellArgs(cmd)).toEqual(argsShowing(req, `Bearer ${ENV_TOKEN}`));
      expect(forgedCredential(req)).toBeNull();
    }
  });

  test('the management credential cases: forged ones as sent; a tenant-issued expired or other-audience token by its own variable', async () => {
    const ctx = (expiredToken: string | null, otherAudience: string | null): CredentialContext => ({
      cfg: { expiredToken } as Config,
      realToken: TOKEN,
      otherAudience,
      tokenFor: async () => ISSUED_ELSEWHERE,
    });
    const shown = async (attack: string, c: CredentialContext) => {
      const { authorization } = await INVALID_CREDENTIALS.find((x) => x.attack === attack)!.build(c);
      return renderCurl(send(authorization!), redactor());
    };
    const forgedOnly = ctx(null, null);
    for (const attack of ['malformed', 'foreign-key', 'expired', 'wrong-audience'])
      expect(await shown(attack, forgedOnly), attack).not.toContain('$IDM_');
    const tenantMade = ctx(EXPIRED_BY_TENANT, 'https://api.conformance.test/');
    expect(await shown('expired', tenantMade)).toContain('"Authorization: Bearer $IDM_EXPIRED_TOKEN"');
    expect(await shown('wrong-audience', tenantMade)).toContain('"Authorization: Bearer $IDM_OTHER_AUDIENCE_TOKEN"');
    for (const secret of [EXPIRED_BY_TENANT, ISSUED_ELSEWHERE])
      for (const attack of ['expired', 'wrong-audience']) expect(await shown(attack, tenantMade)).not.toContain(secret);
  });

  test("the reporter's net spares the forged credential in the command, and only there", async () => {
    const credential = await forgeLike(TOKEN);
    const r = createRedactor([SECRET]);
    const curl = `curl -H 'Authorization: Bearer ${credential}' -H 'x-other: ${TOKEN}' --data-raw ${SECRET}`;
    const kept = r.keeping(curl, credential);
    expect(kept).toContain(credential);
    expect(kept).not.toContain(TOKEN);
    expect(kept).not.toContain(SECRET);
    // A "forged" value holding a known secret is masked like anything else.
    expect(r.keeping(`x ${SECRET}-forged y`, `${SECRET}-forged`)).not.toContain(SECRET);
  });
});

test.describe('shellQuote', () => {
  const QUOTE: Array<[string, string]> = [
    ['plain-word_1.2', 'plain-word_1.2'],
    ['http://h:1/a?b=c,d', `'http://h:1/a?b=c,d'`],
    ["it's", `'it'\\''s'`],
    ['', `''`],
    ['a b', `'a b'`],
    ['$x', `'$x'`],
  ];
  for (const [input, quoted] of QUOTE) {
    test(`${JSON.stringify(input)} → ${quoted}`, () => {
      expect(shellQuote(input)).toBe(quoted);
      expect(shellArgs(`curl ${shellQuote(input)}`)).toEqual([input]);
    });
  }
});

/** Strings rich in what shells care about, plus arbitrary Unicode text (no NUL: argv cannot hold one). */
const shellText = fc
  .array(
    fc.oneof(
      fc.constantFrom(
        "'",
        '"',
        '$',
        '`',
        '\\',
        '!',
        '\n',
        ' ',
        '*',
        ';',
        '$(id)',
        "'\\''",
        '%27',
        '#',
        '~',
        '{a,b}',
        '\t',
      ),
      fc.string({ unit: 'grapheme', maxLength: 8 }),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join('').replace(/\0/g, ''));

// Spawning bash from a Playwright worker costs ~0.2 s here, so the generated cases (fixed
// seed, data) go through one bash and are compared one by one; a mismatch names its case.
test('property: bash reads back exactly the (redacted) body, URL path and header values', () => {
  const arb = fc.record({
    method: fc.constantFrom('GET', 'PATCH', 'POST', 'delete'),
    path: shellText,
    header: shellText,
    body: fc.option(shellText, { nil: undefined }),
    bearer: fc.boolean(),
  });
  const samples = fc.sample(arb, { numRuns: 150, seed: 20261122 });
  const reqs: CurlRequest[] = samples.map((v) => ({
    method: v.method,
    url: `http://127.0.0.1:4810/api/v2/${v.path}`,
    headers: { 'x-case': v.header, ...(v.bearer ? { authorization: `Bearer ${TOKEN}` } : {}) },
    ...(v.body !== undefined ? { body: v.body } : {}),
  }));
  const cmds = reqs.map((r) => renderCurl(r, redactor()));
  for (const c of cmds) expect(c).not.toContain(TOKEN);
  // Each command's arguments, then an end marker argument.
  const args = shellArgs(cmds.map((c) => `${c}; printf '%s\\0' '<end>'`).join('\n'));
  const perCommand: string[][] = [[]];
  for (const a of args) a === '<end>' ? perCommand.push([]) : perCommand[perCommand.length - 1]!.push(a);
  perCommand.pop();
  expect(perCommand).toHaveLength(reqs.length);
  reqs.forEach((req, i) => {
    expect(perCommand[i], `case ${i}: ${JSON.stringify(samples[i])}`).toEqual(expectedArgs(req));
    // Without anything secret-looking in it, the body comes back unchanged.
    if (req.body !== undefined && redactor().text(req.body) === req.body) expect(perCommand[i]!.at(-1)).toBe(req.body);
  });
});

test('the rendered command runs: real curl delivers method, path, headers and body bytes to a local server', async () => {
  const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: string }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({
        method: req.method!,
        url: req.url!,
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(201, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  try {
    const port = (server.address() as AddressInfo).port;
    const body = `{"name":"O'Brien \\"quoted\\" $(id) \`x\` ünïcødé","token_lifetime":3600}`;
    const req: CurlRequest = {
      method: 'PATCH',
      url: `http://127.0.0.1:${port}/api/v2/resource-servers/https%3A%2F%2Fapi.conformance.test%2F`,
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'x-note': "it's" },
      body,
    };
    const cmd = renderCurl(req, redactor());
    const out = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn('bash', ['-c', cmd], { env: { PATH: process.env.PATH, IDM_ACCESS_TOKEN: ENV_TOKEN } });
      let stdout = '';
      child.stdout.on('data', (d) => (stdout += d));
      child.on('close', (code) => resolve({ code, stdout }));
    });
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^HTTP\/1\.1 201/);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      method: 'PATCH',
      url: '/api/v2/resource-servers/https%3A%2F%2Fapi.conformance.test%2F',
      body,
    });
    expect(seen[0]!.headers).toMatchObject({
      authorization: `Bearer ${ENV_TOKEN}`,
      'content-type': 'application/json',
      'x-note': "it's",
    });
  } finally {
    await new Promise((r) => server.close(r));
  }
});
