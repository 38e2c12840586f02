// A staging tenant is left as found even when the run is killed (lib/journal.ts). A
// separately started reference tenant (the harness's, in this process) watches the run's
// requests; at chosen points — during the setup, during a write, in a property run, during
// the teardown — the whole run (runner and workers) is SIGKILLed, as a CI job timeout does.
// Then `npm run restore`, or the next run, must bring the resource server back to its
// pre-run state, field by field, read through the management API as the suite reads it.
// The signal cases: one SIGTERM restores before exiting; a second exits at once and
// leaves the journal for the next run. The tenant keeps experiment names unique and offers
// DELETE (the experiment profile): a run deletes every experiment it created, and the next run
// those a killed one left, read from the tenant's own store.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { requestDevToken, startHarnessTenant, type HarnessTenant, type TenantRequest } from '../mutation/tenant.ts';
import type { Variant } from '../mutation/variant.ts';
import { UNIQUE_AND_DELETABLE } from '../mutation/mutants-experiments.ts';
import type { ConformanceReport } from '../reporters/model.ts';
import type { RunMeta } from '../lib/run-meta.ts';
import { parseConfig } from '../lib/config.ts';
import { writeJournal } from '../lib/journal.ts';
import {
  removeWorkspaces,
  runCli,
  spawnCli,
  tenantSettings,
  workspace,
  type CliRun,
  type Workspace,
} from './cli-run.ts';

/** The run the points interrupt: the valid-update tests (a property run and single writes). */
const RUN_GREP = ['--grep', 'resource server: valid bodies'];
/**
 * Everything but `lifetime`: lowering token_lifetime clamps token_lifetime_for_web, which
 * §2.2 gives no way to write back (the loss that opt-in accepts); without it every change
 * the suite makes can be undone, so "as found" is exact.
 */
const ALLOW = { IDM_ALLOW: 'burst,experiments,irreversible' };
/** The next run: one short test; its global setup is what honours the journal. */
const NEXT_GREP = ['--grep', 'an empty body'];

interface Seen {
  /** PATCHes of the resource server, in order of arrival. */
  rsReads: number;
  rsWrites: number;
  /** Reads sent by the runtime (setup, teardown), not by a test: Node's fetch. */
  runtimeReads: number;
}

type Trigger = (req: TenantRequest, seen: Seen) => boolean;

interface Point {
  name: string;
  trigger: Trigger;
  recover: 'restore' | 'next run';
}

const isRsPatch = (r: TenantRequest) => r.method === 'PATCH' && r.url.startsWith('/api/v2/resource-servers/');
const isEmpty = (r: TenantRequest) => r.body.toString('utf8').trim() === '{}';
const fromRuntime = (r: TenantRequest) => (r.headers['user-agent'] ?? '') === 'node';

const POINTS: Point[] = [
  {
    name: 'setup: the snapshot read',
    trigger: (r, s) => isRsPatch(r) && fromRuntime(r) && s.runtimeReads === 1,
    recover: 'restore',
  },
  {
    name: 'the first write, applied after the kill',
    trigger: (r, s) => isRsPatch(r) && !isEmpty(r) && s.rsWrites === 1,
    recover: 'next run',
  },
  {
    name: 'a property run, its 4th write',
    trigger: (r, s) => isRsPatch(r) && !isEmpty(r) && s.rsWrites === 4,
    recover: 'restore',
  },
  {
    // The 6th: a property run writes at least that many even when a busy machine slows it.
    name: 'a later write (the 6th)',
    trigger: (r, s) => isRsPatch(r) && !isEmpty(r) && s.rsWrites === 6,
    recover: 'next run',
  },
  {
    name: 'teardown: the final read',
    trigger: (r, s) => isRsPatch(r) && fromRuntime(r) && s.runtimeReads === 2,
    recover: 'restore',
  },
];

test.describe.configure({ mode: 'serial' });
test.setTimeout(420_000);

