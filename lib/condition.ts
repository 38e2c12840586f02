// The shape of a named condition, for both halves (the OpenID Foundation suite's conditions): a
// few lines that judge one thing, name the clauses they judge and the text they rest on, so that a
// clause id is written once, in `clauses` (how a judge records: lib/README.md, *Named conditions and the one gate*).
import type { Checks, Evidence } from './checks.ts';
import type { Exchange } from './http.ts';

/** true when it holds, false when it fails, null when the input leaves it unjudged (or it records only). */
export type Judged = boolean | null;

type Clauses<C extends string = string> = readonly [C, ...C[]];

export interface Condition<I, C extends string = string> {
  /** The clauses it may record: the one it judges first, then any it records beside it. */
  readonly clauses: Clauses<C>;
  /** The spec section or standard it rests on, e.g. "§4.1" or "RFC 9110 §15.6". */
  readonly cite: string;
  judge(v: Verdict<C>, input: I): Judged | Promise<Judged>;
}

/**
 * A condition: its input typed by the judge's second parameter, `condition({ clauses: ['a', 'b'],
 * cite, judge: (v, x: X) => … })`, so that `v.on` takes 'a' or 'b' only.
 */
export function condition<I, const C extends Clauses = Clauses>(c: {
  clauses: C;
  cite: string;
  judge: (v: Verdict<C[number]>, input: I) => Judged | Promise<Judged>;
}): Condition<I, C[number]> {
  return c;
}

/** What a condition records, bound to its own clauses (lib/checks.ts records each as one `check`). */
export class Verdict<C extends string = string> {
  constructor(
    private readonly check: Checks,
    private readonly clauses: Clauses<C>,
    private readonly clause: C = clauses[0],
  ) {}

  /** The clause holds when `ok` (a `must` clause); `message` says what was expected and seen. */
  that(ok: boolean, message: string, ex?: Exchange, extra?: Partial<Evidence>): boolean {
    return this.check.that(this.clause, ok, message, ex, extra);
  }

  /** What the target did where the spec is silent (an `observe` clause): never passes, never fails. */
  observe(observation: string, ex?: Exchange, extra?: Partial<Evidence>): null {
    this.check.observe(this.clause, observation, ex, extra);
    return null;
  }

  /** `data` validates against the schema of `typeName`; each schema error under its own clause (lib/checks.ts). */
  schema(typeName: string, data: unknown, ex?: Exchange): Promise<boolean> {
    return this.check.expectSchema(this.clause, typeName, data, ex);
  }

  /** X-RateLimit-Limit, -Remaining and -Reset are all present with numeric values. */
  rateLimitHeaders(ex: Exchange, what?: string): boolean {
    return this.check.expectRateLimitHeaders(this.clause, ex, what);
  }

  /** The same verdict recording under `clause`, one of the condition's own. */
  on(clause: C): Verdict<C> {
    if (!this.clauses.includes(clause))
      throw new Error(`suite bug: ${clause} is not a clause of this condition (${this.clauses.join(', ')})`);
    return new Verdict(this.check, this.clauses, clause);
  }
}

/** Judges `input` by `c`, recording in `check`: the gate's `call` without its fault rule (lib/answer-rules.ts). */
export function judgeBy<I, C extends string>(c: Condition<I, C>, check: Checks, input: I): Judged | Promise<Judged> {
  return c.judge(new Verdict(check, c.clauses), input);
}

/**
 * One rule judged under whichever clause a case names (a status, an acceptance, a record): the
 * condition for each clause made once, so every test of that clause runs the same one.
 */
export function perClause<I>(make: (clause: string) => Condition<I>): (clause: string) => Condition<I> {
  const made = new Map<string, Condition<I>>();
  return (clause) => {
    let c = made.get(clause);
    if (!c) {
      c = make(clause);
      made.set(clause, c);
    }
    return c;
  };
}

/** The clauses a test declares: those of the conditions it uses, then any named beside them. */
export function clausesOf(...of: ReadonlyArray<Condition<never> | readonly Condition<never>[] | string>): string[] {
  return [
    ...new Set(
      of.flatMap((c) => (typeof c === 'string' ? [c] : 'clauses' in c ? c.clauses : c.flatMap((x) => x.clauses))),
    ),
  ];
}
