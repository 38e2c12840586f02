// The experiments a run created (lib/experiment-journal.ts) deleted after it. The spec does not show
// DELETE /experimentation/experiments/{id}: it is tried, and what came of it told in the run facts,
// never judged (which answers keep an experiment for the next run: lib/README.md, *Run lifecycle*).
import type { Config } from './config.ts';
import { keepCreated, readCreated, type Created, type Named } from './experiment-journal.ts';
import { EXPERIMENTS_PATH } from './http.ts';
import { sendOutsideTests, unpaced, type Pacing } from './preflight.ts';
import { describeNetworkError } from './tokens.ts';

export interface Cleanup {
  /** The runs whose experiments these were (this run's, or an interrupted one's). */
  runTags: string[];
  /** The experiments created, by id. */
  listed: number;
  deleted: number;
  /** Still on the tenant, each with why in words, and whether a later run may try again (a 5xx, no answer, a refused token). */
  left: Array<Created & { retry: boolean; why: string }>;
  /** Creations no answer came back to (a kill, or a tenant that did not answer): they may exist, with no id to delete them by. */
  inFlight: Named[];
  /** The tenant offers no DELETE of experiments: what it answered, said once for all of them. */
  notOffered?: string;
  requests: number;
}

/** DELETE of one experiment as it came out. */
type Deleted = { ok: true } | { ok: false; status: number | null; why: string };

/** Deletes every experiment the journal lists; null when it lists none. The journal keeps those worth another try. */
export async function deleteCreated(
  cfg: Config,
  token: string,
  o: { pace?: Pacing; freshToken?: () => Promise<string> } = {},
): Promise<Cleanup | null> {
  const { created: listed, inFlight } = readCreated(cfg);
  if (listed.length === 0 && inFlight.length === 0) return null;
  const out: Cleanup = {
    runTags: [...new Set([...listed, ...inFlight].map((c) => c.runTag))],
    listed: listed.length,
    deleted: 0,
    left: [],
    inFlight,
    requests: 0,
  };
  // A 404 before anything was deleted may be an experiment gone or a route that does not exist: a second one says which.
  let unsure: Created | null = null;
  for (const c of listed) {
    if (out.notOffered !== undefined) {
      out.left.push({ ...c, retry: false, why: out.notOffered });
      continue;
    }
    let r = await deleteOne(cfg, token, c.id, o.pace ?? unpaced);
    // A token that expired during a long run is replaced once.
    if (!r.deleted.ok && r.deleted.status === 401 && o.freshToken) {
      const fresh = o.freshToken;
      delete o.freshToken;
      try {
        token = await fresh();
        out.requests += r.requests + 1;
        r = await deleteOne(cfg, token, c.id, o.pace ?? unpaced);
      } catch {
        // keep the refusal
      }
    }
    out.requests += r.requests;
    const d = r.deleted;
    if (d.ok) {
      out.deleted++;
      unsure = null; // it was gone
      continue;
    }
    const noRoute = d.status === 405 || (d.status === 404 && out.deleted === 0 && unsure !== null);
    if (noRoute) {
      out.notOffered = `DELETE ${EXPERIMENTS_PATH}/{id} answered ${d.status}`;
      if (unsure) out.left.push({ ...unsure, retry: false, why: out.notOffered });
      out.left.push({ ...c, retry: false, why: out.notOffered });
      unsure = null;
    } else if (d.status === 404 && out.deleted === 0) unsure = c;
    else if (d.status !== 404) out.left.push({ ...c, retry: true, why: d.why });
    // a 404 once something was deleted: that one is gone already
  }
  if (unsure) out.left.push({ ...unsure, retry: false, why: 'DELETE answered 404: gone already, or not offered' });
  // Not offered, gone, or never known by id: nothing to try again. A failure that may pass next time stays listed.
  keepCreated(
    cfg,
    out.left.filter((c) => c.retry),
  );
  return out;
}

/** One line for people: what became of the experiments of this run, or of the interrupted run(s) before it. */
export function cleanupLine(o: Cleanup, interrupted: boolean): string {
  const whose = interrupted
    ? `the interrupted run${o.runTags.length === 1 ? '' : 's'} ${o.runTags.join(', ')}`
    : 'this run';
  const n = `${o.listed} experiment${o.listed === 1 ? '' : 's'} ${whose} created`;
  const line =
    o.notOffered !== undefined && o.deleted === 0
      ? `the ${n} remain: the tenant offers no way to delete one (${o.notOffered}; the spec shows none); their names start with ${o.runTags.join(', ')}`
      : o.left.length === 0
        ? `deleted the ${n} (DELETE ${EXPERIMENTS_PATH}/{id}, which the spec does not show)`
        : `${o.left.length} of the ${n} could not be deleted (${o.deleted} were): ${firstFive(o.left.map((c) => `${c.id} "${c.name}": ${c.why}`))}`;
  if (o.inFlight.length === 0) return line;
  const k = o.inFlight.length;
  return `${line}; ${k} creation${k === 1 ? '' : 's'} no answer came back to (the run was killed, or the tenant did not answer) may exist, with no id to delete ${k === 1 ? 'it' : 'them'} by: ${firstFive(o.inFlight.map((c) => `"${c.name}"`))}`;
}

/** What became of the experiments a run created, as the report tells it (conformance.json run.experiments). */
export interface CleanupReport {
  listed: number;
  deleted: number;
  left: Array<{ id: string; name: string; why: string }>;
  /** The tenant offers no DELETE of experiments: what it answered, said once for all. */
  notOffered?: string;
}

/** The report's account: every experiment left, with why; a creation no answer came back to has no id. */
export function cleanupReport(c: Cleanup): CleanupReport {
  return {
    listed: c.listed + c.inFlight.length,
    deleted: c.deleted,
    left: [
      ...c.left.map(({ id, name, why }) => ({ id, name, why })),
      ...c.inFlight.map(({ name }) => ({
        id: '',
        name,
        why: 'no answer came back to its creation: no id to delete it by',
      })),
    ],
    ...(c.notOffered !== undefined ? { notOffered: c.notOffered } : {}),
  };
}

// Helpers

/** The first five, then how many more. */
function firstFive(items: string[]): string {
  return `${items.slice(0, 5).join('; ')}${items.length > 5 ? `; ${items.length - 5} more in run-meta.json` : ''}`;
}

async function deleteOne(
  cfg: Config,
  token: string,
  id: string,
  pace: Pacing,
): Promise<{ deleted: Deleted; requests: number }> {
  const url = `${cfg.apiBase}${EXPERIMENTS_PATH}/${encodeURIComponent(id)}`;
  const r = await sendOutsideTests(url, {
    method: 'DELETE',
    token,
    timeoutMs: cfg.timeoutMs,
    resendWindowMs: cfg.resendWindowMs,
    pace,
  });
  if ('error' in r)
    return {
      deleted: { ok: false, status: null, why: `no answer: ${describeNetworkError(r.error)}` },
      requests: r.sent,
    };
  if (r.res.ok) return { deleted: { ok: true }, requests: r.sent };
  return {
    deleted: { ok: false, status: r.res.status, why: `answered ${r.res.status}${errorOf(r.text)}` },
    requests: r.sent,
  };
}

/** The error code an answer carries, in a few words. */
function errorOf(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; errorCode?: unknown };
    const code = typeof body.errorCode === 'string' ? body.errorCode : body.error;
    return typeof code === 'string' ? ` ${code}` : '';
  } catch {
    return text === '' ? '' : ' (no JSON body)';
  }
}
