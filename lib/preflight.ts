// Reachability, credentials and the resource-server snapshot, before any test runs. Any
// failure is one line with a stable code; the global setup turns it into the exit code.
import { randomInt } from 'node:crypto';
import { IdmError } from './errors.ts';
import { clientSetting, type Config } from './config.ts';
import { obtainToken, describeNetworkError, oddAnswer, readCappedText } from './tokens.ts';
import { sleep } from './lock.ts';
import type { ResourceServer } from './staging.ts';
import type { Pacer } from './pacer.ts';
import { bucketKey, throughDeploy } from './http.ts';

export interface Preflight {
  tokens: { full: string; limited: string | null };
  snapshot: ResourceServer;
  requests: number;
}

export async function preflight(cfg: Config): Promise<Preflight> {
  let requests = 0;
  const full = await obtainToken(cfg, cfg.client, clientSetting(cfg));
  requests++;
  let limited: string | null = null;
  if (cfg.limited) {
    limited = await obtainToken(cfg, cfg.limited, 'IDM_LIMITED_CLIENT_ID');
    requests++;
  }
  const { body, sent } = await readResourceServer(cfg, full, cfg.resourceServerId);
  requests += sent;
  return { tokens: { full, limited }, snapshot: body, requests };
}

/** Reads a resource server through an empty update; classifies every refusal. */
export async function readResourceServer(
  cfg: Config,
  token: string,
  id: string,
  pace: Pacing = unpaced,
): Promise<{ body: ResourceServer; sent: number }> {
  const url = `${cfg.apiBase}/resource-servers/${encodeURIComponent(id)}`;
  const answer = await sendOutsideTests(url, {
    method: 'PATCH',
    token,
    body: '{}',
    timeoutMs: Math.min(cfg.timeoutMs, 5000),
    resendWindowMs: cfg.resendWindowMs,
    pace,
  });
  if ('error' in answer)
    throw new IdmError(
      'IDM_E_TARGET_UNREACHABLE',
      `${cfg.apiBase} did not answer (${describeNetworkError(answer.error)})`,
    );
  const { res, text } = answer;
  const odd = oddAnswer(res, cfg.baseUrl);
  if (odd) throw new IdmError('IDM_E_TARGET_UNUSABLE', `reading IDM_RESOURCE_SERVER_ID at ${cfg.apiBase} ${odd}`);
  if (res.status === 401 || res.status === 403) {
    throw new IdmError(
      'IDM_E_CREDENTIALS_REJECTED',
      `the management API refused the token of IDM_CLIENT_ID for the update of IDM_RESOURCE_SERVER_ID (${res.status}); it needs update:resource_servers`,
    );
  }
  if (res.status === 404 || res.status === 400) {
    throw new IdmError(
      'IDM_E_CONFIG_RESOURCE_SERVER',
      `IDM_RESOURCE_SERVER_ID "${id}" cannot be updated at ${cfg.apiBase} (${res.status}); name a custom resource server the suite may modify`,
    );
  }
  if (!res.ok)
    throw new IdmError(
      'IDM_E_TARGET_UNUSABLE',
      `reading IDM_RESOURCE_SERVER_ID through PATCH {} answered ${res.status}`,
    );
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new IdmError(
      'IDM_E_TARGET_UNUSABLE',
      `reading IDM_RESOURCE_SERVER_ID answered ${res.status} without a JSON body`,
    );
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) {
    throw new IdmError(
      'IDM_E_TARGET_UNUSABLE',
      `reading IDM_RESOURCE_SERVER_ID answered ${res.status} without a resource-server object`,
    );
  }
  // A system resource server answers 400 above (§7.1); an is_system: true here is the
  // target's fault, for the suite to report (rs.response.is_system.custom-false).
  return { body: body as ResourceServer, sent: answer.sent };
}

/**
 * One request outside the tests with the management token, paced; a 429 is waited out twice (the
 * run's last requests may meet a bucket its tests emptied). The answer and its text, or what kept
 * it from coming; with the requests sent either way.
 */
export async function sendOutsideTests(
  url: string,
  o: { method: string; token: string; body?: string; timeoutMs: number; resendWindowMs: number; pace: Pacing },
): Promise<{ res: Response; text: string; sent: number } | { error: unknown; sent: number }> {
  let sent = 0;
  for (let tries = 1; ; tries++) {
    let res: Response;
    try {
      res = await throughDeploy(o.resendWindowMs, () => {
        sent++;
        return o.pace(url, o.method, () =>
          fetch(url, {
            method: o.method,
            headers: {
              authorization: `Bearer ${o.token}`,
              accept: 'application/json',
              ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
            },
            ...(o.body !== undefined ? { body: o.body } : {}),
            redirect: 'manual',
            signal: AbortSignal.timeout(o.timeoutMs),
          }),
        );
      });
    } catch (error) {
      return { error, sent };
    }
    const text = await readCappedText(res);
    if (res.status === 429 && tries < 3) {
      await sleep(1500);
      continue;
    }
    return { res, text, sent };
  }
}

/** A short tag carried by everything the run creates, e.g. idmc-mf3k2a-7q. */
export function newRunTag(now = Date.now()): string {
  return `idmc-${now.toString(36)}-${randomInt(36 ** 2)
    .toString(36)
    .padStart(2, '0')}`;
}

export function newSeed(): number {
  return randomInt(0x7fffffff);
}

/**
 * How a request outside the tests is paced: the teardown's spend the run's own buckets (the
 * pacer's state in the run folder), so a run that emptied a bucket is not answered 429 at its
 * last request; before any test has run there is nothing to pace by.
 */
export type Pacing = (url: string, method: string, send: () => Promise<Response>) => Promise<Response>;

export const unpaced: Pacing = (_url, _method, send) => send();

/** Pacing by the run's pacer, in the management client's buckets (lib/http.ts bucketKey, client "full"). */
export function pacedBy(pacer: Pacer, cfg: Config): Pacing {
  return async (url, method, send) => {
    const key = bucketKey('full', method, url, cfg.apiBase);
    await pacer.acquire(key);
    try {
      const res = await send();
      await pacer.release(key, Object.fromEntries(res.headers), res.status);
      return res;
    } catch (e) {
      await pacer.release(key, null, null);
      throw e;
    }
  };
}
