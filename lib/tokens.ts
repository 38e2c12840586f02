// Management tokens through the client-credentials grant at the target's token endpoint,
// exactly as a real integration gets them (spec §5.1). Used once per client per run by
// the global setup; the outcome is classified into the suite's stable error codes.
import { IdmError } from './errors.ts';
import type { ClientCredentials, Config } from './config.ts';
import { throughDeploy } from './http.ts';

export interface TokenResult {
  ok: boolean;
  status: number;
  /** Why the answer is not a tenant's, when it plainly is not (a login page, a redirect). */
  oddity: string | null;
  accessToken: string | null;
  /** The OAuth error code when refused (e.g. invalid_client), for the one-line message. */
  error: string | null;
}

/** Requests a token; network failures become IDM_E_TARGET_UNREACHABLE. */
async function requestToken(
  cfg: Config,
  client: ClientCredentials,
  audience = cfg.audience,
  timeoutMs = Math.min(cfg.timeoutMs, 5000),
): Promise<TokenResult> {
  const body = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: client.id,
    client_secret: client.secret,
    audience,
  });
  let res: Response;
  try {
    res = await throughDeploy(cfg.resendWindowMs, () =>
      fetch(cfg.tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      }),
    );
  } catch (e) {
    throw new IdmError('IDM_E_TARGET_UNREACHABLE', `${cfg.baseUrl} did not answer (${describeNetworkError(e)})`);
  }
  const text = await readCappedText(res);
  let json: Record<string, unknown> | null = null;
  try {
    json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    json = null;
  }
  const accessToken = typeof json?.access_token === 'string' ? json.access_token : null;
  return {
    ok: res.ok && accessToken !== null,
    status: res.status,
    oddity: oddAnswer(res, cfg.baseUrl),
    accessToken,
    error: typeof json?.error === 'string' ? json.error : null,
  };
}

/** A token or the IdmError that explains, in one line, why there is none. */
export async function obtainToken(cfg: Config, client: ClientCredentials, setting: string): Promise<string> {
  const r = await requestToken(cfg, client);
  if (r.ok && r.accessToken) return r.accessToken;
  if (r.oddity) throw new IdmError('IDM_E_TARGET_UNUSABLE', `the token endpoint ${cfg.tokenUrl} ${r.oddity}`);
  if (r.status === 400 || r.status === 401 || r.status === 403) {
    throw new IdmError(
      'IDM_E_CREDENTIALS_REJECTED',
      `the token endpoint refused ${setting} "${client.id}" (${r.status}${r.error ? ` ${r.error}` : ''})`,
    );
  }
  if (r.status === 404 || r.status === 405) {
    throw new IdmError(
      'IDM_E_TARGET_UNUSABLE',
      `no token endpoint at ${cfg.tokenUrl} (${r.status}); check IDM_BASE_URL and IDM_TOKEN_PATH`,
    );
  }
  throw new IdmError(
    'IDM_E_TARGET_UNUSABLE',
    `the token endpoint ${cfg.tokenUrl} answered ${r.status} without an access_token`,
  );
}

export function describeNetworkError(e: unknown): string {
  const err = e as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (err?.name === 'TimeoutError' || err?.name === 'AbortError') return 'timed out';
  return err?.cause?.code ?? err?.cause?.message ?? err?.message ?? String(e);
}

/** Bodies the runtime reads (token, snapshot) are small; a hostile answer is cut, not buffered whole. */
const MAX_RUNTIME_BODY_BYTES = 1024 * 1024;

export async function readCappedText(res: Response, max = MAX_RUNTIME_BODY_BYTES): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let kept = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      kept += value.length;
      if (kept > max) {
        await reader.cancel().catch(() => undefined);
        break;
      }
    }
  } catch {
    // a reset or a stall mid-body (the request's timeout aborts the read): what came is all
  }
  return new TextDecoder('utf-8').decode(Buffer.concat(chunks).subarray(0, max));
}

/**
 * An answer that plainly is not the tenant's, in words the user can act on: a redirect (an
 * http:// base URL sent on to https://, which the suite does not follow: a redirected POST
 * may lose its body and credentials) or an HTML page (a login wall or proxy in front).
 */
export function oddAnswer(res: Response, baseUrl: string): string | null {
  const location = res.headers.get('location');
  if (res.status >= 300 && res.status < 400) {
    if (location && baseUrl.startsWith('http://') && /^https:\/\//i.test(location)) {
      return `answered ${res.status} redirecting to ${location.split('?')[0]}: the tenant is served over https; set IDM_BASE_URL to ${baseUrl.replace(/^http:/, 'https:')}`;
    }
    return `answered ${res.status} redirecting to ${location ?? '(no Location)'}; the suite does not follow redirects: set IDM_BASE_URL to where the tenant answers`;
  }
  const type = res.headers.get('content-type') ?? '';
  if (/text\/html|application\/xhtml/i.test(type)) {
    return `answered ${res.status} with an HTML page (${type.split(';')[0]}), not JSON: a login page or proxy stands in front of the tenant; check IDM_BASE_URL and the network path`;
  }
  return null;
}