let harness: HarnessTenant;
let origin: string;
/** `arm` sees each request first ('drop': it never reaches the tenant); `answered` sees each answer before it leaves. */
const watch: {
  arm: ((req: TenantRequest) => void | 'drop' | Promise<void>) | null;
  answered: ((req: TenantRequest) => void) | null;
  inFlight: number;
} = {
  arm: null,
  answered: null,
  inFlight: 0,
};
/** The experiments on the tenant now, by id, as its store holds them. */
const live = new Set<string>();

test.beforeAll(async () => {
  const watcher: Variant = {
    id: 'kill-watch',
    kind: 'benign',
    clause: null,
    fault: 'spec-silent',
    description: 'the reference tenant, with a hook that sees every request first',
    options: () => ({
      experiments: UNIQUE_AND_DELETABLE,
      parts: (d) => ({
        store: {
          ...d.store,
          saveExperiment: (e) => {
            live.add(e.id);
            d.store.saveExperiment(e);
          },
          deleteExperiment: (id) => {
            live.delete(id);
            return d.store.deleteExperiment(id);
          },
        },
      }),
      wrap: (next) => async (req) => {
        watch.inFlight++;
        try {
          if ((await watch.arm?.(req)) === 'drop') return { status: 503, headers: {}, body: Buffer.alloc(0) };
          const res = await next(req);
          watch.answered?.(req);
          return res;
        } finally {
          watch.inFlight--;
        }
      },
    }),
  };
  harness = await startHarnessTenant(watcher, { port: 0 });
  origin = harness.tenant.url;
});

test.afterAll(async () => {
  await harness?.tenant.close();
  removeWorkspaces();
});

async function readRs(): Promise<Record<string, unknown>> {
  const { token } = await requestDevToken(harness.tenant.url, harness.tenant.publicUrl);
  const res = await fetch(`${origin}/api/v2/resource-servers/rs_conformance`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(res.ok).toBe(true);
  return (await res.json()) as Record<string, unknown>;
}

/** Fields (by name) where `b` differs from `a`: the field-by-field comparison. */
function differing(a: Record<string, unknown>, b: Record<string, unknown>): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k])).sort();
}

/** Starts the run and kills its process group when `trigger` first holds; resolves when it is gone. */
async function killAt(
  ws: Workspace,
  trigger: Trigger,
  sig: NodeJS.Signals = 'SIGKILL',
  group = true,
): Promise<{ fired: boolean; run: CliRun; seen: Seen }> {
  const seen: Seen = { rsReads: 0, rsWrites: 0, runtimeReads: 0 };
  let fired = false;
  const run = spawnCli('conformance', ws, tenantSettings(origin, ALLOW), RUN_GREP);
  watch.arm = (req) => {
    if (fired) return;
    if (isRsPatch(req)) {
      if (isEmpty(req)) seen.rsReads++;
      else seen.rsWrites++;
      if (isEmpty(req) && fromRuntime(req)) seen.runtimeReads++;
    }
    if (trigger(req, seen)) {
      fired = true;
      if (group) run.killGroup(sig);
      else run.child.kill(sig);
    }
  };
  const hang = setTimeout(() => run.killGroup('SIGKILL'), 180_000);
  await run.done;
  clearTimeout(hang);
  watch.arm = null;
  while (watch.inFlight > 0) await new Promise((r) => setTimeout(r, 20));
  return { fired, run, seen };
}

function journals(ws: Workspace): string[] {
  return existsSync(ws.stateDir) ? readdirSync(ws.stateDir).filter((f) => f.startsWith('journal-')) : [];
}

