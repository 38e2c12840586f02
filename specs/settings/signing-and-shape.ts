// The settings that shape the API's token (§1, §2.1, §2.3): its lifetime, signature, dialect,
// encryption and scopes. Each row writes settings on the configured resource server (the `rs`
// fixture: locked, journalled, restored after the test), obtains a client-credentials token for
// the API's identifier, and judges that token with jose: a JWS against the tenant's published
// keys or the signing secret the run wrote, a JWE decrypted with the key pair the run made.
import { randomBytes } from 'node:crypto';
import { test } from '../../lib/fixtures.ts';
import { clauses, OPERATIONS, skipClauses } from '../../lib/declare.ts';
import { clausesOf } from '../../lib/condition.ts';
import { clauseSkip } from '../../lib/skip-record.ts';
import type { ApiTokens, ApiToken } from '../../lib/api-tokens/requests.ts';
import { ENCRYPTION_ALG, encryptionKeys, tenantKeys } from '../../lib/api-tokens/keys.ts';
import { confirmed, issuedTwin, rowsOf, lifetimeAbove, writeSetting, type Row } from '../../lib/api-tokens/rows.ts';
import {
  apiTokenIssued,
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
import { recorded } from '../../lib/management/recorded.ts';

const DEFAULTS = recorded('rs.settings.defaults');

test.describe('resource-server settings in effect: the token', () => {
  test(
    'client-credentials tokens for the API follow its token_lifetime, signing_alg, signing_secret, token_dialect, token_encryption and scopes',
    clauses(
      OPERATIONS.settings,
      ...clausesOf(
        apiTokenIssued,
        DEFAULTS,
        tokenLifetime,
        signedWithAlg,
        signedWithSecret,
        rfc9068Dialect,
        plainDialect,
        permissionsAdded,
        encryptedAsConfigured,
        onlyDefinedScopes,
      ),
    ),
    async ({ run, rs, gate, anon, suite }, info) => {
      const { cfg } = run;
      const { x, tokens, who } = rowsOf({ run, rs, gate, anon, suite, info });
      const keys = await tenantKeys(cfg, anon);

      // The API's token before anything is written: what the tenant issues, and the twin of every row.
      const before = await tokens.clientCredentials(who);
      if (!(await issuedTwin(x, before, ROW_CLAUSES, true)).ok) return;
      await gate.call(DEFAULTS, null, {
        what: 'the API’s token before any write',
        ex: before.ex,
        extra: `: ${shapeOf(before)}`,
      });

      // A symmetric signature, a lifetime of its own and the RFC 9068 profile, in one token.
      const secret = `idm-${randomBytes(18).toString('base64url')}`;
      suite.redactor.add(secret);
      const first = await writeSetting(
        x,
        {
          token_lifetime: lifetimeAbove(rs, 17),
          signing_alg: 'HS256',
          signing_secret: secret,
          token_dialect: 'rfc9068_profile',
        },
        ['rs.settings.token_lifetime', 'rs.settings.signing_secret', 'rs.settings.token_dialect.rfc9068'],
      );
      if (first && !(await confirmed(x, first, ROW_CLAUSES))) return;
      if (first) {
        const t = await issued(x, tokens, who, [
          'rs.settings.token_lifetime',
          'rs.settings.signing_secret',
          'rs.settings.token_dialect.rfc9068',
        ]);
        if (t) {
          await gate.call(tokenLifetime, null, lifetimeOf(t, first.token_lifetime as number));
          await gate.call(signedWithAlg, null, { t, alg: 'HS256', keys });
          if (t.read?.jws?.header.alg === 'HS256') await gate.call(signedWithSecret, null, { t, secret });
          else
            skipClauses(
              info,
              clauseSkip(
                'rs.settings.signing_alg',
                'not judged: the token is not signed HS256 (rs.settings.signing_alg)',
              ),
              'rs.settings.signing_secret',
            );
          await gate.call(rfc9068Dialect, null, t);
        }
        await scopesOnlyDefined(x, tokens, who, before);
      }

      // An asymmetric signature of another alg, the RBAC dialect and encryption to the run's key.
      const enc = await encryptionKeys();
      const kid = `idm-${randomBytes(6).toString('hex')}`;
      const second = await writeSetting(
        x,
        {
          signing_alg: 'RS512',
          token_dialect: 'access_token_authz',
          enforce_policies: true,
          token_encryption: {
            format: 'compact-nested-jwe',
            encryption_key: { name: 'idm-conformance', alg: ENCRYPTION_ALG, kid, pem: enc.pem },
          },
        },
        ['rs.settings.token_encryption', 'rs.settings.token_dialect.authz'],
      );
      const authz = second
        ? await issued(x, tokens, who, ['rs.settings.token_encryption', 'rs.settings.token_dialect.authz'])
        : null;
      if (authz) {
        await gate.call(encryptedAsConfigured, null, { t: authz, alg: ENCRYPTION_ALG, kid });
        await gate.call(signedWithAlg, null, { t: authz, alg: 'RS512', keys });
      }

      // Encryption off again, the default asymmetric alg and the plain dialect the RBAC one adds to:
      // its write and token are the RBAC token's comparison too, so what stops them skips both.
      const plainClauses = [
        'rs.settings.token_dialect.access_token',
        ...(authz ? ['rs.settings.token_dialect.authz'] : []),
      ];
      const third = await writeSetting(
        x,
        { token_encryption: null, signing_alg: 'RS256', token_dialect: 'access_token', enforce_policies: true },
        plainClauses,
      );
      const plain = third ? await issued(x, tokens, who, plainClauses) : null;
      if (plain) {
        if (second) await gate.call(encryptedAsConfigured, null, { t: plain, off: true });
        await gate.call(signedWithAlg, null, { t: plain, alg: 'RS256', keys });
        await gate.call(plainDialect, null, plain);
        if (authz?.read?.jws && plain.read) await gate.call(permissionsAdded, null, { authz, plain: plain.read });
      }

      // PS256 is "available through an add-on" (§2.3): a tenant without it refuses the write (its own).
      if (await writeSetting(x, { signing_alg: 'PS256' }, [])) {
        const t = await issued(x, tokens, who, []);
        if (t) await gate.call(signedWithAlg, null, { t, alg: 'PS256', keys });
      }
    },
  );
});

/** Every clause a row of this test judges: skipped together when the API's token cannot be had at all. */
const ROW_CLAUSES = [
  'rs.settings.token_lifetime',
  'rs.settings.signing_alg',
  'rs.settings.signing_secret',
  'rs.settings.token_dialect.rfc9068',
  'rs.settings.token_dialect.access_token',
  'rs.settings.token_dialect.authz',
  'rs.settings.token_encryption',
  'rs.settings.scopes',
];

// Helpers

/** The row's token, issued under its settings, or null (its clauses then skipped naming rs.settings.token.issued). */
async function issued(
  x: Row,
  tokens: ApiTokens,
  who: Parameters<ApiTokens['clientCredentials']>[0],
  clauses: string[],
): Promise<ApiToken | null> {
  const t = await tokens.clientCredentials(who);
  return (await issuedTwin(x, t, clauses)).ok ? t : null;
}

/**
 * §2.1, RFC 6749 §3.3: a value the client's grant holds but the API no longer defines, and one
 * nobody defines, asked for: neither comes back (dropped or invalid_scope). The API's scopes are
 * written without one of the values its token carried before (the run puts them back).
 */
async function scopesOnlyDefined(
  x: Row,
  tokens: ApiTokens,
  who: { secret: { id: string; secret: string } },
  before: ApiToken,
): Promise<void> {
  const held = String(
    (before.ex.body as { scope?: unknown } | undefined)?.scope ?? before.read?.jws?.claims.scope ?? '',
  )
    .split(' ')
    .filter((s) => s !== '');
  const current = Array.isArray(x.rs.start.scopes) ? (x.rs.start.scopes as Array<{ value: string }>) : [];
  const dropped = current.find((s) => held.includes(s.value))?.value;
  const defined = current.filter((s) => s.value !== dropped);
  if (dropped && !(await writeSetting(x, { scopes: defined }, ['rs.settings.scopes']))) return;
  const madeUp = `idm-conformance:undefined-${randomBytes(3).toString('hex')}`;
  const t = await tokens.clientCredentials(who, { scope: [dropped, madeUp].filter(Boolean).join(' ') });
  await x.gate.call(onlyDefinedScopes, t.ex, { t, defined: defined.map((s) => s.value), undefinedAsked: madeUp });
}

/** A token in a few words, for the record of the defaults. */
function shapeOf(t: ApiToken): string {
  const h = t.read?.jws?.header ?? t.read?.jwe ?? {};
  const c = t.read?.jws?.claims;
  const life = c && typeof c.exp === 'number' && typeof c.iat === 'number' ? `${c.exp - c.iat} s` : 'unread';
  return `${t.read?.form ?? 'none'}, alg ${String(h.alg)}, typ ${String(h.typ)}, lifetime ${life}, token_type ${t.tokenType}`;
}
