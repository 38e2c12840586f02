// The embedded reference tenant's documented dev credentials and seeded resources, written
// once on the suite side (the reference tenant keeps its own copy: it is the other
// implementation). The declarations take their embedded defaults from here, and through them
// (explain.ts embeddedEnv) the mutation harness its settings for a launched variant (mutation/suite.ts).
import { fileURLToPath } from 'node:url';

const devKey = (file: string): string => fileURLToPath(new URL(`../../reference/dev-keys/${file}`, import.meta.url));

export const EMBEDDED = {
  host: '127.0.0.1',
  client: { id: 'conformance-full', secret: 'dev-secret-full-0123456789' },
  limited: { id: 'conformance-limited', secret: 'dev-secret-limited-0123456789' },
  resourceServerId: 'rs_conformance',
  featureFlagId: 'flg_7Hq2kPzR',
  variationIds: ['var_control', 'var_treatment'],
  /** The reference tenant takes any segment id string (reference/README.md). */
  segmentIds: ['seg_conformance_a', 'seg_conformance_b'],
  pkjwtClientId: 'conformance-pkjwt',
  pkjwtKeyFile: devKey('conformance-pkjwt.private.pem'),
  // Authentication-API dev credentials of the reference tenant (documented, not secret).
  post: { id: 'conformance-post', secret: 'dev-secret-post-0123456789' },
  basic: { id: 'conformance-basic', secret: 'dev-secret:basic+0123456789 %&=' },
  publicClientId: 'conformance-spa',
  mtls: {
    id: 'conformance-mtls',
    apiKey: 'dev-cname-api-key-0123456789',
    certFile: devKey('conformance-mtls.cert.pem'),
  },
  mtlsCa: { id: 'conformance-mtls-ca', certFile: devKey('conformance-mtls-ca.cert.pem') },
  user: {
    username: 'conformance-user@example.test',
    password: 'dev-password-0123456789!',
    connection: 'Username-Password-Authentication',
  },
  lockout: { username: 'conformance-lockout@example.test', password: 'dev-password-lockout-0123!' },
  redirectUri: 'https://app.conformance.test/callback',
  logoutReturnTo: 'https://app.conformance.test/logged-out',
  passwordlessEmail: 'conformance-user@example.test',
  passwordlessPhone: '+15555550100',
  passwordlessOutboxPath: '/dev/outbox',
  samlConnection: 'conformance-saml',
} as const;
