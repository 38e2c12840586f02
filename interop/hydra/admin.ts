// Hydra's admin API (its admin port, on loopback only) as the leg and the login app use it: JSON
// in, JSON out. An answer that is not a 2xx throws an AdminError with its method, path (no query:
// a challenge is a credential of the login in progress), status and Hydra's JSON, never a request
// body, which may carry a secret.

export class AdminError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown> | null,
    what: string,
  ) {
    super(what);
  }
}

export interface Admin {
  send(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<Record<string, unknown> | null>;
}

export function adminOf(adminUrl: string): Admin {
  return {
    async send(method, path, body) {
      const res = await fetch(`${adminUrl}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(10_000),
      });
      const text = await res.text();
      let json: Record<string, unknown> | null = null;
      try {
        json = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      } catch {
        json = null;
      }
      if (!res.ok)
        throw new AdminError(
          res.status,
          json,
          `hydra admin ${method} ${path.split('?')[0]} answered ${res.status}: ${text.slice(0, 300)}`,
        );
      return json;
    },
  };
}
