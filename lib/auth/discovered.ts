// The two facts of the authentication API its settings may leave to the discovery document
// (OpenID Connect Discovery 1.0 §3, RFC 8414): the token endpoint and the issuer, the audience of
// client assertions. Read once by the global setup and handed to the workers with the run state
// (config.ts withDiscovered), so that every worker posts to and signs for the same URLs. No
// document, or one without these members, discovers nothing: the settings' defaults apply.
import { NOTHING_DISCOVERED, type Config, type Discovered } from '../config.ts';
import { readCappedText } from '../tokens.ts';
import { discoveryUrl } from './endpoints.ts';

export async function readDiscovered(cfg: Config): Promise<Discovered> {
  try {
    const res = await fetch(discoveryUrl(cfg), {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(Math.min(cfg.timeoutMs, 5000)),
    });
    const text = await readCappedText(res);
    if (res.status !== 200) return NOTHING_DISCOVERED;
    const doc: unknown = JSON.parse(text);
    if (typeof doc !== 'object' || doc === null) return NOTHING_DISCOVERED;
    const url = (v: unknown): string | null => (typeof v === 'string' && /^https?:\/\/\S+$/.test(v) ? v : null);
    const d = doc as Record<string, unknown>;
    return { tokenEndpoint: url(d.token_endpoint), issuer: url(d.issuer) };
  } catch {
    return NOTHING_DISCOVERED;
  }
}
