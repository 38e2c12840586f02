// The Keycloak leg of the interop matrix: Keycloak's Quarkus distribution from Maven Central, run
// in dev mode on loopback with a realm set up as a tenant admin would, and the settings that
// point the suite's authentication half at that realm (every endpoint from its discovery document).
import { join } from 'node:path';
import { type InteropLeg, type RunningServer, suiteEnv } from '../leg.ts';
import { adminOf } from './admin.ts';
import { CACHE_DIR, KEYCLOAK_VERSION, prepareDistribution } from './distribution.ts';
import { configureRealm, REALM, warmUp } from './realm.ts';
import { startKeycloak } from './server.ts';

/**
 * What Keycloak does not offer: passwordless start, Auth0's SAML callback and WS-Federation,
 * delegation; and mTLS as the spec's edge makes it (an API key beside the certificate), which
 * follows from the leg having no mTLS client (interop/leg.ts).
 */
const NOT_OFFERED = ['passwordless', 'saml', 'wsfed', 'delegation'] as const;

const leg: InteropLeg = {
  name: 'keycloak',
  prepare: prepareDistribution,
  async start(portBase, log): Promise<RunningServer> {
    const started = Date.now();
    const kc = await startKeycloak(portBase, portBase + 1);
    log(`keycloak ${KEYCLOAK_VERSION}: ready on ${kc.url} in ${Math.round((Date.now() - started) / 1000)} s`);
    try {
      // A loopback port of the leg's range that nothing listens on: the browser catches the redirect.
      const app = `http://127.0.0.1:${portBase + 9}`;
      const plan = {
        redirectUri: `${app}/callback`,
        logoutReturnTo: `${app}/logged-out`,
        keyFile: join(CACHE_DIR, 'run', 'pkjwt.private.pem'),
      };
      const realm = await configureRealm(await adminOf(kc.url, kc.admin), plan);
      const realmUrl = `${kc.url}/realms/${REALM}`;
      await warmUp(realmUrl, plan, realm);
      log(`keycloak: realm ${REALM} configured (clients, users, brute-force detection), its login page rendered once`);
      return {
        env: suiteEnv({
          authUrl: realmUrl,
          clients: {
            post: realm.post,
            basic: realm.basic,
            pkjwt: { id: realm.pkjwtClientId, keyFile: plan.keyFile },
          },
          publicClientId: realm.publicClientId,
          user: { username: realm.user.id, password: realm.user.secret },
          lockout: { username: realm.lockout.id, password: realm.lockout.secret },
          redirectUri: plan.redirectUri,
          logoutReturnTo: plan.logoutReturnTo,
          notOffered: NOT_OFFERED,
        }),
        stop: kc.stop,
      };
    } catch (e) {
      await kc.stop();
      throw e;
    }
  },
};

export default leg;
