// A wrong experiment creation is judged beside its accepted twin (lib/twin-gate.ts): the same request
// made right under the same name, sent after it. Names are each creation's own, so a tenant that
// keeps names unique can answer 409 only to a collision: a wrong request answered 409 is reported as
// that, never as the wrong request refused. Sent in this order, a twin is needed only for a refusal,
// and its name is free unless the wrong request took it — which it did only by being accepted.
import type { TestInfo } from '@playwright/test';
import { describeAnswer } from '../answer-words.ts';
import { skipClauses } from '../declare.ts';
import type { Exchange } from '../http.ts';
import { runSkip } from '../skip-record.ts';
import type { ViolationCase } from '../../generators/violations.ts';
import type { ExperimentBody } from '../../generators/experiment.ts';
import type { Twin, TwinGate } from '../twin-gate.ts';
import { created } from './experiment-answer.ts';
import { recorded } from './recorded.ts';

export interface WrongCreation {
  /** The clause the refusal is judged under. */
  clause: string;
  /** The wrong request, in a few words. */
  what: string;
  /** The observe clause its status and error code are recorded under (§7.2 shows none). */
  statusClause: string;
  /** The name it carries (its twin carries it too): said when a 409 came back. */
  name: string;
  wrong: () => Promise<Exchange>;
  /** The same request made right, under the same name: sent only when the wrong one was refused. */
  right: () => Promise<Exchange>;
}

/** RFC 9110 §15.5.10: the request conflicts with the target's state — with names of their own, a taken name. */
const CONFLICT = 409;

/** The wrong creation refused with a 4xx beside its accepted twin (§7.2: the code is recorded, not judged). */
export async function refusedBesideTwin(gate: TwinGate, info: TestInfo, c: WrongCreation): Promise<boolean> {
  const ex = await c.wrong();
  await gate.call(recorded(c.statusClause), ex, { what: c.what, ex });
  if (ex.status === CONFLICT) {
    skipClauses(
      info,
      runSkip(
        { answer: 'refused' },
        `not judged: ${c.what} answered 409 (${describeAnswer(ex)}), a conflict: its name "${c.name}" was its own, so the 409 says nothing of what was wrong with it`,
      ),
      c.clause,
    );
    return false;
  }
  // An acceptance fails the clause whatever a twin would give, and a fault is the fault clause's: no twin is sent.
  const twin = ex.answer.class === 'refused' ? await twinOf(gate, c) : gate.given(created.clauses[0], true, '');
  return gate.refusedWith(twin, c.clause, ex, '4xx', c.what);
}

/** A generated violation case beside the payload it was made from: the case's twin, under that payload's name. */
export function caseBesideTwin(
  gate: TwinGate,
  info: TestInfo,
  c: ViolationCase,
  base: ExperimentBody,
  create: (body: unknown) => Promise<Exchange>,
): Promise<boolean> {
  return refusedBesideTwin(gate, info, {
    clause: c.clause,
    what: `POST an experiment with ${c.description}`,
    statusClause: 'exp.create.rejected.status',
    name: String(base.name),
    wrong: () => create(c.body),
    right: () => create(base),
  });
}

// Helpers

/** The twin: accepted (exp.create.accepted), or what it was answered, naming the clause that says so. */
async function twinOf(gate: TwinGate, c: WrongCreation): Promise<Twin> {
  const ex = await c.right();
  const what = `its twin (the same creation made right, named "${c.name}")`;
  const ok = (await gate.call(created, ex, { what, ex })) === true;
  const clause = ex.answer.class === 'fault' ? gate.faultClause(ex) : created.clauses[0];
  return gate.given(clause, ok, ok ? '' : `${what} answered ${describeAnswer(ex)}`);
}
