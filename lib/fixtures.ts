// The conformance `test`: Playwright's test extended with fixtures that cannot be misused.
//   mgmt     – client carrying the run's management token (full client)
//   anon     – client without credentials; .withAuthorization() for forged/malformed ones
//   limited  – client of the limited client (skips the test, with the reason, if not configured)
//   check    – the clause-first check recorder (lib/checks.ts)
//   gate     – the accepted-twin rule every refusal of both halves is judged through, and the
//              runner of named conditions (lib/twin-gate.ts, lib/condition.ts)
//   rs       – the configured resource server, locked for this test, restored afterwards; each
//              answer held against a write lost later (lib/lost-writes.ts)
//   experiments – creation helper: a name of its own per payload, each creation journaled for the
//              cleanup after the run; skips unless experiments may be created on the target
//   credentials – context for building refused credentials (lib/credentials.ts)
//   run      – read-only facts: config, seed, run tag, snapshot, depth runs
//   suite    – (worker) config, run state, redactor, pacer: for the burst test only
//   loginBrowser – (worker) one Chromium, launched the first time a browser flow needs it
//              (here, not in lib/auth/flow-fixtures.ts, so that every spec shares one kind of worker)
// Every request is paced and counted; the count lands in the `requests` annotation.
// Fixtures that only build an object are `box: 'self'`: no step of their own in the reports, where
// each was a step begun and ended, twice per test (setup, teardown), each a message to the runner.
// The runner's own test, without @playwright/test's browser fixtures: no spec uses page, context or
// request (undici sends; lib/auth/browser.ts launches Chromium itself), and their per-test auto
// fixtures (trace recording, context options) cost every test a few steps, each with a captured,
// source-mapped stack: about a second of CPU per worker.
import { _baseTest as base, expect } from '@playwright/test';
import { recordMetadata, reportsToAllure } from './allure-meta.ts';
import { join } from 'node:path';
import {
  allowed,
  DEPTH_RUNS,
  loadConfig,
  NOTHING_DISCOVERED,
  managementSkip,
  authenticationSkip,
  optInSkip,
  secretValues,
  separateAuthUrl,
  withDiscovered,
  type Config,
} from './config.ts';
import { readRunState, type RunState } from './run-state.ts';
import { createRedactor, type Redactor } from './redact.ts';
import { Pacer } from './pacer.ts';
import {
  ApiClient,
  EXPERIMENTS_PATH,
  RESENT_ANNOTATION,
  resourceServerPath,
  type Encoding,
  type Exchange,
  type RequestCounter,
} from './http.ts';
import { Checks } from './checks.ts';
import { TwinGate } from './twin-gate.ts';
import { judgeAnswer } from './answer-rules.ts';
import { passes, PASSES } from './answer-class.ts';
import { acquire, release } from './lock.ts';
import {
  makeSafe,
  readRestoreRefusal,
  refusedRestoreFields,
  restoreBody,
  unrestored,
  writeRestoreRefusal,
  type ResourceServer,
} from './staging.ts';
import { highestSeverity, sectionLink, clauseEntry } from './catalogue.ts';
import type { CredentialContext } from './credentials.ts';
import { loginBrowserFixture, type LoginBrowser } from './auth/browser.ts';
import { attackList } from './auth/attacks/record.ts';
import { experimentPayload, SERIAL_WIDTH, type ExperimentBody, type ExperimentOptions } from '../generators/index.ts';
import { recordAnswered, recordSending } from './experiment-journal.ts';
import { issued } from './credential-origin.ts';
import { INVARIANTS, stateOf } from './management/update-answer.ts';
import { isObject, short } from './values.ts';
import { claimLostWrite, StateLedger, WriteWatch } from './lost-writes.ts';
import { encodeSkip, NO_ANSWER_ANNOTATION, noAnswerSkip, runSkip, type SkipRecord } from './skip-record.ts';
import { MANAGEMENT_OPERATIONS, skipTest } from './declare.ts';

export interface Suite {
  cfg: Config;
  state: RunState;
  redactor: Redactor;
  pacer: Pacer;
}

export interface RunInfo {
  cfg: Config;
  seed: number;
  runTag: string;
  snapshot: ResourceServer;
  runs: { update: number; experiment: number };
}

