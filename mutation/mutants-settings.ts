// Faulty and benign variants of the resource server's settings in effect (issue 38; the
// rs.settings.* clauses and auth.token.expires-in). Each faulty one stores and reads back every
// setting as written, and ignores one of them when it issues a token for the API: built from the
// tenant's `resourceTokenSettings` part, the settings in force at the moment of issue, with one
// field replaced. The benign ones take the choices the spec leaves open (`resourceTokenChoices`).
import type { ResourceTokenChoices, ResourceTokenSettings, TenantParts } from '../reference/src/index.ts';
import { isObject } from '../lib/values.ts';
import { isTokenRequest } from './exchange.ts';
import { mapResponse } from './faults.ts';
import { exportSPKI, generateKeyPair } from 'jose';
import { authorize, publicCode, publicExchange, token, VERIFIER } from './mutants-flows.ts';
import { clientCredentials, type ProbeClient } from './probes.ts';
import { DEV_AUTH as A } from './suite.ts';
import { viaParts, viaWrap, type Variant } from './variant.ts';

/** The seeded custom API (reference/src/store.ts rs_conformance): the audience of its tokens. */
const API = 'https://api.conformance.test/';

/** Every token answer's expires_in twice its access token's lifetime (exp − iat). */
export const EXPIRES_IN_DOUBLED = mapResponse(isTokenRequest, (res) => {
  if (res.status === 200 && isObject(res.body) && typeof res.body.expires_in === 'number')
    res.body.expires_in = res.body.expires_in * 2;
});

/** Tokens for the API issued as if one setting were not there: `change` maps the settings in force. */
const ignoring = (change: (s: ResourceTokenSettings, d: TenantParts) => Partial<ResourceTokenSettings>) =>
  viaParts((d) => ({
    resourceTokenSettings: (rs) => {
      const s = d.resourceTokenSettings(rs);
      return { ...s, ...change(s, d) };
    },
  }));

/** A required proof of `mechanism` no longer required: bound when one comes, never refused without. */
const proofOptional = (mechanism: 'dpop' | 'mtls') =>
  ignoring((s) => ({
    proofOfPossession:
      s.proofOfPossession?.mechanism === mechanism
        ? { ...s.proofOfPossession, requiredFor: null }
        : s.proofOfPossession,
  }));

const choosing = (choice: Partial<ResourceTokenChoices>) =>
  viaParts((d) => ({ resourceTokenChoices: { ...d.resourceTokenChoices, ...choice } }));

/** Probe: write `setting`, then the management client's token for the API, as `read` sees it. */
const after =
  (
    setting: Record<string, unknown>,
    read: (body: Record<string, unknown>, claims: Record<string, unknown>) => unknown,
    o: Record<string, unknown> = {},
  ) =>
  async (c: ProbeClient) => {
    await c.patch(setting);
    const t = await clientCredentials(c, 'full', { audience: API, ...o });
    const body = isObject(t.body) ? t.body : {};
    return read(body, typeof body.access_token === 'string' ? claimsOf(body.access_token) : {});
  };

const settingMutant = (
  id: string,
  clause: string,
  description: string,
  options: Variant['options'],
  probe: Variant['probe'],
  fast = false,
): Variant => ({
  id,
  kind: 'mutant',
  clause,
  fault: 'setting-ignored',
  description,
  options,
  probe,
  ...(fast ? { fast } : {}),
});

