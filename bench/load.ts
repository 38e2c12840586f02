// A small closed-loop load generator (undici Pool): a fixed number of in-flight requests
// against one cheap route, bounded both in count and in time, so it always stops by itself.
import { Pool } from 'undici';

export interface LoadOptions {
  origin: string; // e.g. http://127.0.0.1:5090 (loopback only)
  path: string; // a cheap route
  method?: 'GET' | 'POST' | 'PATCH';
  headers?: Record<string, string>;
  body?: string;
  concurrency: number; // requests in flight at once
  maxRequests: number; // hard cap on requests sent
  maxSeconds: number; // hard cap on duration
  warmupRequests?: number; // sent first, not counted (JIT, connection setup)
}

export interface LoadResult {
  requests: number;
  seconds: number;
  requestsPerSecond: number;
  statuses: Record<string, number>;
  latencyMs: { p50: number; p99: number; max: number };
  errors: number;
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const url = new URL(o.origin);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname)) {
    throw new Error(`bench/load: refusing non-loopback target ${url.hostname}`);
  }
  const pool = new Pool(o.origin, { connections: o.concurrency, pipelining: 1 });
  try {
    const one = async (): Promise<[number, number]> => {
      const t0 = performance.now();
      const res = await pool.request({ method: o.method ?? 'GET', path: o.path, headers: o.headers, body: o.body });
      await res.body.dump();
      return [res.statusCode, performance.now() - t0];
    };
    for (let i = 0; i < (o.warmupRequests ?? 0); i++) await one().catch(() => undefined);

    const statuses: Record<string, number> = {};
    const latencies: number[] = [];
    let sent = 0;
    let errors = 0;
    const start = performance.now();
    const deadline = start + o.maxSeconds * 1000;
    const worker = async (): Promise<void> => {
      while (sent < o.maxRequests && performance.now() < deadline) {
        sent++;
        try {
          const [status, ms] = await one();
          statuses[status] = (statuses[status] ?? 0) + 1;
          latencies.push(ms);
        } catch {
          errors++;
        }
      }
    };
    await Promise.all(Array.from({ length: o.concurrency }, worker));
    const seconds = (performance.now() - start) / 1000;
    latencies.sort((a, b) => a - b);
    return {
      requests: sent,
      seconds,
      requestsPerSecond: sent / seconds,
      statuses,
      latencyMs: { p50: pct(latencies, 0.5), p99: pct(latencies, 0.99), max: latencies.at(-1) ?? 0 },
      errors,
    };
  } finally {
    await pool.close();
  }
}

// Helpers

function pct(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const v = sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
  return Math.round(v * 100) / 100;
}