export interface ResourceServerUnderTest {
  id: string;
  /** The identifier (audience) from the snapshot, when it has one. */
  identifier: string | null;
  snapshot: ResourceServer;
  /**
   * The state this test starts from: the snapshot, or — once a restore was refused (said once,
   * lib/staging.ts) — the state read at the start, so no-write and read-your-writes are judged
   * against a state the suite knows.
   */
  start: ResourceServer;
  /** PATCH the resource server. `via` addresses it by another path parameter (identifier…). */
  update(
    body: unknown,
    o?: { via?: string; encoding?: Encoding; raw?: string; headers?: Record<string, string> },
  ): Promise<Exchange>;
  /** Current state through an empty partial update (the spec shows no read operation). */
  read(): Promise<Exchange>;
  /** The state the tenant last answered with (null after a refused write, which may have written). */
  current(): ResourceServer | null;
  /**
   * Why a judgement on these answers is skipped: a write lost later changed the state one of
   * them shows (said under rs.update.persisted, lib/lost-writes.ts); null when none did.
   */
  lostWrite(...exs: Exchange[]): SkipRecord | null;
  /** A valid body made safe for the target (lib/staging.ts); identity on the embedded tenant. */
  safe<T extends Record<string, unknown>>(body: T): Record<string, unknown>;
}

export interface ExperimentsHelper {
  /** The generator options of this run, with a serial per payload: each payload's name is its own. */
  options: ExperimentOptions;
  /** A realistic payload (generators/experiment.ts): control and treatment at 50/50, a name of its own. */
  realistic(): ExperimentBody;
  /** POST, journaled before it is sent and with the id it was answered with, for the cleanup after the run (lib/experiment-journal.ts). */
  create(body: unknown, o?: { encoding?: Encoding; client?: ApiClient }): Promise<Exchange>;
}

export interface Internals {
  counter: RequestCounter;
  transcript: Exchange[];
  client: (name: string, token: string | null) => ApiClient;
  _record: void;
}

export const test = base.extend<
  Internals & {
    run: RunInfo;
    mgmt: ApiClient;
    anon: ApiClient;
    limited: ApiClient;
    check: Checks;
    gate: TwinGate;
    rs: ResourceServerUnderTest;
    experiments: ExperimentsHelper;
    credentials: CredentialContext;
  },
  { suite: Suite; loginBrowser: LoginBrowser }