export const SETTINGS_MUTANTS: Variant[] = [
  settingMutant(
    'settings-token-lifetime-ignored',
    'rs.settings.token_lifetime',
    'token_lifetime is stored but the API’s tokens keep the tenant’s default lifetime',
    ignoring((_s, d) => ({ lifetimeSeconds: d.limits.accessTokenLifetimeSeconds })),
    after({ token_lifetime: 3700 }, (b) => b.expires_in),
    true,
  ),
  settingMutant(
    'settings-web-lifetime-ignored',
    'rs.settings.token_lifetime_for_web',
    'the implicit flow’s tokens for the API live token_lifetime, not token_lifetime_for_web',
    ignoring((s) => ({ webLifetimeSeconds: s.lifetimeSeconds })),
    async (c) => {
      const back = await authorize(c, { response_type: 'token', client_id: A.IDM_PUBLIC_CLIENT_ID, audience: API });
      return new URLSearchParams(back?.hash.slice(1)).get('expires_in');
    },
  ),
  settingMutant(
    'settings-signing-alg-ignored',
    'rs.settings.signing_alg',
    'signing_alg is stored but every token for the API is signed RS256',
    ignoring(() => ({ signingAlg: 'RS256' })),
    after({ signing_alg: 'RS512' }, (b) => headerAlg(b.access_token)),
  ),
  settingMutant(
    'settings-signing-secret-ignored',
    'rs.settings.signing_secret',
    'HS256 tokens for the API are signed with a secret of the tenant’s, not the signing_secret written',
    ignoring(() => ({ signingSecret: 'a-secret-the-api-never-stored-0123' })),
    after(
      { signing_alg: 'HS256', signing_secret: 'probe-secret-0123456789' },
      (b) => String(b.access_token).split('.')[2],
    ),
  ),
  settingMutant(
    'settings-rfc9068-dialect-ignored',
    'rs.settings.token_dialect.rfc9068',
    'the RFC 9068 dialects are stored but tokens for the API keep the plain dialect (typ JWT, no client_id or jti)',
    ignoring((s) => ({
      dialect:
        s.dialect === 'rfc9068_profile'
          ? 'access_token'
          : s.dialect === 'rfc9068_profile_authz'
            ? 'access_token_authz'
            : s.dialect,
    })),
    after({ token_dialect: 'rfc9068_profile' }, (b) => headerTyp(b.access_token)),
    true,
  ),
  settingMutant(
    'settings-authz-permissions-missing',
    'rs.settings.token_dialect.authz',
    'the _authz dialects add no permission claim: enforce_policies is stored but never read',
    ignoring(() => ({ enforcePolicies: false })),
    after({ token_dialect: 'access_token_authz', enforce_policies: true }, (_b, c) => 'permissions' in c),
  ),
  settingMutant(
    'settings-encryption-ignored',
    'rs.settings.token_encryption',
    'token_encryption is stored but tokens for the API are sent as plain JWS',
    ignoring(() => ({ encryption: null })),
    async (c) => {
      const pem = await exportSPKI((await generateKeyPair('RSA-OAEP-256', { extractable: true })).publicKey);
      const encrypted = after(
        { token_encryption: { format: 'compact-nested-jwe', encryption_key: { alg: 'RSA-OAEP-256', pem } } },
        (b) => String(b.access_token ?? b.error).split('.').length,
      );
      return encrypted(c);
    },
  ),
  settingMutant(
    'settings-dpop-required-ignored',
    'rs.settings.pop.dpop.required',
    'DPoP required is stored but a token request without a proof gets a Bearer token',
    proofOptional('dpop'),
    after({ proof_of_possession: { mechanism: 'dpop', required: true } }, (b) => b.token_type ?? b.error),
    true,
  ),
  settingMutant(
    'settings-pop-public-required-ignored',
    'rs.settings.pop.required_for',
    'a DPoP proof required of public clients only is required of nobody: the public client’s code exchange gets a Bearer token',
    ignoring((s) => ({
      proofOfPossession:
        s.proofOfPossession?.requiredFor === 'public_clients'
          ? { ...s.proofOfPossession, requiredFor: null }
          : s.proofOfPossession,
    })),
    async (c) => {
      await c.patch({ proof_of_possession: { mechanism: 'dpop', required: true, required_for: 'public_clients' } });
      const t = await publicExchange(c, await publicCode(c, { audience: API }), { code_verifier: VERIFIER });
      return isObject(t.body) ? (t.body.token_type ?? t.body.error) : t.status;
    },
  ),
  settingMutant(
    'settings-mtls-required-ignored',
    'rs.settings.pop.mtls',
    'mTLS required is stored but a token request without a certificate gets a Bearer token',
    proofOptional('mtls'),
    after({ proof_of_possession: { mechanism: 'mtls', required: true } }, (b) => b.token_type ?? b.error),
  ),
  settingMutant(
    'settings-client-deny-ignored',
    'rs.settings.subject_type.client.deny_all',
    'client deny_all is stored but client credentials still get tokens for the API',
    ignoring((s) => ({ clientPolicy: s.clientPolicy === 'deny_all' ? 'allow_all' : s.clientPolicy })),
    after({ subject_type_authorization: { client: { policy: 'deny_all' } } }, (b) => b.token_type ?? b.error),
    true,
  ),
  settingMutant(
    'settings-client-grant-ignored',
    'rs.settings.subject_type.client.require_client_grant',
    'require_client_grant is stored but a client holding no grant gets a token for the API',
    ignoring((s) => ({ clientPolicy: s.clientPolicy === 'require_client_grant' ? 'allow_all' : s.clientPolicy })),
    async (c) => (await clientCredentials(c, 'limited', { audience: API })).status,
  ),
  settingMutant(
    'settings-user-deny-ignored',
    'rs.settings.subject_type.user.deny_all',
    'user deny_all is stored but the user flows still get tokens for the API',
    ignoring((s) => ({ userPolicy: s.userPolicy === 'deny_all' ? 'allow_all' : s.userPolicy })),
    async (c) => {
      await c.patch({ subject_type_authorization: { user: { policy: 'deny_all' } } });
      return (await userToken(c)).status;
    },
  ),
  settingMutant(
    'settings-offline-access-ignored',
    'rs.settings.allow_offline_access',
    'allow_offline_access false is stored but a refresh token for the API is still issued',
    ignoring(() => ({ offlineAccess: true })),
    async (c) => 'refresh_token' in (await userToken(c)).body,
  ),
  settingMutant(
    'settings-scopes-ignored',
    'rs.settings.scopes',
    'the API’s scopes are stored but a token for it carries any value the client’s grant holds',
    ignoring(() => ({ scopes: null })),
    after({ scopes: [] }, (b) => b.scope, { scope: 'read:things' }),
  ),
  {
    id: 'settings-expires-in-disagrees',
    kind: 'mutant',
    clause: 'auth.token.expires-in',
    fault: 'response-schema',
    description: 'every token answer says expires_in twice its access token’s lifetime (exp − iat)',
    fast: true,
    // Judged on every token answer; the fast subset runs the tests whose tokens are JWTs for sure.
    grep: ['rs.settings.token_lifetime'],
    options: viaWrap(EXPIRES_IN_DOUBLED),
    probe: async (c) => (await clientCredentials(c, 'full', { audience: API })).body.expires_in,
  },
];

