// The oidc-provider leg (docs/interop.md): the OpenID Certified Node.js provider, installed from
// npm into interop/.cache/oidc-provider/ at a pinned version, run by our own server.mjs with its
// shipped development login and consent pages. What it does not offer is declared, never guessed:
// no password grant (it implements none), no response_type=token (RFC 6749 §4.2; its implicit
// flows return an ID token), none of the service's own endpoints (passwordless, SAML, WS-Fed,
// delegation) and no mTLS behind the service's edge headers (no mTLS client: interop/leg.ts).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type InteropLeg, type RunningServer, suiteEnv } from '../leg.ts';
import { stopChild, waitForUrl } from '../process.ts';

/** The version the matrix was last judged on (docs/interop.md); a new one is a deliberate change. */
const VERSION = '9.13.3';
const HERE = fileURLToPath(new URL('.', import.meta.url));
const CACHE = fileURLToPath(new URL('../.cache/oidc-provider/', import.meta.url));
const MODULE = join(CACHE, 'node_modules', 'oidc-provider', 'lib', 'index.js');

const secret = (): string => randomBytes(24).toString('base64url');

const leg: InteropLeg = {
  name: 'oidc-provider',

  async prepare(log) {
    if (installedVersion() === VERSION) return log(`oidc-provider ${VERSION} already in ${CACHE}`);
    mkdirSync(CACHE, { recursive: true });
    log(`npm install oidc-provider@${VERSION} into ${CACHE}`);
    await promisify(execFile)(
      'npm',
      ['install', '--prefix', CACHE, '--no-audit', '--no-fund', '--no-save', `oidc-provider@${VERSION}`],
      { timeout: 300_000 },
    );
    if (installedVersion() !== VERSION) throw new Error(`npm did not install oidc-provider ${VERSION} into ${CACHE}`);
  },

  async start(portBase, log) {
    const port = portBase;
    const issuer = `http://127.0.0.1:${port}`;
    // The private_key_jwt client's key, owner-only in the cache; made anew at every start.
    const runDir = join(CACHE, 'run');
    rmSync(runDir, { recursive: true, force: true });
    mkdirSync(runDir, { recursive: true, mode: 0o700 });
    const client = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyFile = join(runDir, 'pkjwt.private.pem');
    writeFileSync(keyFile, client.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    const signing = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const settings = {
      post: { id: 'interop-post', secret: secret() },
      // A secret with characters RFC 6749 §2.3.1's form-encoding changes, as an admin may choose one.
      basic: { id: 'interop-basic', secret: `${secret()}:+ %&=` },
      pkjwt: { id: 'interop-pkjwt', publicJwk: { ...client.publicKey.export({ format: 'jwk' }), use: 'sig' } },
      publicClientId: 'interop-spa',
      users: [
        { username: 'interop-user@example.test', password: secret(), name: 'Interop User' },
        { username: 'interop-lockout@example.test', password: secret(), name: 'Interop Lockout' },
      ],
      redirectUri: 'https://app.interop.test/callback',
      logoutReturnTo: 'https://app.interop.test/logged-out',
    };
    const [user, lockout] = settings.users as [(typeof settings.users)[0], (typeof settings.users)[0]];
    let child: ChildProcess | null = spawn(process.execPath, [join(HERE, 'server.mjs')], {
      env: {
        PATH: process.env.PATH ?? '',
        NODE_ENV: 'production',
        OIDC_LEG_CONFIG: JSON.stringify({
          ...settings,
          module: MODULE,
          issuer,
          port,
          signingJwk: { ...signing.privateKey.export({ format: 'jwk' }), use: 'sig', kid: `sig-${port}` },
        }),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    const keep = (b: Buffer) => output.push(...b.toString().split('\n').filter(Boolean).slice(-20));
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    const server: RunningServer = {
      env: suiteEnv({
        authUrl: issuer,
        clients: { post: settings.post, basic: settings.basic, pkjwt: { id: settings.pkjwt.id, keyFile } },
        publicClientId: settings.publicClientId,
        user,
        lockout,
        redirectUri: settings.redirectUri,
        logoutReturnTo: settings.logoutReturnTo,
        notOffered: ['password', 'implicit', 'passwordless', 'saml', 'wsfed', 'delegation'],
      }),
      async stop() {
        const c = child;
        child = null;
        if (c) await stopChild(c);
        rmSync(runDir, { recursive: true, force: true });
      },
    };
    try {
      await waitForUrl(`${issuer}/.well-known/openid-configuration`, 20_000, () => child?.exitCode ?? null);
    } catch (e) {
      await server.stop();
      throw new Error(`oidc-provider did not start: ${(e as Error).message}\n${output.join('\n')}`);
    }
    log(`oidc-provider ${VERSION} on ${issuer}`);
    return server;
  },
};
export default leg;

function installedVersion(): string | null {
  const pkg = join(CACHE, 'node_modules', 'oidc-provider', 'package.json');
  if (!existsSync(pkg)) return null;
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version?: string }).version ?? null;
}