>({
  loginBrowser: [loginBrowserFixture, { scope: 'worker' }],

  suite: [
    async ({}, use) => {
      const state = readRunState();
      const cfg = withDiscovered(loadConfig(), state.discovered ?? NOTHING_DISCOVERED);
      const redactor = createRedactor([
        ...secretValues(cfg),
        ...(state.tokens.full ? [state.tokens.full] : []),
        ...(state.tokens.limited ? [state.tokens.limited] : []),
      ]);
      if (typeof state.snapshot.signing_secret === 'string') redactor.add(state.snapshot.signing_secret);
      await use({ cfg, state, redactor, pacer: new Pacer(state.runDir, cfg.pacingReserve) });
    },
    { scope: 'worker' },
  ],

  run: [
    async ({ suite }, use) => {
      const { cfg, state } = suite;
      await use({ cfg, seed: state.seed, runTag: state.runTag, snapshot: state.snapshot, runs: DEPTH_RUNS[cfg.depth] });
    },
    { box: 'self' },
  ],

  counter: [
    async ({}, use) => {
      await use({ sent: 0, throttled: 0, waitedMs: 0 });
    },
    { box: 'self' },
  ],

  transcript: [
    async ({}, use) => {
      await use([]);
    },
    { box: 'self' },
  ],

  _record: [
    async ({ suite, counter, transcript }, use, testInfo) => {
      const ids = testInfo.annotations.filter((a) => a.type === 'clause').map((a) => a.description ?? '');
      const operation = testInfo.annotations.find((a) => a.type === 'operation')?.description ?? 'Management API';
      // A test of the API the run leaves out (IDM_APIS) is skipped as the run's, naming the setting.
      skipTest(
        MANAGEMENT_OPERATIONS.has(operation) ? managementSkip(suite.cfg) : authenticationSkip(suite.cfg),
        testInfo,
      );
      const authTarget = separateAuthUrl(suite.cfg);
      if (reportsToAllure(testInfo.config)) {
        // One message: each allure call is one message attachment (a step) on the test.
        const sections = [...new Set(ids.map((id) => clauseEntry(id)?.section).filter((s): s is string => !!s))];
        await recordMetadata({
          labels: [
            { name: 'epic', value: 'API' },
            { name: 'feature', value: operation },
            ...ids.map((id) => ({ name: 'story', value: id })),
            { name: 'severity', value: highestSeverity(ids) },
          ],
          links: sections.map((s) => ({ url: sectionLink(s), name: `spec §${s}` })),
          parameters: [
            { name: 'seed', value: String(suite.state.seed) },
            { name: 'depth', value: suite.cfg.depth },
            { name: 'target', value: suite.cfg.baseUrl },
            ...(authTarget ? [{ name: 'auth target', value: authTarget }] : []),
          ],
        });
      }
      // Both origins in the test's properties (JUnit reads annotations) when they differ.
      if (authTarget)
        testInfo.annotations.push(
          { type: 'target', description: suite.cfg.baseUrl },
          { type: 'auth-target', description: authTarget },
        );
      await use();
      testInfo.annotations.push({ type: 'requests', description: String(counter.sent) });
      if (counter.throttled > 0)
        testInfo.annotations.push({ type: 'throttled', description: String(counter.throttled) });
      if (transcript.length > 0) {
        const r = suite.redactor;
        const lines = transcript.map((ex) => ({
          request: {
            method: ex.request.method,
            url: r.text(ex.request.url),
            headers: r.headers(ex.request.headers),
            body: r.text(clip(ex.request.body ?? '')),
          },
          response: { status: ex.status, headers: r.headers(ex.headers), body: r.text(clip(ex.text)) },
        }));
        await testInfo.attach('http-transcript.json', {
          body: JSON.stringify(lines, null, 2),
          contentType: 'application/json',
        });
      }
    },
    { auto: true },
  ],

  // Requests go through undici (lib/http.ts); no Playwright request context is opened per test.
  client: [
    async ({ suite, counter, transcript, check }, use, info) => {
      await use(
        (name, token) =>
          new ApiClient({
            name,
            token,
            apiBase: suite.cfg.apiBase,
            timeoutMs: suite.cfg.timeoutMs,
            pacer: suite.pacer,
            counter,
            onExchange: (ex) => {
              transcript.push(ex);
              // Rules about every answer of a kind are judged on every answer (lib/answer-rules.ts).
              judgeAnswer(ex, suite.cfg, { check, info });
            },
            onNoAnswer: (n) =>
              info.annotations.push({ type: NO_ANSWER_ANNOTATION, description: encodeSkip(noAnswerSkip(n)) }),
            onResent: (r) => info.annotations.push({ type: RESENT_ANNOTATION, description: JSON.stringify(r) }),
          }),
      );
    },
    { box: 'self' },
  ],

  mgmt: [
    async ({ suite, client }, use, testInfo) => {
      skipTest(managementSkip(suite.cfg), testInfo);
      await use(client('full', suite.state.tokens.full));
    },
    { box: 'self' },
  ],

  anon: [
    async ({ client }, use) => {
      await use(client('anonymous', null));
    },
    { box: 'self' },
  ],

  limited: [
    async ({ suite, client }, use, testInfo) => {
      skipTest(
        !suite.state.tokens.limited &&
          runSkip(
            { setting: 'IDM_LIMITED_CLIENT_ID' },
            'needs a client without update:resource_servers: set IDM_LIMITED_CLIENT_ID and IDM_LIMITED_CLIENT_SECRET',
          ),
        testInfo,
      );
      // Its reproductions name their own variable: $IDM_ACCESS_TOKEN would send the full client's.
      if (suite.state.tokens.limited) issued(suite.state.tokens.limited, 'IDM_LIMITED_ACCESS_TOKEN');
      await use(client('limited', suite.state.tokens.limited));
    },
    { box: 'self' },
  ],

  credentials: [
    async ({ suite, anon }, use, testInfo) => {
      const { cfg, state } = suite;
      // The credential cases are made from the management token: none when that API is not under test.
      skipTest(managementSkip(cfg), testInfo);
      await use({
        cfg,
        realToken: state.tokens.full ?? '',
        otherAudience: typeof state.snapshot.identifier === 'string' ? state.snapshot.identifier : null,
        async tokenFor(audience) {
          const res = await anon.send('POST', cfg.tokenUrl, {
            data: {
              grant_type: 'client_credentials',
              client_id: cfg.client.id,
              client_secret: cfg.client.secret,
              audience,
            },
            encoding: 'form',
          });
          const token = res.answer.issued?.accessToken ?? null;
          if (token !== null) suite.redactor.add(token);
          return token;
        },
      });
    },
    { box: 'self' },
  ],

  check: [
    async ({ suite }, use, testInfo) => {
      await use(new Checks(testInfo, suite.redactor));
    },
    { box: 'self' },
  ],

  gate: [
    async ({ suite, check }, use, testInfo) => {
      await use(new TwinGate(check, testInfo, suite.cfg.apiBase, attackList(testInfo)));
    },
    { box: 'self' },
  ],

  rs: async ({ suite, mgmt, check, gate }, use, testInfo) => {
    const { cfg, state } = suite;
    // One test at a time writes the shared resource server, whatever worker it runs in.
    const lock = join(state.runDir, 'locks', 'resource-server');
    await acquire(lock, 5);
    const path = resourceServerPath(cfg.resourceServerId);
    const readNow = () => mgmt.patch(path, { data: {} });
    const describe = (body: unknown) => short(suite.redactor.value(body));
    const ledger = new StateLedger(state.runDir);
    if (ledger.empty) ledger.record(state.snapshot, { test: 'global setup', by: 'the snapshot', wrote: false });
    const refusal = readRestoreRefusal(state.runDir);
    let start: ResourceServer = state.snapshot;
    if (refusal) start = stateOf(await untilNoFault(readNow)) ?? start;
    const watch = new WriteWatch({
      ledger,
      test: testInfo.title,
      start,
      read: readNow,
      write: (body) => mgmt.patch(path, { data: body }),
      describe,
    });
    if (refusal) watch.saw(start, 'PATCH {} (the state this test starts from)');
    let known: ResourceServer | null = start;
    let dirty = false;
    // Every request of the fixture: an answer carrying the resource server is held against the
    // state before it (lib/lost-writes.ts), then against the §2.1 invariants.
    const send = async (
      sent: unknown,
      by: string,
      request: () => Promise<Exchange>,
      wrote: boolean,
      restoring = false,
    ) => {
      const ex = await request();
      if (passes(ex.answer, PASSES.success) && isObject(ex.body)) {
        if (ex.body.id === undefined || ex.body.id === cfg.resourceServerId)
          await watch.answered(ex, isObject(sent) ? sent : {}, by, request);
        known = watch.current();
        if (!restoring) for (const c of INVARIANTS) await gate.call(c, ex, { ex, snapshot: state.snapshot });
      } else if (wrote) {
        known = null; // a refused write may still have written (that is a finding)
        watch.refusedWrite(sent);
      }
      return ex;
    };
    const rsApi: ResourceServerUnderTest = {
      id: cfg.resourceServerId,
      identifier: typeof state.snapshot.identifier === 'string' ? state.snapshot.identifier : null,
      snapshot: state.snapshot,
      start,
      async update(body, o = {}) {
        const wrote =
          o.raw !== undefined
            ? o.raw.trim() !== '' && o.raw.trim() !== '{}'
            : !(isObject(body) && Object.keys(body).length === 0);
        dirty ||= wrote;
        const sent = o.raw !== undefined ? parsedOrNull(o.raw) : body;
        const by = `PATCH ${o.raw !== undefined ? 'a raw body' : describe(body)}${o.via ? ` via ${o.via}` : ''}${o.encoding === 'form' ? ' as a form' : ''}`;
        return send(
          sent,
          by,
          () =>
            mgmt.patch(resourceServerPath(o.via ?? cfg.resourceServerId), {
              ...(o.raw !== undefined ? { raw: o.raw } : { data: body }),
              ...(o.encoding ? { encoding: o.encoding } : {}),
              ...(o.headers ? { headers: o.headers } : {}),
            }),
          wrote,
        );
      },
      read: () => send({}, 'PATCH {}', readNow, false),
      current: () => known,
      lostWrite(...exs) {
        for (const ex of exs) {
          const why = watch.disturbance(ex);
          if (why) return why;
        }
        return null;
      },
      safe(body) {
        return cfg.embedded
          ? { ...body }
          : makeSafe(body, state.snapshot, {
              lowerLifetime: allowed(cfg, 'lifetime'),
              irreversible: allowed(cfg, 'irreversible'),
            });
      },
    };
    try {
      await use(rsApi);
      if (dirty)
        await putBack({
          cfg,
          runDir: state.runDir,
          snapshot: state.snapshot,
          refusal,
          known: () => known,
          read: () => untilNoFault(rsApi.read),
          restore: (b) =>
            untilNoFault(() =>
              send(b, `the restore ${describe(b)} after the test`, () => mgmt.patch(path, { data: b }), true, true),
            ),
          reread: () => untilNoFault(() => send({}, 'PATCH {}', readNow, false, true)),
        });
    } finally {
      // A lost write is one finding, said once in the run (the test that met it first).
      const lost = watch.found[0];
      if (lost && claimLostWrite(state.runDir)) check.that('rs.update.persisted', false, lost.message, lost.ex);
      release(lock);
    }
  },

  experiments: [
    async ({ suite, mgmt }, use, testInfo) => {
      const { cfg, state } = suite;
      skipTest(optInSkip(cfg, 'experiments'), testInfo);
      skipTest(
        (!cfg.featureFlagId || cfg.variationIds.length === 0) &&
          runSkip({ setting: 'IDM_FEATURE_FLAG_ID' }, 'needs IDM_FEATURE_FLAG_ID and IDM_VARIATION_IDS'),
        testInfo,
      );
      const options: ExperimentOptions = {
        featureFlagId: cfg.featureFlagId!,
        variationIds: cfg.variationIds,
        strategyField: cfg.strategyField,
        runTag: state.runTag,
        authenticationFlow: cfg.authenticationFlow,
        assignmentSubject: cfg.assignmentSubject,
        serial: () => nextSerial(testInfo.workerIndex),
      };
      const helper: ExperimentsHelper = {
        options,
        realistic: () => experimentPayload(options),
        async create(body, o = {}) {
          // Journaled before it goes and with what came back: a kill in between leaves its name.
          const named = { name: isObject(body) ? String(body.name) : '', runTag: state.runTag };
          recordSending(cfg, named);
          const ex = await (o.client ?? mgmt).post(EXPERIMENTS_PATH, {
            data: body,
            ...(o.encoding ? { encoding: o.encoding } : {}),
          });
          const created = passes(ex.answer, PASSES.success) && isObject(ex.body) ? ex.body : null;
          recordAnswered(cfg, named, created && typeof created.id === 'string' ? created.id : null);
          return ex;
        },
      };
      await use(helper);
    },
    { box: 'self' },
  ],
});

