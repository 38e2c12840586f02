// The settings that shape the API's token (§1, §2.1, §2.3): its lifetime, signature, dialect,
// encryption and scopes. Each row writes settings on the configured resource server, obtains a
// client-credentials token for the API's identifier, and judges that token with jose: a JWS against
// the tenant's published keys or the signing secret the run wrote, a JWE decrypted with the key pair
// the run made (lib/api-tokens/rows.ts).
import { randomBytes } from 'node:crypto';
import { test } from '../../lib/fixtures.ts';
import { clauseSkip } from '../../lib/skip-record.ts';
import { recorded } from '../../lib/management/recorded.ts';
import { ENCRYPTION_ALG, encryptionKeys } from '../../lib/api-tokens/keys.ts';
import { clientCredentials } from '../../lib/api-tokens/asks.ts';
import { declared, lifetimeAbove, on, row, runRows, type Room } from '../../lib/api-tokens/rows.ts';
import {
  defaultsOf,
  encryptedAsConfigured,
  lifetimeOf,
  onlyDefinedScopes,
  permissionsAdded,
  plainDialect,
  rfc9068Dialect,
  signedWithAlg,
  signedWithSecret,
  tokenLifetime,
} from '../../lib/api-tokens/conditions.ts';

const signed = (alg: string) => on(signedWithAlg, async (t, r: Room) => ({ t, alg, keys: await r.keys() }));

const ROWS = [
  // The API's token before anything is written: what the tenant issues, and the twin of every row.
  row({
    id: 'before',
    twin: true,
    judge: [on(recorded('rs.settings.defaults'), defaultsOf)],
  }),
  // A symmetric signature, a lifetime of its own and the RFC 9068 profile, in one token.
  row({
    id: 'hs256',
    write: (r) => ({
      token_lifetime: lifetimeAbove(r.rs, 17),
      signing_alg: 'HS256',
      signing_secret: r.redact(`idm-${randomBytes(18).toString('base64url')}`),
      token_dialect: 'rfc9068_profile',
    }),
    issued: true,
    judge: [
      on(tokenLifetime, (t, r) => lifetimeOf(t, r.written.token_lifetime as number)),
      signed('HS256'),
      on(signedWithSecret, (t, r) =>
        t.read?.jws?.header.alg === 'HS256'
          ? { t, secret: r.written.signing_secret as string }
          : clauseSkip(
              'rs.settings.signing_alg',
              'not judged: the token is not signed HS256 (rs.settings.signing_alg)',
            ),
      ),
      on(rfc9068Dialect),
    ],
  }),
  // §2.1, RFC 6749 §3.3: the API's scopes written without a value the token before carried, that
  // value and one nobody defines asked for: neither comes back (dropped or invalid_scope).
  row({
    id: 'scopes',
    write: (r) => (scopesHeld(r).dropped ? { scopes: scopesHeld(r).defined } : null),
    ask: clientCredentials({ scope: (r) => [scopesHeld(r).dropped, MADE_UP].filter(Boolean).join(' ') }),
    judge: [
      on(onlyDefinedScopes, (t, r) => ({
        t,
        defined: scopesHeld(r).defined.map((s) => s.value),
        undefinedAsked: MADE_UP,
      })),
    ],
  }),
  // An asymmetric signature of another alg, the RBAC dialect and encryption to the run's key.
  row({
    id: 'authz',
    write: async () => ({
      signing_alg: 'RS512',
      token_dialect: 'access_token_authz',
      enforce_policies: true,
      token_encryption: {
        format: 'compact-nested-jwe',
        encryption_key: {
          name: 'idm-conformance',
          alg: ENCRYPTION_ALG,
          kid: `idm-${randomBytes(6).toString('hex')}`,
          pem: (await encryptionKeys()).pem,
        },
      },
    }),
    issued: true,
    also: ['rs.settings.token_dialect.authz'],
    judge: [on(encryptedAsConfigured, (t, r) => ({ t, alg: ENCRYPTION_ALG, kid: kidOf(r) })), signed('RS512')],
  }),
  // Encryption off again, the default asymmetric alg and the plain dialect the RBAC one adds to.
  row({
    id: 'plain',
    write: { token_encryption: null, signing_alg: 'RS256', token_dialect: 'access_token', enforce_policies: true },
    issued: true,
    judge: [
      on(encryptedAsConfigured, (t, r) => (r.token('authz') ? { t, off: true as const } : null)),
      signed('RS256'),
      on(plainDialect),
      on(permissionsAdded, (t, r) => {
        const authz = r.token('authz');
        return authz?.read?.jws && t.read ? { authz, plain: t.read } : null;
      }),
    ],
  }),
  // PS256 is "available through an add-on" (§2.3): a tenant without it refuses the write (its own).
  row({
    id: 'ps256',
    write: { signing_alg: 'PS256' },
    issued: true,
    judge: [signed('PS256')],
  }),
];

test.describe('resource-server settings in effect: the token', () => {
  test(
    'client-credentials tokens for the API follow its token_lifetime, signing_alg, signing_secret, token_dialect, token_encryption and scopes',
    declared(ROWS),
    async ({ run, rs, gate, anon, suite }, info) => runRows(ROWS, { run, rs, gate, anon, suite, info }),
  );
});

// Helpers

/** A scope value no API defines. */
const MADE_UP = `idm-conformance:undefined-${randomBytes(3).toString('hex')}`;

/** The API's scopes without the first one the token before carried (the run puts them back). */
function scopesHeld(r: Room): { dropped?: string; defined: Array<{ value: string }> } {
  const before = r.token('before')!;
  const held = String(
    (before.ex.body as { scope?: unknown } | undefined)?.scope ?? before.read?.jws?.claims.scope ?? '',
  )
    .split(' ')
    .filter((s) => s !== '');
  const current = Array.isArray(r.rs.start.scopes) ? (r.rs.start.scopes as Array<{ value: string }>) : [];
  const dropped = current.find((s) => held.includes(s.value))?.value;
  return { dropped, defined: current.filter((s) => s.value !== dropped) };
}

function kidOf(r: Room): string {
  return (r.written.token_encryption as { encryption_key: { kid: string } }).encryption_key.kid;
}