test('SIGKILL at each point, then `npm run restore` or the next run: the resource server is back to its pre-run state', async () => {
  const pre = await readRs();
  const tally = { tried: 0, damaged: 0, restored: 0, lost: 0 };
  const lines: string[] = [];
  for (const point of POINTS) {
    const ws = workspace();
    const { fired, run, seen } = await killAt(ws, point.trigger);
    expect(
      fired,
      `${point.name}: the run reached the point (it wrote ${seen.rsWrites} times; output: ${run.output().slice(-400)})`,
    ).toBe(true);
    tally.tried++;
    const damage = differing(pre, await readRs());
    if (damage.length > 0) tally.damaged++;
    const leftJournal = journals(ws);
    if (point.name.startsWith('setup'))
      expect(leftJournal, 'killed before the snapshot was taken: no journal yet').toEqual([]);
    else expect(leftJournal, `${point.name}: the journal survives the kill`).toHaveLength(1);
    for (const f of leftJournal) {
      expect(statSync(join(ws.stateDir, f)).mode & 0o777, 'the journal is owner-only').toBe(0o600);
      expect(statSync(ws.stateDir).mode & 0o777, 'its folder is owner-only').toBe(0o700);
    }
    const r =
      point.recover === 'restore'
        ? await runCli('restore', ws, tenantSettings(origin, ALLOW))
        : await runCli('conformance', ws, tenantSettings(origin, ALLOW), NEXT_GREP);
    expect(r.code, `${point.name}: ${point.recover} ends well (${(r.stdout + r.stderr).slice(-600)})`).toBe(0);
    if (leftJournal.length > 0)
      expect(r.stderr).toMatch(/restored the changes of an interrupted run idmc-[a-z0-9-]+ from \d{4}-/);
    if (point.recover === 'next run' && leftJournal.length > 0) {
      const report = JSON.parse(readFileSync(join(ws.reportsDir, 'conformance.json'), 'utf8')) as {
        run: { notes?: string[] };
      };
      expect(report.run.notes?.join('\n') ?? '', 'the run facts say so').toMatch(
        /restored the changes of an interrupted run/,
      );
    }
    // The journal holds signing_secret: it is never printed.
    expect(run.output() + r.stdout + r.stderr).not.toContain(String(pre.signing_secret));
    const after = differing(pre, await readRs());
    if (after.length === 0) tally.restored++;
    else tally.lost++;
    expect(journals(ws), `${point.name}: the journal is removed once the restore is verified`).toEqual([]);
    lines.push(
      `${point.name}: damaged ${damage.join(', ') || '(nothing)'} → ${point.recover} → ${after.length === 0 ? 'equal' : `still different: ${after.join(', ')}`}`,
    );
  }
  test.info().annotations.push({
    type: 'kill points',
    description: `${tally.tried} tried, ${tally.damaged} damaged by the kill, ${tally.restored} restored, ${tally.lost} lost`,
  });
  console.log(
    `kill test: ${tally.tried} tried, ${tally.damaged} damaged, ${tally.restored} restored, ${tally.lost} lost\n  ${lines.join('\n  ')}`,
  );
  expect(tally.damaged, 'at least one point left damage to undo (else the test could not fail)').toBeGreaterThan(0);
  expect(tally.lost).toBe(0);
});

test('one SIGTERM: the tests stop, the resource server is restored, exit 130; a second: exit at once, the journal stays', async () => {
  const pre = await readRs();
  // Once, to the command only (as `kill <pid>` or a CI cancel that signals the job's command).
  const once = workspace();
  const first = await killAt(once, (r, s) => isRsPatch(r) && !isEmpty(r) && s.rsWrites === 3, 'SIGTERM', false);
  expect(first.fired).toBe(true);
  const res = await first.run.done;
  expect(res.code, res.stderr.slice(-600)).toBe(130);
  expect(res.stderr).toMatch(/SIGTERM: stopping the tests and restoring/);
  expect(differing(pre, await readRs())).toEqual([]);
  expect(journals(once)).toEqual([]);

  // Twice: the second signal exits at once; the journal is left for the next run.
  const twice = workspace();
  const run = spawnCli('conformance', twice, tenantSettings(origin, ALLOW), RUN_GREP);
  let writes = 0;
  // The restore the first signal starts is held until the second signal has come: a fast restore
  // must not leave nothing for the second signal to interrupt.
  let secondSent!: () => void;
  const second = new Promise<void>((r) => (secondSent = r));
  watch.arm = (req) => {
    if (!(isRsPatch(req) && !isEmpty(req))) return;
    if (++writes === 3) {
      run.child.kill('SIGTERM');
      setTimeout(() => {
        run.child.kill('SIGTERM');
        secondSent();
      }, 100);
      return;
    }
    if (writes > 3) return second.then(() => new Promise<void>((r) => setTimeout(r, 1000)));
  };
  const r2 = await run.done;
  watch.arm = null;
  run.killGroup('SIGKILL'); // the runner, orphaned by the immediate exit
  expect(r2.code).toBe(130);
  expect(r2.stderr).toMatch(/SIGTERM again: exiting now/);
  expect(journals(twice)).toHaveLength(1);
  await new Promise((r) => setTimeout(r, 500));
  const restore = await runCli('restore', twice, tenantSettings(origin, ALLOW));
  expect(restore.code, restore.stderr).toBe(0);
  expect(differing(pre, await readRs())).toEqual([]);
  expect(journals(twice)).toEqual([]);
});

