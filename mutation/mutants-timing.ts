// The reference tenant at another pace (issue 30 item 8): an answer that stalls once and a
// tenant that answers every request late. Neither changes what the tenant decides, so the
// suite's verdict must stay the default's, clause by clause (`asDefault`): a verdict that moves
// with the target's speed is the suite's defect, not the tenant's.
import { setTimeout as sleep } from 'node:timers/promises';
import { declaredDefault } from '../lib/config/parse.ts';
import type { Req, Wrap } from './exchange.ts';
import { viaWrap, type Variant } from './variant.ts';

/** The suite's own per-request bound at its default (IDM_TIMEOUT_MS): a stall must outlast it. */
const SUITE_TIMEOUT_MS = Number(declaredDefault('IDM_TIMEOUT_MS'));
const STALL_MS = SUITE_TIMEOUT_MS + 1500;
const LATE_MS = 150;

/** Reads a client repeats without harm (RFC 9110 §9.2.2), one per half of the suite. */
const STALLED_ONCE: ReadonlyArray<(r: Req) => boolean> = [
  (r) => r.method === 'GET' && /^\/userinfo\/?$/.test(r.path),
  (r) => r.method === 'GET' && /^\/api\/v2\/resource-servers\/[^/]+$/.test(r.path),
];

/** The first answer to each of those reads comes only after the suite stopped waiting; the rest at once. */
const stallOnce: Wrap = (next) => {
  const stalled = new Set<number>();
  return async (req) => {
    const i = STALLED_ONCE.findIndex((is) => is(req));
    if (i >= 0 && !stalled.has(i)) {
      stalled.add(i);
      await sleep(STALL_MS);
    }
    return next(req);
  };
};

/** Every answer leaves LATE_MS after the tenant made it. */
const late: Wrap = (next) => async (req) => {
  const res = await next(req);
  await sleep(LATE_MS);
  return res;
};

export const TIMING_BENIGN: Variant[] = [
  {
    id: 'timing-stall-once',
    kind: 'benign',
    fast: true,
    clause: null,
    fault: 'spec-silent',
    description: `the first GET /userinfo and the first GET of a resource server stall ${STALL_MS} ms, past the suite's ${SUITE_TIMEOUT_MS} ms; every other answer comes at once (one idempotent retry, RFC 9110 §9.2.2)`,
    asDefault: { apis: 'authentication' },
    options: viaWrap(stallOnce),
  },
  {
    id: 'timing-slow-tenant',
    kind: 'benign',
    slow: true,
    clause: null,
    fault: 'spec-silent',
    description: `every answer leaves ${LATE_MS} ms late: a distant or busy tenant`,
    asDefault: { apis: 'authentication' },
    options: viaWrap(late),
  },
];
