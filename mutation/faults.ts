// Fault combinators: each returns a Wrap that changes the tenant's behaviour in one narrow
// way, at the HTTP layer, leaving every other exchange untouched.
import { isObject } from '../lib/values.ts';
import { clone, jsonRes, objectsAt, type Handler, type Req, type Res, type Wrap } from './exchange.ts';

type Pred = (req: Req) => boolean;

/** Error body in the reference tenant's own shape, so a fault differs only where intended. */
export function errorBody(status: number, message: string, errorCode = 'invalid_body'): Res {
  const names: Record<number, string> = { 400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 415: 'Unsupported Media Type' };
  return jsonRes(status, { statusCode: status, error: names[status] ?? 'Error', message, errorCode });
}

/** Over-strict: answers `status` for requests the spec says must be accepted. */
export const rejectWhen = (pred: Pred, status = 400, message = 'Payload validation error'): Wrap => (next) => async (req) =>
  pred(req) ? errorBody(status, message) : next(req);

/**
 * Missing validation: a request carrying the violation is "repaired" before the tenant sees
 * it (the offending value dropped or coerced), so it is accepted instead of rejected, while
 * the response stays schema-valid (only the rejection clause is broken).
 */
export const acceptRepaired = (pred: Pred, repair: (body: Record<string, unknown>) => void): Wrap => (next) => async (req) => {
  if (!pred(req) || !isObject(req.body)) return next(req);
  const body = clone(req.body);
  repair(body);
  return next({ ...req, body });
};

/** Rewrites the response of matching requests. */
export const mapResponse = (pred: Pred, fn: (res: Res, req: Req) => Res | void): Wrap => (next) => async (req) => {
  const res = await next(req);
  if (!pred(req)) return res;
  const copy: Res = { status: res.status, headers: { ...res.headers }, body: clone(res.body) };
  return fn(copy, req) ?? copy;
};

/** Chains wraps left to right (the first is outermost). */
export const compose = (...wraps: Wrap[]): Wrap => (next) => wraps.reduceRight<Handler>((h, w) => w(h), next);

// Body predicates and repairs used by the catalogue

/** True when some object at `path` has a key outside `allowed`. */
export function hasUnknownKey(body: unknown, path: string, allowed: readonly string[]): boolean {
  return objectsAt(body, path).some((o) => Object.keys(o).some((k) => !allowed.includes(k)));
}

export function dropUnknownKeys(body: unknown, path: string, allowed: readonly string[]): void {
  for (const o of objectsAt(body, path)) for (const k of Object.keys(o)) if (!allowed.includes(k)) delete o[k];
}

/** True when a string field at `path` (objects reached by `parent`) satisfies `test`. */
export function someField(body: unknown, parent: string, key: string, test: (v: unknown) => boolean): boolean {
  return objectsAt(body, parent).some((o) => key in o && test(o[key]));
}

export function repairField(body: unknown, parent: string, key: string, test: (v: unknown) => boolean, fix: (v: unknown) => unknown): void {
  for (const o of objectsAt(body, parent)) {
    if (!(key in o) || !test(o[key])) continue;
    const v = fix(o[key]);
    if (v === undefined) delete o[key];
    else o[key] = v;
  }
}