const isCreation = (r: TenantRequest) => r.method === 'POST' && r.url.startsWith('/api/v2/experimentation/experiments');
/** The experiment specs of one worker: a few dozen creations, every kind of test that creates. */
const EXPERIMENT_GREP = ['--grep', 'create an experiment'];

/** What the setup of the run in `ws` did with the experiments an interrupted run left (its run-meta.json). */
function recovered(ws: Workspace): RunMeta['recoveredExperiments'] {
  return (JSON.parse(readFileSync(join(ws.reportsDir, 'run-meta.json'), 'utf8')) as RunMeta).recoveredExperiments;
}

function experimentJournals(ws: Workspace): string[] {
  return existsSync(ws.stateDir) ? readdirSync(ws.stateDir).filter((f) => f.startsWith('experiments-')) : [];
}

test('experiments: a run deletes those it created; killed midway, the next run deletes what it left, naming a creation no answer came back to', async () => {
  // A whole run: none remains, and the report says so in data.
  live.clear();
  const ws = workspace();
  const whole = await runCli('conformance', ws, tenantSettings(origin, ALLOW), EXPERIMENT_GREP);
  expect(whole.code, whole.stderr.slice(-600)).toBe(0);
  const report = JSON.parse(readFileSync(join(ws.reportsDir, 'conformance.json'), 'utf8')) as ConformanceReport;
  expect(report.run.experiments?.listed).toBeGreaterThan(10);
  expect(report.run.experiments).toMatchObject({ deleted: report.run.experiments?.listed, left: [] });
  expect([...live], 'no experiment of the run remains').toEqual([]);
  expect(experimentJournals(ws)).toEqual([]);

  // Killed as its 12th creation arrives (which never reaches the tenant): the journal outlives it.
  const killed = workspace();
  const run = spawnCli('conformance', killed, tenantSettings(origin, ALLOW), EXPERIMENT_GREP);
  let creations = 0;
  watch.arm = (req) => {
    if (!isCreation(req) || ++creations !== 12) return;
    run.killGroup('SIGKILL');
    return 'drop';
  };
  await run.done;
  watch.arm = null;
  while (watch.inFlight > 0) await new Promise((r) => setTimeout(r, 20));
  const left = live.size;
  expect(left, 'the kill left experiments behind (else the test could not fail)').toBeGreaterThan(0);
  expect(experimentJournals(killed)).toHaveLength(1);
  for (const f of experimentJournals(killed))
    expect(statSync(join(killed.stateDir, f)).mode & 0o777, 'the experiment journal is owner-only').toBe(0o600);
  const next = await runCli('conformance', killed, tenantSettings(origin, ALLOW), NEXT_GREP);
  expect(next.code, next.stderr.slice(-600)).toBe(0);
  // Read from the run's records (run-meta.json), not its words.
  expect(recovered(killed)).toMatchObject({ listed: left, deleted: left, left: [] });
  expect([...live], 'the next run deleted what the killed one left').toEqual([]);
  expect(experimentJournals(killed)).toEqual([]);

  // Killed after the tenant created one and before its answer left: no id to delete it by, so it is named.
  const late = workspace();
  const again = spawnCli('conformance', late, tenantSettings(origin, ALLOW), EXPERIMENT_GREP);
  let answered = 0;
  let inFlight: string | null = null;
  watch.answered = (req) => {
    if (!isCreation(req) || ++answered !== 12) return;
    inFlight = String((JSON.parse(req.body.toString('utf8')) as { name?: unknown }).name);
    again.killGroup('SIGKILL');
  };
  await again.done;
  watch.answered = null;
  while (watch.inFlight > 0) await new Promise((r) => setTimeout(r, 20));
  const after = await runCli('conformance', late, tenantSettings(origin, ALLOW), NEXT_GREP);
  expect(after.code, after.stderr.slice(-600)).toBe(0);
  expect(recovered(late)?.inFlight.map((c) => c.name)).toEqual([inFlight]);
  expect(recovered(late)?.left).toEqual([]);
  expect(live.size, 'only the creation no answer came back to remains').toBeLessThanOrEqual(1);
  // Put right by hand, as a reader of that line would.
  const { token } = await requestDevToken(harness.tenant.url, harness.tenant.publicUrl);
  for (const id of [...live])
    await fetch(`${origin}/api/v2/experimentation/experiments/${id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
  expect([...live]).toEqual([]);
});

test('two runs against the same resource server at once: the second is refused in one line', async () => {
  const ws = workspace();
  const first = spawnCli('conformance', ws, tenantSettings(origin, ALLOW), RUN_GREP);
  let started!: () => void;
  let resume!: () => void;
  const writing = new Promise<void>((r) => (started = r));
  const held = new Promise<void>((r) => (resume = r));
  // The first run's first write is held open: that run is certainly still going.
  watch.arm = (req) => {
    if (!(isRsPatch(req) && !isEmpty(req))) return;
    watch.arm = null;
    started();
    return held;
  };
  await writing;
  const second = await runCli('restore', ws, tenantSettings(origin, ALLOW));
  const third = await runCli('conformance', ws, tenantSettings(origin, ALLOW), NEXT_GREP);
  resume();
  first.killGroup('SIGKILL');
  await first.done;
  for (const r of [second, third]) {
    expect(r.code, r.stderr).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l.includes('idm-conformance:'));
    expect(lines).toEqual([
      expect.stringMatching(
        /^idm-conformance: IDM_E_RUN_IN_PROGRESS: another run \(pid \d+\) is using resource server rs_conformance/,
      ),
    ]);
  }
  const done = await runCli('restore', ws, tenantSettings(origin, ALLOW));
  expect(done.code, done.stderr).toBe(0);
});

test('a restore that cannot be verified: exit 3 in one line, the journal stays, and the next run refuses to snapshot over it', async () => {
  const ws = workspace();
  const settings = tenantSettings(origin, ALLOW);
  const cfg = parseConfig(settings);
  const pre = await readRs();
  // A snapshot no update can reach: its id differs (ids are not writable, §2.2).
  // env: the journal finds its folder through this process's IDM_STATE_DIR (runSettings); moved around the write only.
  const saved = process.env.IDM_STATE_DIR;
  process.env.IDM_STATE_DIR = ws.stateDir;
  try {
    writeJournal(cfg, {
      runTag: 'idmc-test-zz',
      startedAt: new Date(0).toISOString(),
      snapshot: { ...pre, id: 'rs_elsewhere' },
    });
  } finally {
    if (saved === undefined) delete process.env.IDM_STATE_DIR;
    else process.env.IDM_STATE_DIR = saved;
  }
  for (const r of [await runCli('restore', ws, settings), await runCli('conformance', ws, settings, NEXT_GREP)]) {
    expect(r.code, r.stderr.slice(-600)).toBe(3);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('idm-conformance:'));
    expect(lines).toEqual([
      expect.stringMatching(
        /^idm-conformance: IDM_E_RESTORE_UNVERIFIED: the changes of the interrupted run idmc-test-zz .*still different: id\b/,
      ),
    ]);
    expect(r.stderr).not.toContain(String(pre.signing_secret));
    expect(journals(ws)).toHaveLength(1);
  }
});

test('the journal folder is git-ignored', () => {
  const out = execFileSync('git', ['check-ignore', '.idm-state/journal-0123456789abcdef.json'], { encoding: 'utf8' });
  expect(out.trim()).toBe('.idm-state/journal-0123456789abcdef.json');
});