// Helpers

/** Payloads this worker process has named: with its worker index, a serial no other payload of the run carries. */
let serials = 0;
function nextSerial(workerIndex: number): string {
  return `${workerIndex.toString(36).padStart(2, '0')}${(serials++).toString(36).padStart(SERIAL_WIDTH - 2, '0')}`;
}

/** A raw body's JSON value, null when it is not JSON (nothing it sends can be told apart). */
function parsedOrNull(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return null;
  }
}

/** How many times the suite's own housekeeping (the restore after a test, its reads) sends one request at most. */
const HOUSEKEEPING_SENDS = 3;

/**
 * The suite's own housekeeping, sent again while the tenant answers it with a fault (a 5xx): the
 * same restore or read sent again cannot change the outcome. Each fault is still judged on its
 * answer (mgmt.error.server-fault, lib/answer-rules.ts); none is taken for a refused restore.
 */
async function untilNoFault(send: () => Promise<Exchange>): Promise<Exchange> {
  let ex = await send();
  for (let i = 1; i < HOUSEKEEPING_SENDS && ex.answer.class === 'fault'; i++) ex = await send();
  return ex;
}

function clip(s: string): string {
  return s.length > 4000 ? `${s.slice(0, 4000)}… (${s.length} chars)` : s;
}

/**
 * After a test that wrote: the resource server put back to its snapshot, each field the tenant
 * refuses found alone, and what could not be put back said once in the run (later tests are
 * judged from the state they start in).
 */