const settingBenign = (id: string, clause: string, description: string, options: Variant['options']): Variant => ({
  id,
  kind: 'benign',
  clause,
  fault: 'spec-silent',
  description,
  options,
});

export const SETTINGS_BENIGN: Variant[] = [
  settingBenign(
    'benign-settings-dpop-nonce',
    'rs.settings.dpop.nonce',
    'every DPoP proof must carry a nonce the tenant gave first (use_dpop_nonce and DPoP-Nonce, RFC 9449 §8)',
    choosing({ dpopNonce: true }),
  ),
  settingBenign(
    'benign-settings-offline-invalid-scope',
    'rs.settings.refusal.status',
    'offline_access asked for an API that allows no refresh tokens is refused with invalid_scope instead of dropped',
    choosing({ offlineAccessDenied: 'refuse' }),
  ),
  settingBenign(
    'benign-settings-undefined-scope-refused',
    'rs.settings.scopes.undefined',
    'a scope value the API does not define is refused with invalid_scope instead of dropped (RFC 6749 §3.3 allows either)',
    choosing({ undefinedScope: 'refuse' }),
  ),
  settingBenign(
    'benign-settings-extra-claims',
    'rs.settings.defaults',
    'every token for the API carries claims of the tenant’s own besides those of its dialect',
    choosing({ extraClaims: { org_id: 'org_idm_conformance', 'https://tenant.example/roles': ['reader'] } }),
  ),
];

// Helpers

function part(token: unknown, i: number): Record<string, unknown> {
  try {
    return JSON.parse(Buffer.from(String(token).split('.')[i] ?? '', 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
  } catch {
    return {};
  }
}

function claimsOf(token: string): Record<string, unknown> {
  return part(token, 1);
}

function headerAlg(token: unknown): unknown {
  return part(token, 0).alg;
}

function headerTyp(token: unknown): unknown {
  return part(token, 0).typ;
}

/** The test user's token for the API through the password grant of the Post client, asking offline_access. */
function userToken(c: ProbeClient) {
  return token(c, {
    grant_type: 'password',
    client_id: A.IDM_POST_CLIENT_ID,
    client_secret: A.IDM_POST_CLIENT_SECRET,
    username: A.IDM_TEST_USERNAME,
    password: A.IDM_TEST_PASSWORD,
    audience: API,
    scope: 'openid offline_access',
  });
}
