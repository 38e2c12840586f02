import type { Issue, TenantResponse } from './types.ts';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
};

export const RATE_LIMIT_MESSAGE =
  'Too many requests. Check the X-RateLimit-Limit, X-RateLimit-Remaining and X-RateLimit-Reset headers.';

export function json(status: number, body: unknown, headers: Record<string, string> = {}): TenantResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: Buffer.from(JSON.stringify(body)),
  };
}

/** Management API error body: {statusCode, error, message, errorCode}. */
export function apiError(
  status: number,
  errorCode: string,
  message: string,
  headers: Record<string, string> = {},
): TenantResponse {
  return json(status, { statusCode: status, error: REASONS[status] ?? 'Error', message, errorCode }, headers);
}

/** Authentication API error body (§7.3): {error, error_description}. */
export function oauthError(
  status: number,
  error: string,
  description: string,
  headers: Record<string, string> = {},
): TenantResponse {
  return json(status, { error, error_description: description }, { 'cache-control': 'no-store', ...headers });
}

/** Thrown inside the pipeline to end it with a ready response. */
export class HttpFailure extends Error {
  constructor(readonly response: TenantResponse) {
    super(`HTTP ${response.status}`);
  }
}

/** 400 for a body that breaks rules; every finding named with its property path. */
export function validationError(issues: Issue[]): TenantResponse {
  const message = issues.map((i) => `'${i.message}' on property ${i.path || '(body)'}`).join('; ');
  return apiError(400, 'invalid_body', `Payload validation error: ${message}`);
}
