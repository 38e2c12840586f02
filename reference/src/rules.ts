// Rules spanning fields or state, one function per clause.
import type { AccessTokenClaims, Issue, ResourceServerRecord, Rules } from './types.ts';
import type { LimitsRef } from './validation/engine.ts';
import { UPDATE_FIELDS } from './validation/resource-server.ts';

/** §2.1: the fields of the returned resource server, in order; no others. */
export const RESOURCE_SERVER_FIELDS = [
  'id',
  'name',
  'is_system',
  'identifier',
  'scopes',
  'signing_alg',
  'signing_secret',
  'allow_offline_access',
  'allow_online_access',
  'allow_online_access_with_ephemeral_sessions',
  'skip_consent_for_verifiable_first_party_clients',
  'token_lifetime',
  'token_lifetime_for_web',
  'enforce_policies',
  'token_dialect',
  'token_encryption',
  'consent_policy',
  'authorization_details',
  'proof_of_possession',
  'subject_type_authorization',
  'authorization_policy',
  'client_id',
] as const;

export function defaultRules(lim: LimitsRef): Rules {
  return {
    // §4.1: `{id}` is the ID or the identifier; the path segment is percent-decoded once.
    resolveResourceServer(store, rawPathId) {
      let key: string;
      try {
        key = decodeURIComponent(rawPathId);
      } catch {
        return undefined;
      }
      return store.getResourceServerById(key) ?? store.getResourceServerByIdentifier(key);
    },

    // §7.1: a system resource server cannot be patched → 400.
    rejectSystemResourceServer(rs) {
      return rs.is_system ? `The resource server ${rs.id} is a system resource server and cannot be updated` : null;
    },

    // §4.1: partial update; only §2.2 fields are taken from the (validated) body.
    applyResourceServerPatch(rs, body) {
      const next: Record<string, unknown> = { ...rs };
      for (const field of UPDATE_FIELDS) {
        if (Object.hasOwn(body, field)) next[field] = body[field];
      }
      return next as unknown as ResourceServerRecord;
    },

    // §2.1/§8: token_lifetime_for_web cannot exceed token_lifetime. It is not writable
    // (§2.2), so lowering token_lifetime below it clamps it down to token_lifetime.
    enforceWebLifetime(rs) {
      return rs.token_lifetime_for_web > rs.token_lifetime ? { ...rs, token_lifetime_for_web: rs.token_lifetime } : rs;
    },

    // §2.1: "The response object admits no fields other than those above."
    presentResourceServer(rs) {
      const record = rs as unknown as Record<string, unknown>;
      return Object.fromEntries(RESOURCE_SERVER_FIELDS.map((f) => [f, record[f] ?? null]));
    },

    // Tenant rules for allocations (§2.4: "Bounds, required-ness and interplay rules … not shown").
    checkAllocations(body, flag) {
      const found: Issue[] = [];
      const allocations = allocationsOf(body);
      const strategy = (body.allocation_strategy as string | undefined) ?? 'percentage';
      allocations.forEach((a, i) => {
        const at = `allocations[${i}]`;
        if (!flag.variations.includes(a.variation_id as string)) {
          found.push({
            path: `${at}.variation_id`,
            message: `Variation ${String(a.variation_id)} does not belong to feature flag ${flag.id}`,
          });
        }
        if (strategy === 'percentage' && a.weight === undefined) {
          found.push({ path: `${at}.weight`, message: 'weight is required when allocation_strategy is percentage' });
        }
        if (strategy === 'segment' && a.segment_id === undefined) {
          found.push({
            path: `${at}.segment_id`,
            message: 'segment_id is required when allocation_strategy is segment',
          });
        }
      });
      if (strategy === 'percentage') {
        const sum = allocations.reduce((s, a) => s + (typeof a.weight === 'number' ? a.weight : 0), 0);
        if (sum !== lim().allocationWeightSum) {
          found.push({ path: 'allocations', message: `Weights must sum to ${lim().allocationWeightSum} (got ${sum})` });
        }
        const ids = allocations.map((a) => a.variation_id);
        if (new Set(ids).size !== ids.length)
          found.push({ path: 'allocations', message: 'A variation may be allocated only once' });
      }
      if (allocations.filter((a) => a.is_control === true).length > 1) {
        found.push({ path: 'allocations', message: 'At most one allocation may be the control' });
      }
      if (allocations.filter((a) => a.is_fallback === true).length > 1) {
        found.push({ path: 'allocations', message: 'At most one allocation may be the fallback' });
      }
      return found;
    },

    // Tenant rule: an experiment is valid (startable) with at least two allocations, exactly one of them the control.
    isExperimentValid(body) {
      const allocations = allocationsOf(body);
      return allocations.length >= 2 && allocations.filter((a) => a.is_control === true).length === 1;
    },

    // §5.1: scopes are space-separated in the token's `scope` claim.
    hasScope(claims: AccessTokenClaims, scope: string) {
      return typeof claims.scope === 'string' && claims.scope.split(' ').includes(scope);
    },
  };
}

// Helpers

/** The allocations as objects; tolerant, so a variant with a validator switched off cannot crash here. */
function allocationsOf(body: Record<string, unknown>): Array<Record<string, unknown>> {
  const list = Array.isArray(body.allocations) ? (body.allocations as unknown[]) : [];
  return list.map((a) =>
    a !== null && typeof a === 'object' && !Array.isArray(a) ? (a as Record<string, unknown>) : {},
  );
}
