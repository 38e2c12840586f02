// §5.2 "Client ID and secret", Post: the secret in the body.
import { probeAnswer } from '../encoding.ts';
import { cc, ID_ALONE, type TokenMethod } from './method.ts';
import { runSkip } from '../../skip-record.ts';

export const POST: TokenMethod = {
  id: 'client-secret-post',
  name: 'Client ID and secret, Post',
  clause: 'auth.method.client-secret-post',
  refusedClause: 'auth.method.client-secret-post',
  acceptClauses: [],
  needs: runSkip(
    { setting: 'IDM_POST_CLIENT_ID' },
    'needs a client_secret_post client: set IDM_POST_CLIENT_ID and IDM_POST_CLIENT_SECRET',
  ),
  clients: (cfg) => (cfg.auth.post ? [{ id: cfg.auth.post.id, secret: cfg.auth.post.secret }] : []),
  async request(cfg, c, fault) {
    if (fault === ID_ALONE.id) return { data: { ...cc(cfg), client_id: c.id }, headers: {} };
    const secret = fault === 'wrong-secret' ? `${c.secret}-wrong` : c.secret;
    return { data: { ...cc(cfg), client_id: c.id, client_secret: secret }, headers: {} };
  },
  faults: [{ id: 'wrong-secret', what: 'a wrong client secret' }, ID_ALONE],
  known: (enc) => probeAnswer(enc),
  describe: () => 'client_id and client_secret in the body',
};
