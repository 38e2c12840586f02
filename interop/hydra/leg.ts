// The Ory Hydra leg of the interop matrix (docs/interop.md): Hydra built from the Go module proxy,
// run on loopback with a SQLite database, its clients created through the admin API as a
// tenant admin would, and our login and consent app (login-app.ts) as the pages Hydra sends the
// browser to. Ports: portBase Hydra's public API (the issuer), +1 its admin API, +2 the login app.
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { type InteropLeg, type RunningServer, suiteEnv } from '../leg.ts';
import { adminOf } from './admin.ts';
import { CACHE_DIR, HYDRA_VERSION, prepareHydra } from './build.ts';
import { createClients } from './clients.ts';
import { type AppUser, startLoginApp } from './login-app.ts';
import { startHydra } from './server.ts';
import { randomBytes } from 'node:crypto';

/**
 * What Hydra does not offer: the resource-owner password grant (the open-source server registers
 * no handler for it; its discovery lists none), passwordless start, Auth0's SAML callback and
 * WS-Federation, delegation; and mTLS as the spec's edge makes it (an API key beside the
 * certificate), which follows from the leg having no mTLS client (interop/leg.ts).
 */
const NOT_OFFERED = ['password', 'passwordless', 'saml', 'wsfed', 'delegation'] as const;

const leg: InteropLeg = {
  name: 'hydra',
  prepare: prepareHydra,
  async start(portBase, log): Promise<RunningServer> {
    const runDir = join(CACHE_DIR, 'run');
    rmSync(runDir, { recursive: true, force: true });
    mkdirSync(runDir, { recursive: true, mode: 0o700 });
    const admin = adminOf(`http://127.0.0.1:${portBase + 1}`);
    const users: [AppUser, AppUser] = [
      { username: 'interop-user@example.test', password: secret(), name: 'Interop User' },
      { username: 'interop-lockout@example.test', password: secret(), name: 'Interop Lockout' },
    ];
    const stops: (() => Promise<void>)[] = [];
    let stopping: Promise<void> | null = null;
    const stop = () =>
      (stopping ??= (async () => {
        for (const s of stops.reverse()) await s();
        rmSync(join(runDir, 'pkjwt.private.pem'), { force: true });
      })());
    try {
      const started = Date.now();
      const app = await startLoginApp(portBase + 2, admin, users);
      stops.push(app.stop);
      const hydra = await startHydra({ public: portBase, admin: portBase + 1 }, app.url);
      stops.push(hydra.stop);
      log(`hydra ${HYDRA_VERSION}: ready on ${hydra.url} in ${Math.round((Date.now() - started) / 1000)} s`);
      // A web app's URIs, not a loopback one (whose port Hydra lets vary, RFC 8252 §7.3): the
      // browser catches them, nothing resolves or listens there.
      const plan = {
        issuer: hydra.url,
        redirectUri: 'https://app.interop.test/callback',
        logoutReturnTo: 'https://app.interop.test/logged-out',
        keyFile: join(runDir, 'pkjwt.private.pem'),
      };
      const clients = await createClients(admin, plan);
      log(`hydra: clients created; login and consent app on ${app.url}`);
      const [user, lockout] = users;
      return {
        env: suiteEnv({
          authUrl: hydra.url,
          clients: {
            post: clients.post,
            basic: clients.basic,
            pkjwt: { id: clients.pkjwtClientId, keyFile: plan.keyFile },
          },
          publicClientId: clients.publicClientId,
          user,
          lockout,
          redirectUri: plan.redirectUri,
          logoutReturnTo: plan.logoutReturnTo,
          notOffered: NOT_OFFERED,
        }),
        stop,
      };
    } catch (e) {
      await stop();
      throw e;
    }
  },
};
export default leg;

function secret(): string {
  return randomBytes(24).toString('base64url');
}
