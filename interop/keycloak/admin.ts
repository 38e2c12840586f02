// Keycloak's admin REST API as a tenant admin uses it: a token for the bootstrap admin from the
// master realm's `admin-cli` client, then JSON requests under /admin/realms. An answer that is
// not a 2xx ends the configuration with its method, path and status (never a request body,
// which may carry a secret).

export interface Admin {
  /** Sends JSON to an admin path (under /admin/realms); the answer's JSON, or null when it has none. */
  send(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<unknown>;
}

export async function adminOf(url: string, login: { username: string; password: string }): Promise<Admin> {
  const res = await fetch(`${url}/realms/master/protocol/openid-connect/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'password', client_id: 'admin-cli', ...login }),
  });
  if (!res.ok) throw new Error(`keycloak admin login answered ${res.status}`);
  const { access_token: token } = (await res.json()) as { access_token: string };
  return {
    async send(method, path, body) {
      const r = await fetch(`${url}/admin/realms${path}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await r.text();
      if (!r.ok) throw new Error(`keycloak admin ${method} ${path} answered ${r.status}: ${text.slice(0, 300)}`);
      return text ? JSON.parse(text) : null;
    },
  };
}
