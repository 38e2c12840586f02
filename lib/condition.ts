// The shape of a named condition, for both halves (the OpenID Foundation suite's conditions): a
// few lines that judge one thing, name the clause they judge and the text it rests on. A test
// declares the clauses of the conditions it uses (`clausesOf`), so no list of clauses is kept by
// hand beside them, and the gate runs each condition on an exchange it has classified first
// (lib/twin-gate.ts `call`): a 5xx is the fault clause's, never the condition's.
import type { Checks } from './checks.ts';

export interface Condition<I> {
  /** The clauses it may record: the one it judges first, then any it records beside it. */
  readonly clauses: readonly [string, ...string[]];
  /** The spec section or standard it rests on, e.g. "§4.1" or "RFC 9110 §15.6". */
  readonly cite: string;
  /** true when it holds, false when it fails, null when the input leaves it unjudged. */
  readonly judge: (check: Checks, input: I) => boolean | null | Promise<boolean | null>;
}

/** A condition, typed by its input. */
export function condition<I>(c: Condition<I>): Condition<I> {
  return c;
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
