// In-memory tenant state: lives as long as the process (§4.1: changes persist).
import { randomBytes } from 'node:crypto';
import type { ExperimentRecord, FeatureFlagRecord, ResourceServerRecord, Store } from './types.ts';

function clone<T>(v: T): T {
  return JSON.parse(JSON.stringify(v)) as T;
}

export function memoryStore(seed: {
  resourceServers: ResourceServerRecord[];
  featureFlags: FeatureFlagRecord[];
}): Store {
  const resourceServers = new Map(seed.resourceServers.map((rs) => [rs.id, clone(rs)]));
  const flags = new Map(seed.featureFlags.map((f) => [f.id, clone(f)]));
  const experiments = new Map<string, ExperimentRecord>();
  return {
    getResourceServerById: (id) => {
      const rs = resourceServers.get(id);
      return rs && clone(rs);
    },
    getResourceServerByIdentifier: (identifier) => {
      for (const rs of resourceServers.values()) if (rs.identifier === identifier) return clone(rs);
      return undefined;
    },
    saveResourceServer: (rs) => void resourceServers.set(rs.id, clone(rs)),
    listResourceServers: () => [...resourceServers.values()].map(clone),
    getFeatureFlag: (id) => {
      const f = flags.get(id);
      return f && clone(f);
    },
    saveExperiment: (exp) => void experiments.set(exp.id, clone(exp)),
    getExperiment: (id) => {
      const e = experiments.get(id);
      return e && clone(e);
    },
    experimentNamed: (name) => {
      for (const e of experiments.values()) if (e.name === name) return clone(e);
      return undefined;
    },
    deleteExperiment: (id) => experiments.delete(id),
  };
}

/** The seeded tenant of docs/ARCHITECTURE.md ("Reference tenant defaults"). */
export function seedData(publicUrl: string): {
  resourceServers: ResourceServerRecord[];
  featureFlags: FeatureFlagRecord[];
} {
  const base = {
    scopes: [] as Array<{ value: string; description?: string }>,
    allow_offline_access: false,
    allow_online_access: false,
    allow_online_access_with_ephemeral_sessions: false,
    skip_consent_for_verifiable_first_party_clients: true,
    token_lifetime: 86400,
    token_lifetime_for_web: 7200,
    enforce_policies: false,
    token_dialect: 'access_token',
    token_encryption: null,
    consent_policy: null,
    authorization_details: null,
    proof_of_possession: null,
    subject_type_authorization: { user: { policy: 'allow_all' }, client: { policy: 'require_client_grant' } },
    authorization_policy: null,
  };
  return {
    resourceServers: [
      {
        ...base,
        id: 'rs_system',
        name: 'Identity Management API',
        is_system: true,
        identifier: `${publicUrl}/api/v2/`,
        scopes: [
          { value: 'read:resource_servers', description: 'Read resource servers' },
          { value: 'update:resource_servers', description: 'Update resource servers' },
          { value: 'create:experimentation', description: 'Create experiments' },
        ],
        signing_alg: 'RS256',
        signing_secret: secret(),
        client_id: 'Hq2kPzR7mNbV9xQw3cYt8LdFgJsKaE4u',
      },
      {
        ...base,
        id: 'rs_conformance',
        name: 'Conformance API',
        is_system: false,
        identifier: 'https://api.conformance.test/',
        scopes: [{ value: 'read:things', description: 'Read things' }],
        signing_alg: 'RS256',
        signing_secret: secret(),
        client_id: 'Cf7mNbV9xQw3cYt8LdFgJsKaE4uHq2kP',
      },
      {
        ...base,
        id: 'rs_other',
        name: 'Other API',
        is_system: false,
        identifier: 'urn:other',
        signing_alg: 'HS256',
        signing_secret: secret(),
        client_id: 'Ot3cYt8LdFgJsKaE4uHq2kPzR7mNbV9x',
      },
    ],
    featureFlags: [
      { id: 'flg_7Hq2kPzR', name: 'New login page', variations: ['var_control', 'var_treatment'] },
      { id: 'flg_3mNbV9xQ', name: 'Three-way test', variations: ['var_a', 'var_b', 'var_c'] },
    ],
  };
}

function secret(): string {
  return randomBytes(24).toString('base64url');
}
