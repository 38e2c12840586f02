// The management client's own grant (§5.1), as the management specs send it. The ways the
// authentication API's clients authenticate (§5.2) are the rows of lib/auth/methods/.
import type { Config } from '../config.ts';

/** The management client's client-credentials grant for the management API, its secret in the body. */
export function fullClientGrant(cfg: Config): Record<string, string> {
  return {
    grant_type: 'client_credentials',
    client_id: cfg.client.id,
    client_secret: cfg.client.secret,
    audience: cfg.audience,
  };
}
