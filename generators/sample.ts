// Reproducible draws outside a property run: the same seed gives the same values.
import fc from 'fast-check';

/** `n` values of `arb` drawn from `seed` (print the seed; pass it back to replay). */
export function samples<T>(arb: fc.Arbitrary<T>, n: number, seed: number): T[] {
  return fc.sample(arb, { numRuns: n, seed });
}
