// POST /login/callback?connection=<saml connection> (§4.3: the one exception to JSON — the
// connection in the query, the SAMLResponse form-encoded; JSON is accepted too). Tenant
// choice: no identity-provider certificate is configured for `conformance-saml`, so no
// response can be verified — every SAMLResponse is refused with 400 and a description of
// the first fault (malformed, not a Response, unsigned, signature not verifiable). Never 5xx.
import type { TenantRequest, TenantResponse } from '../types.ts';
import type { AppContext } from '../context.ts';
import { begin, readBody, readQuery } from '../auth/request.ts';
import { SAML_CONNECTION } from '../config.ts';

const BASE64 = /^[A-Za-z0-9+/\r\n]+={0,2}\s*$/;

export function samlCallback(req: TenantRequest, ctx: AppContext): TenantResponse {
  const started = begin(ctx, 'auth.saml', `ip:${req.remoteAddress ?? '-'}`);
  if ('limited' in started) return started.limited;
  const { reply } = started;
  const q = readQuery(req.url);
  if (!q.ok) return reply.error(400, 'invalid_request', q.description);
  const connection = q.params.connection;
  if (connection === undefined || connection === '')
    return reply.error(400, 'invalid_request', 'Missing required query parameter: connection');
  if (connection !== SAML_CONNECTION)
    return reply.error(400, 'invalid_request', `Unknown SAML connection: ${connection}`);
  const read = readBody(req, ctx.parts.limits);
  if (!read.ok) return reply.error(read.status, 'invalid_request', read.description);
  const encoded = read.params.SAMLResponse;
  if (encoded === undefined || encoded === '')
    return reply.error(400, 'invalid_request', 'Missing required parameter: SAMLResponse');
  if (!BASE64.test(encoded)) return reply.error(400, 'invalid_saml_response', 'SAMLResponse is not base64');
  const xml = Buffer.from(encoded, 'base64').toString('utf8');
  if (!/^\s*(<\?xml[^>]*>\s*)?<([A-Za-z_][\w.-]*:)?Response[\s/>]/.test(xml)) {
    return reply.error(400, 'invalid_saml_response', 'SAMLResponse is not a SAML 2.0 Response document');
  }
  if (!/<([A-Za-z_][\w.-]*:)?Signature[\s/>]/.test(xml)) {
    return reply.error(400, 'invalid_saml_response', 'SAMLResponse is not signed');
  }
  return reply.error(
    400,
    'invalid_saml_response',
    `The signature cannot be verified: no identity-provider certificate is configured for ${connection}`,
  );
}
