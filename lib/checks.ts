// Checks take the clause id first and record one `check` annotation each (the contract with
// the reporter in docs/ARCHITECTURE.md). A failed check is soft: it is reported through
// expect.soft, the test goes on, and fails at the end. Verdict vocabulary lives here only.
import { expect, type TestInfo, type TestInfoError } from '@playwright/test';
import type { Exchange } from './http.ts';
import type { Redactor } from './redact.ts';
import { forgedCredential, renderCurl, shellQuote } from './curl.ts';
import { assertKnownClause, clauseEntry } from './catalogue.ts';
import { clausesOfType, validateAgainst } from './schema-bridge.ts';

export type { CheckRecord, Evidence } from './check-record.ts';
import type { CheckRecord, Evidence } from './check-record.ts';

/** What a property run adds to the evidence of its failing checks. */
export interface ReplayInfo {
  seed: number;
  path?: string;
  counterexample?: unknown;
}

const MAX_BODY_CHARS = 4000;

// A matcher whose failure message is the check's own lines (clause, reproduction, replay),
// without the received/expected noise of a boolean assertion.
const checkExpect = expect.extend({
  toHoldCheck(rec: CheckRecord, text: string) {
    return { pass: rec.outcome !== 'failed', message: () => text, name: 'check' };
  },
});

export class Checks {
  /** Records of the property run in progress; committed or dropped by lib/property.ts. */
  private buffer: CheckRecord[] | null = null;
  /** The test's errors its failed checks raised (expect.soft adds each at once), told apart from any other. */
  private readonly raised = new Set<TestInfoError>();

  constructor(
    private readonly info: TestInfo,
    private readonly redactor: Redactor,
  ) {}

  // --- assertions (clause first) -------------------------------------------------------

  /**
   * `data` validates against the schema of `typeName`. Each schema error that maps to its own
   * clause fails that clause; errors without a mapping fail `clause`.
   */
  async expectSchema(clause: string, typeName: string, data: unknown, ex?: Exchange): Promise<boolean> {
    const errors = validateAgainst(typeName, data);
    const byClause = new Map<string, string[]>();
    for (const e of errors) {
      const c = e.clause ?? clause;
      byClause.set(c, [...(byClause.get(c) ?? []), `${e.path || '/'} ${e.message}`]);
    }
    for (const [c, msgs] of byClause) {
      const text = `${typeName}: ${msgs.slice(0, 5).join('; ')}${msgs.length > 5 ? ` (+${msgs.length - 5} more)` : ''}`;
      if (clauseEntry(c)?.kind === 'must') this.record(c, false, text, ex);
      else this.observe(c, text, ex);
    }
    // A valid instance satisfies every constraint its schema names: each such clause passes.
    for (const c of new Set([clause, ...clausesOfType(typeName)])) {
      if (!byClause.has(c) && clauseEntry(c)?.kind === 'must') this.record(c, true, `${typeName} schema: holds`, ex);
    }
    return errors.length === 0;
  }

  /** X-RateLimit-Limit, -Remaining and -Reset are all present with numeric values. */
  expectRateLimitHeaders(clause: string, ex: Exchange, what = describe(ex)): boolean {
    const names = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'];
    const bad = names.filter((n) => ex.headers[n] === undefined || !/^\s*\d+(\.\d+)?\s*$/.test(ex.headers[n]!));
    return this.record(
      clause,
      bad.length === 0,
      bad.length === 0 ? `${what}: carries ${names.join(', ')}` : `${what}: missing or non-numeric ${bad.join(', ')}`,
      ex,
    );
  }

  /** A condition the spec states; `message` says what was expected and what was seen. */
  that(clause: string, ok: boolean, message: string, ex?: Exchange, extra?: Partial<Evidence>): boolean {
    return this.record(clause, ok, message, ex, extra);
  }

  /** What the target did where the spec does not say: never passes, never fails. */
  observe(clause: string, observation: string, ex?: Exchange, extra?: Partial<Evidence>): void {
    const entry = assertKnownClause(clause);
    void entry;
    this.push({ clause, outcome: 'observed', message: observation, observation, evidence: this.evidence(ex, extra) });
  }

  // --- recording ------------------------------------------------------------------------

  /** Start buffering records (one property run); see lib/property.ts. */
  beginBuffer(): void {
    this.buffer = [];
  }

  endBuffer(): CheckRecord[] {
    const out = this.buffer ?? [];
    this.buffer = null;
    return out;
  }

  /** Commits records collected while buffering, adding replay data to failures. */
  commit(records: CheckRecord[], replay?: ReplayInfo): void {
    for (const r of records) {
      if (r.outcome === 'failed' && replay) {
        r.evidence = {
          ...r.evidence,
          seed: replay.seed,
          ...(replay.path ? { path: replay.path } : {}),
          counterexample: this.redactor.value(truncate(replay.counterexample)),
        };
      }
      this.push(r);
    }
  }

