// Credentials a tenant must refuse (§5.1, §7.1), shared by the update and experiment
// authorization specs. Each case builds the Authorization value and says how it was built,
// so a reader of the report knows what exactly was refused (or wrongly accepted).
import type { Config } from './config.ts';
import { forgeExpired, forgeLike, forgeWrongAudience, MALFORMED_TOKENS } from './auth/forge.ts';
import { issued } from './credential-origin.ts';

export interface CredentialContext {
  cfg: Config;
  /** The run's genuine management token (full client). */
  realToken: string;
  /** The configured resource server's identifier: another audience the tenant knows. */
  otherAudience: string | null;
  /** Asks the token endpoint for a genuine token for another audience; null when refused. */
  tokenFor(audience: string): Promise<string | null>;
}

export interface CredentialCase {
  /** Clause of the update operation (401 required); the experiment specs map it to their own. */
  updateClause: string;
  /** Its row in the attack catalogue (lib/auth/attacks/catalogue.ts, carrier management-token). */
  attack: string;
  title: string;
  build(ctx: CredentialContext): Promise<{ authorization: string | null; how: string }>;
}

export const INVALID_CREDENTIALS: CredentialCase[] = [
  {
    updateClause: 'auth.mgmt.no-token',
    attack: 'no-token',
    title: 'without a token',
    build: async () => ({ authorization: null, how: 'no Authorization header' }),
  },
  ...Object.entries(MALFORMED_TOKENS).map(([label, token]) => ({
    updateClause: 'auth.mgmt.malformed-token',
    attack: 'malformed',
    title: `with a malformed token (${label})`,
    build: async () => ({ authorization: `Bearer ${token}`, how: `Bearer ${label}` }),
  })),
  {
    updateClause: 'auth.mgmt.bad-signature',
    attack: 'foreign-key',
    title: 'with a token signed by a key the suite generated',
    build: async (ctx: CredentialContext) => ({
      authorization: `Bearer ${await forgeLike(ctx.realToken)}`,
      how: "the genuine token's header and claims, re-signed with the suite's own RS256 key",
    }),
  },
  {
    updateClause: 'auth.mgmt.expired-token',
    attack: 'expired',
    title: 'with an expired token',
    build: async (ctx: CredentialContext) =>
      ctx.cfg.expiredToken
        ? {
            authorization: `Bearer ${issuedAs(ctx.cfg.expiredToken, 'IDM_EXPIRED_TOKEN')}`,
            how: 'a tenant-signed expired token (IDM_EXPIRED_TOKEN)',
          }
        : {
            authorization: `Bearer ${await forgeExpired(ctx.realToken)}`,
            how: "the genuine token's claims with exp an hour ago, signed by the suite's key (set IDM_EXPIRED_TOKEN for a tenant-signed one)",
          },
  },
  {
    updateClause: 'auth.mgmt.wrong-audience',
    attack: 'wrong-audience',
    title: 'with a token for another audience',
    build: async (ctx: CredentialContext) => {
      const audience = ctx.otherAudience ?? 'https://another-audience.idm-conformance.test/';
      const genuine = ctx.otherAudience ? await ctx.tokenFor(audience) : null;
      return genuine
        ? {
            authorization: `Bearer ${issuedAs(genuine, 'IDM_OTHER_AUDIENCE_TOKEN')}`,
            how: `a genuine token issued for audience ${audience} ($IDM_OTHER_AUDIENCE_TOKEN in a reproduction)`,
          }
        : {
            authorization: `Bearer ${await forgeWrongAudience(ctx.realToken, audience)}`,
            how: `the genuine token's claims with aud ${audience}, signed by the suite's key (the tenant issued no token for that audience)`,
          };
    },
  },
];

// Helpers

/** A credential the tenant issued, shown in a reproduction as the environment variable `env`. */
function issuedAs(credential: string, env: string): string {
  issued(credential, env);
  return credential;
}
