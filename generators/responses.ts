// Valid response bodies (spec §2.1, §2.4): for self-testing the response
// schemas with thousands of samples, and for tools that fake a conformant
// target (benign variants, mock servers).
import fc from 'fast-check';
import type { UpdateBody } from './resource-server.ts';
import { tokenLifetime, updateFields, FLAG_FIELDS } from './resource-server.ts';
import { experimentPayloadArb } from './experiment.ts';
import type { ExperimentOptions } from './experiment.ts';

/** Base58 as the spec's id patterns have it: no 0, O, I, l. */
const BASE58 = [...'123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'];
const EXPERIMENT_STATUSES = ['draft', 'active', 'paused', 'completed', 'archived'] as const;

const base58 = (min = 1, max = 16): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...BASE58), minLength: min, maxLength: max });

/** A resource server as an update could return it: id and the flags always, any subset of the other 2.1 fields. */
export function resourceServerResponse(): fc.Arbitrary<UpdateBody> {
  const lifetimes = tokenLifetime().chain((tl) => fc.integer({ min: 0, max: tl }).map((web) => ({ tl, web })));
  // The writable fields as the update generates them; token_lifetime comes paired with web.
  const { token_lifetime: _paired, ...writable } = updateFields();
  const model: Record<string, fc.Arbitrary<unknown>> = {
    ...writable,
    id: base58(6, 24).map((s) => `rs_${s}`),
    is_system: fc.boolean(),
    identifier: fc.oneof(
      base58(1, 12).map((s) => `https://api.${s.toLowerCase()}.test/`),
      base58(1, 12).map((s) => `urn:${s}`),
    ),
    client_id: base58(8, 32),
    lifetimes: fc.option(lifetimes, { nil: undefined }),
  };
  return fc.record(model, { requiredKeys: ['id', ...FLAG_FIELDS] }).map((r) => {
    const { lifetimes: lt, ...rest } = r as UpdateBody & { lifetimes?: { tl: number; web: number } };
    const out: UpdateBody = rest;
    // token_lifetime_for_web never above token_lifetime (§2.1).
    if (lt) Object.assign(out, { token_lifetime: lt.tl, token_lifetime_for_web: lt.web });
    return out;
  });
}

/** ISO 8601 date-times as tenants write them: with Z, with an offset, with or without fraction. */
function isoDateTime(): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2099-12-31T23:59:59Z'), noInvalidDate: true }),
      fc.constantFrom('Z', 'ms', '+02:00', 'none'),
    )
    .map(([d, style]) => {
      const iso = d.toISOString();
      if (style === 'ms') return iso;
      if (style === 'Z') return iso.replace(/\.\d{3}Z$/, 'Z');
      if (style === 'none') return iso.replace(/Z$/, ''); // ISO 8601 local time: no offset
      return iso.replace(/Z$/, '+02:00');
    });
}

/** A created experiment: the request echoed, plus the response-only fields and an open extra (status). */
export function experimentResponse(opts: ExperimentOptions): fc.Arbitrary<UpdateBody> {
  return fc
    .record(
      {
        request: experimentPayloadArb(opts),
        id: base58(4, 20).map((s) => `exp_${s}`),
        is_valid: fc.boolean(),
        created_at: isoDateTime(),
        updated_at: isoDateTime(),
        started_at: isoDateTime(),
        ended_at: isoDateTime(),
        status: fc.constantFrom(...EXPERIMENT_STATUSES),
      },
      { requiredKeys: ['request', 'id', 'is_valid', 'created_at', 'updated_at'] },
    )
    .map(({ request, ...rest }) => ({ ...request, ...(rest as UpdateBody) }));
}
