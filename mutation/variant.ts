// What a variant of the reference tenant is, and the builders the catalogue uses to make
// one from the tenant's exported injection points (named parts, HTTP-level wrap).
import { decodeJwt } from 'jose';
import {
  type AccessTokenClaims,
  defaultLimits,
  type Limits,
  makeCheck,
  resourceServerValidators,
  type TenantOptions,
  type TenantParts,
  type TokenVerdict,
} from '../reference/src/index.ts';
import { toTenantWrap, type Wrap } from './exchange.ts';
import type { Probe } from './probes.ts';
import type { ExpectedDifference } from './same-verdict.ts';

export type FaultKind =
  | 'limit-off-by-one'
  | 'missing-validation'
  | 'unknown-field-accepted'
  | 'over-strict'
  | 'wrong-status'
  | 'response-schema'
  | 'not-persisted'
  | 'partial-write'
  | 'path-handling'
  | 'form-refused'
  | 'auth-bypass'
  | 'scope-message'
  | 'rate-limit'
  | 'setting-ignored'
  | 'spec-silent';

export interface VariantContext {
  /** The tenant's public URL, without trailing slash. */
  publicUrl: string;
}

export type VariantOptions = Pick<
  TenantOptions,
  'parts' | 'wrap' | 'rateLimit' | 'login' | 'refreshRotation' | 'clients' | 'revocationAnnounced' | 'experiments'
>;

export interface Variant {
  /** kebab-case, stable: the key in reports/mutation.json */
  id: string;
  /** `mutant`: must be killed; `benign`: within the spec, the suite must pass. */
  kind: 'mutant' | 'benign';
  /**
   * Mutant: the one catalogue clause it breaks. Benign: the (observe) clause where the spec
   * is silent, or null where the spec says nothing at all (e.g. extra response headers).
   */
  clause: string | null;
  fault: FaultKind;
  description: string;
  /** Set when the catalogue explains why no conformant suite can kill it (the reason). */
  equivalent?: string;
  /** In the fast subset that `npm test` runs. */
  fast?: boolean;
  /** Slow under any suite (e.g. a 2 req/s limit): left out of the fast subset. */
  slow?: boolean;
  /** Clauses whose tests the fast subset runs (default: `clause`); none with `asDefault`, which runs a half whole. */
  grep?: string[];
  /** Instead of `grep`: the fast subset runs only tests tagged with all of these clauses. */
  grepAll?: string[];
  /**
   * Settings the suite runs with against this variant, over the harness's own (e.g. the
   * `IDM_STRATEGY_FIELD` a renamed field needs): what a user would configure for such a tenant.
   */
  env?: Record<string, string>;
  options(ctx: VariantContext): VariantOptions;
  /**
   * Mutants: a few requests whose observation differs from the reference tenant's (the
   * self-test proves the mutant alive with it). Every mutant has one; builders in probes.ts.
   */
  probe?: Probe;
  /**
   * Benign variants that change how the tenant answers, never what it decides: the run's whole
   * verdict must equal the reference tenant's run of the same selection, clause by clause
   * (same-verdict.ts). The fast subset compares one half of the suite (`apis`, as IDM_APIS);
   * the whole catalogue compares the whole suite. `except`: clauses the variant leaves
   * elsewhere on purpose, with why (e.g. a consent page makes the decline judgeable).
   */
  asDefault?: { apis: 'authentication' | 'management'; except?: Record<string, ExpectedDifference> };
}

// Builders

export const viaWrap = (w: Wrap) => (): VariantOptions => ({ wrap: toTenantWrap(w) });

export const viaParts =
  (fn: (d: TenantParts, ctx: VariantContext) => Partial<TenantParts>) =>
  (ctx: VariantContext): VariantOptions => ({ parts: (d) => fn(d, ctx) });

/** The unmutated §2.2 checks, with the spec's limits, whatever a variant does to its own. */
const pristineRsCheck = makeCheck(resourceServerValidators(() => defaultLimits()));

/**
 * A missing or loosened validation on the update: `patch` lets an invalid value through, and
 * the update then silently ignores every top-level field the spec's checks would refuse, so
 * the stored and returned object stays valid and only the rejection clause is broken.
 */
export function rsAcceptsInvalid(patch: (d: TenantParts) => Partial<TenantParts>) {
  return viaParts((d) => {
    const p = patch(d);
    const rules = { ...d.rules, ...p.rules };
    return {
      ...p,
      rules: {
        ...rules,
        applyResourceServerPatch(rs, body) {
          const bad = new Set(pristineRsCheck('rs.body', body, '').map((i) => topLevel(i.path)));
          const kept = Object.fromEntries(Object.entries(body).filter(([k]) => !bad.has(k)));
          return rules.applyResourceServerPatch(rs, kept);
        },
      },
    };
  });
}

export function withLimits(d: TenantParts, change: Partial<Limits>): Partial<TenantParts> {
  return { limits: { ...d.limits, ...change } };
}

/** Replaces one validator-table entry; `accept(value)` true → no finding for that value. */
export function loosen(d: TenantParts, key: string, accept: (v: unknown) => boolean): Partial<TenantParts> {
  const original = d.validators[key];
  if (!original) throw new Error(`mutation: validator ${key} not found in the tenant`);
  return { validators: { ...d.validators, [key]: (v, at, check) => (accept(v) ? [] : original(v, at, check)) } };
}

/** Over-strict: one validator-table entry also refuses values the spec allows. */
export function tighten(
  d: TenantParts,
  key: string,
  refuse: (v: unknown) => boolean,
  message: string,
): Partial<TenantParts> {
  const original = d.validators[key];
  if (!original) throw new Error(`mutation: validator ${key} not found in the tenant`);
  return {
    validators: {
      ...d.validators,
      [key]: (v, at, check) => (refuse(v) ? [{ path: at, message }] : original(v, at, check)),
    },
  };
}

/** Token-verifier bypass: a refused token whose refusal `reason` matches is accepted instead. */
export function verifierBypass(
  d: TenantParts,
  ctx: VariantContext,
  bypass: (reason: string, token: string) => boolean,
): Partial<TenantParts> {
  const verify = d.verifyAccessToken;
  return {
    verifyAccessToken: async (token): Promise<TokenVerdict> => {
      const v = await verify(token);
      if (v.ok || !bypass(v.reason, token)) return v;
      return { ok: true, claims: claimsOf(token, ctx) };
    },
  };
}

/** Claims of a bypassed token: its own where it decodes, the full client's otherwise. */
function claimsOf(token: string, ctx: VariantContext): AccessTokenClaims {
  try {
    return decodeJwt(token) as AccessTokenClaims;
  } catch {
    const now = Math.floor(Date.now() / 1000);
    return {
      iss: `${ctx.publicUrl}/`,
      sub: 'conformance-full@clients',
      aud: `${ctx.publicUrl}/api/v2/`,
      scope: 'read:resource_servers update:resource_servers create:experimentation',
      iat: now,
      exp: now + 3600,
    };
  }
}

// Helpers

/** `scopes[0].value` → `scopes`; `token_encryption.encryption_key` → `token_encryption`. */
function topLevel(path: string): string {
  return path.split(/[.[]/)[0] ?? path;
}