  private record(clause: string, ok: boolean, message: string, ex?: Exchange, extra?: Partial<Evidence>): boolean {
    const entry = assertKnownClause(clause);
    if (entry && entry.kind !== 'must') {
      throw new Error(
        `suite bug: clause ${clause} is "${entry.kind}" in the catalogue; record it with observe(), never pass/fail`,
      );
    }
    // Evidence on passes would bloat the report; failures carry the full exchange.
    const rec: CheckRecord = { clause, outcome: ok ? 'passed' : 'failed', message: oneLine(message) };
    if (!ok) rec.evidence = this.evidence(ex, extra);
    this.push(rec);
    return ok;
  }

  private push(rec: CheckRecord): void {
    if (this.buffer) {
      this.buffer.push(rec);
      return;
    }
    if (!this.info.annotations.some((a) => a.type === 'clause' && a.description === rec.clause)) {
      this.info.annotations.push({ type: 'clause', description: rec.clause });
    }
    this.info.annotations.push({ type: 'check', description: JSON.stringify(rec) });
    if (rec.outcome === 'failed') {
      const lines = [`[${rec.clause}] ${rec.message}`];
      if (rec.evidence?.curl) lines.push(`  reproduce: ${rec.evidence.curl}`);
      if (rec.evidence?.seed !== undefined)
        lines.push(`  replay: ${replayCommand(rec.evidence.seed, rec.evidence.path, this.info.title)}`);
      if (rec.evidence?.counterexample !== undefined)
        lines.push(`  counterexample: ${JSON.stringify(rec.evidence.counterexample).slice(0, 600)}`);
      const before = this.info.errors.length;
      checkExpect.soft(rec).toHoldCheck(lines.join('\n'));
      if (this.info.errors.length > before) this.raised.add(this.info.errors.at(-1)!);
    }
  }

  /**
   * The first error of the test that none of its checks raised — a throw that stopped it, its
   * time-out, a fixture's teardown — in one redacted line; null when its checks are its only
   * errors, i.e. it ran to its end (a failed check stops nothing).
   */
  otherError(): string | null {
    const other = this.info.errors.find((e) => !this.raised.has(e));
    if (other === undefined) return null;
    // eslint-disable-next-line no-control-regex
    const plain = (other.message ?? other.value ?? 'an error').replace(/\x1b\[[0-9;]*m/g, '');
    return this.redactor.text(oneLine(plain.split('\n').find((l) => l.trim() !== '') ?? plain).slice(0, 300));
  }

  evidence(ex?: Exchange, extra?: Partial<Evidence>): Evidence | undefined {
    if (!ex && !extra) return undefined;
    const r = this.redactor;
    const ev: Evidence = { ...(extra ? r.value(extra) : {}) };
    if (ex) {
      ev.request = {
        method: ex.request.method,
        url: r.text(ex.request.url),
        headers: r.headers(ex.request.headers),
        ...(ex.request.body !== undefined ? { body: r.value(truncate(ex.request.data ?? ex.request.body)) } : {}),
      };
      ev.response = {
        status: ex.status,
        headers: r.headers(ex.headers),
        ...(ex.body !== undefined ? { body: r.value(truncate(ex.body)) } : {}),
      };
      ev.curl = renderCurl(ex.request, r);
      const forged = forgedCredential(ex.request);
      if (forged !== null) ev.forged = forged;
    }
    return ev;
  }
}

function describe(ex: Exchange): string {
  const u = new URL(ex.request.url);
  return `${ex.request.method} ${decodeURIComponent(u.pathname)}`;
}

/** The command that replays one property failure: run seed, counterexample path, this test only. */
export function replayCommand(seed: number, path: string | undefined, title: string): string {
  const grep = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `IDM_SEED=${seed}${path ? ` IDM_REPLAY_PATH=${path}` : ''} npm run conformance -- --grep ${shellQuote(grep)}`;
}

// Helpers

function oneLine(s: string): string {
  return s.replace(/\s*\n\s*/g, ' ').slice(0, 2000);
}

function truncate(v: unknown): unknown {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  if (s === undefined || s.length <= MAX_BODY_CHARS) return v;
  if (typeof v === 'string') return `${v.slice(0, MAX_BODY_CHARS)}… (${v.length} chars)`;
  return deepTruncate(v);
}

function deepTruncate(v: unknown): unknown {
  if (typeof v === 'string') return v.length > 600 ? `${v.slice(0, 600)}… (${v.length} chars)` : v;
  if (Array.isArray(v)) return v.slice(0, 20).map(deepTruncate);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, deepTruncate(x)]));
  return v;
}
