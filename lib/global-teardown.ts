// Playwright global teardown of the conformance project: the last safety net. Whatever the
// tests did (or failed to undo), the configured resource server is put back to the snapshot.
import { rmSync } from 'node:fs';
import { allowed, loadConfig } from './config.ts';
import { hasRunState, readRunState } from './run-state.ts';
import { readResourceServer } from './preflight.ts';
import { restoreBody, unrestored } from './staging.ts';
import { readRunMeta, writeRunMeta } from './run-meta.ts';

export default async function globalTeardown(): Promise<void> {
  if (!hasRunState()) return;
  const teardownStartedAt = Date.now();
  const state = readRunState();
  const cfg = loadConfig();
  let requests = 0;
  let left: string[] = [];
  try {
    const { body: current, sent } = await readResourceServer(cfg, state.tokens.full, cfg.resourceServerId);
    requests += sent;
    const body = restoreBody(state.snapshot, current);
    let after = current;
    if (Object.keys(body).length > 0) {
      const res = await fetch(`${cfg.apiBase}/resource-servers/${encodeURIComponent(cfg.resourceServerId)}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${state.tokens.full}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(cfg.timeoutMs),
      });
      requests++;
      if (res.ok) after = (await res.json()) as Record<string, unknown>;
    }
    left = unrestored(state.snapshot, after);
    // Lowering was allowed (always on the embedded tenant): a clamped token_lifetime_for_web is accepted loss.
    if (allowed(cfg, 'lifetime')) left = left.filter((f) => f !== 'token_lifetime_for_web');
  } catch (e) {
    left = [`(restore failed: ${(e as Error).message})`];
  }
  if (left.length > 0) {
    process.stderr.write(`idm-conformance: warning: resource server ${cfg.resourceServerId} differs from its snapshot after the run: ${left.join(', ')}\n`);
  }
  const meta = readRunMeta();
  if (meta) {
    meta.requestsOutsideTests.teardown = requests;
    meta.restore = { ok: left.length === 0, unrestored: left };
    if (meta.timings) meta.timings = { ...meta.timings, teardownStartedAt, teardownEndedAt: Date.now() };
    writeRunMeta(meta);
  }
  rmSync(state.runDir, { recursive: true, force: true });
}