async function putBack(o: {
  cfg: Config;
  runDir: string;
  snapshot: ResourceServer;
  refusal: ReturnType<typeof readRestoreRefusal>;
  known: () => ResourceServer | null;
  read: () => Promise<Exchange>;
  restore: (body: Record<string, unknown>) => Promise<Exchange>;
  reread: () => Promise<Exchange>;
}): Promise<void> {
  const { cfg, snapshot, refusal } = o;
  let current: ResourceServer | null = o.known();
  current ??= stateOf(await o.read());
  if (!current) return;
  const body = restoreBody(snapshot, current);
  if (Object.keys(body).length === 0) return;
  const r = await o.restore(body);
  let after: ResourceServer | null = stateOf(r) ? o.known() : null;
  let refused: string[] = [];
  if (after === null) {
    // Which field the tenant refuses: each one alone; the others are put back.
    refused = (await refusedRestoreFields(body, o.restore)).refused;
    const back = await o.reread();
    after = stateOf(back) ? o.known() : null;
  }
  // With lowering allowed (always on the embedded tenant), a clamped token_lifetime_for_web is accepted loss.
  const left = after
    ? unrestored(snapshot, after).filter((f) => !(f === 'token_lifetime_for_web' && allowed(cfg, 'lifetime')))
    : ['(restore refused)'];
  // A refusal already said (same fields) is not said again: later tests start from a state they read.
  if (left.length > 0 && !(refusal && left.every((f) => refusal.fields.includes(f)))) {
    writeRestoreRefusal(o.runDir, { fields: left, refused });
    expect(
      left,
      `restoring ${cfg.resourceServerId} to its snapshot left fields changed${refused.length > 0 ? `: the tenant refused ${refused.join('; ')}` : ''} (said once; later tests are judged from the state they start in)`,
    ).toEqual([]);
  }
}
