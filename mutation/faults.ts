// Fault combinators: each returns a Wrap that changes the tenant's behaviour in one narrow
// way, at the HTTP layer, leaving every other exchange untouched.
import { copyRes, type Handler, jsonRes, type Req, type Res, type Wrap } from './exchange.ts';

type Pred = (req: Req) => boolean;

/** Error body in the reference tenant's own shape, so a fault differs only where intended. */
export function errorBody(status: number, message: string, errorCode = 'invalid_body'): Res {
  const names: Record<number, string> = {
    400: 'Bad Request',
    401: 'Unauthorized',
    403: 'Forbidden',
    404: 'Not Found',
    415: 'Unsupported Media Type',
  };
  return jsonRes(status, { statusCode: status, error: names[status] ?? 'Error', message, errorCode });
}

/** Rewrites the response of matching requests. */
export const mapResponse =
  (pred: Pred, fn: (res: Res, req: Req) => Res | void): Wrap =>
  (next) =>
  async (req) => {
    const res = await next(req);
    if (!pred(req)) return res;
    const copy = copyRes(res);
    return fn(copy, req) ?? copy;
  };

/** Chains wraps left to right (the first is outermost). */
export const compose =
  (...wraps: Wrap[]): Wrap =>
  (next) =>
    wraps.reduceRight<Handler>((h, w) => w(h), next);
