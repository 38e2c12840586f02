// The two facts of the authentication API its settings may leave to the server's metadata
// (OpenID Connect Discovery 1.0 §3, RFC 8414 §2): the token endpoint and the issuer, the audience
// of client assertions. Read once by the global setup — the discovery document, then RFC 8414's
// for what the first does not say — and handed to the workers with the run state (config.ts
// withDiscovered), so that every worker posts to and signs for the same URLs. No document, or none
// with these members, discovers nothing: the settings' defaults apply.
import { NOTHING_DISCOVERED, type Config, type Discovered } from '../config.ts';
import { readCappedText } from '../tokens.ts';
import { metadataUrl, type MetadataDocument } from './endpoints.ts';

export async function readDiscovered(cfg: Config): Promise<Discovered> {
  let found: Discovered = NOTHING_DISCOVERED;
  for (const which of ['openid', 'oauth'] as const) {
    const d = await readDocument(cfg, which);
    found = { tokenEndpoint: found.tokenEndpoint ?? url(d?.token_endpoint), issuer: found.issuer ?? url(d?.issuer) };
    if (found.tokenEndpoint !== null && found.issuer !== null) break;
  }
  return found;
}

// Helpers

async function readDocument(cfg: Config, which: MetadataDocument): Promise<Record<string, unknown> | null> {
  try {
    const res = await fetch(metadataUrl(cfg, which), {
      headers: { accept: 'application/json' },
      redirect: 'manual',
      signal: AbortSignal.timeout(Math.min(cfg.timeoutMs, 5000)),
    });
    const text = await readCappedText(res);
    if (res.status !== 200) return null;
    const doc: unknown = JSON.parse(text);
    return typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function url(v: unknown): string | null {
  return typeof v === 'string' && /^https?:\/\/\S+$/.test(v) ? v : null;
}
