// Strings whose length is counted in Unicode code points, as JSON Schema counts
// (clause limits.length.unit). Valid text is kept to characters on which code
// points, UTF-16 units and grapheme clusters agree wherever a limit could bite:
// astral characters appear only while the UTF-16 length also fits, and no
// combining marks, joiners, variation selectors or flags are ever produced —
// so a tenant that counts another way is not failed on a case we invented.
import fc from 'fast-check';

/** Printable ASCII without `<` and `>` (the resource-server name pattern's excluded pair). */
const ASCII = [...' !"#$%&\'()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~'];
/** Multi-byte in UTF-8, one UTF-16 unit, one grapheme each. */
export const MULTIBYTE = ['é', 'ß', 'ø', 'ж', 'λ', 'ع', '漢', '字', 'ア', '한', '€', '✓'];
/** Astral: one code point, two UTF-16 units, one grapheme each. */
export const ASTRAL = ['😀', '🚀', '𝄞', '𠀀', '𝒜', '🦊'];

const NON_SPACE_ASCII = ASCII.filter((c) => c !== ' ');

/** Code-point length (JSON Schema's unit). */
export function cpLength(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

export interface TextOptions {
  min: number;
  max: number;
  /** First and last characters are not whitespace (experiment name/description pattern). */
  trimmed?: boolean;
  /** Allow astral characters (only while the UTF-16 length stays ≤ max). Default true. */
  astral?: boolean;
}

/**
 * Text of min..max code points mixing ASCII, multi-byte and astral characters,
 * biased towards both edges. Never contains `<`, `>`, control characters or line
 * breaks, so it satisfies every string pattern of the spec when `trimmed`.
 */
export function text(opts: TextOptions): fc.Arbitrary<string> {
  const { min, max, trimmed = false, astral = true } = opts;
  const inner = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...ASCII) },
    { weight: 2, arbitrary: fc.constantFrom(...MULTIBYTE) },
    { weight: astral ? 1 : 0, arbitrary: fc.constantFrom(...ASTRAL) },
  );
  const edge = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...NON_SPACE_ASCII) },
    { weight: 2, arbitrary: fc.constantFrom(...MULTIBYTE) },
    { weight: astral ? 1 : 0, arbitrary: fc.constantFrom(...ASTRAL) },
  );
  const length = fc.oneof(fc.constantFrom(min, max), fc.integer({ min, max }));
  return length.chain((n) =>
    fc
      .array(inner, { minLength: n, maxLength: n })
      .chain((chars) =>
        trimmed && n > 0
          ? fc.tuple(edge, edge).map(([a, b]) => fitUtf16([a, ...chars.slice(1, n - 1), ...(n > 1 ? [b] : [])], max))
          : fc.constant(fitUtf16(chars, max)),
      ),
  );
}

/**
 * A deterministic string of exactly `n` code points, from BMP characters only
 * (so every counting agrees), non-space at both ends, mixing ASCII and
 * multi-byte characters. `salt` varies the content between cases.
 */
export function exactText(n: number, salt = 0): string {
  const pool = ['a', 'b', 'c', 'é', 'd', '漢', 'e', ' ', 'f', 'ж', 'g', '한'];
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    let c = pool[(i + salt) % pool.length] ?? 'x';
    if (c === ' ' && (i === 0 || i === n - 1)) c = 'x';
    out.push(c);
  }
  return out.join('');
}

/** Exactly `n` astral code points (2n UTF-16 units): probes how a target counts. */
export function exactAstralText(n: number): string {
  return Array.from({ length: n }, (_, i) => ASTRAL[i % ASTRAL.length]).join('');
}

// Helpers

/** Swap astral characters for ASCII from the end until the UTF-16 length fits `max`. */
function fitUtf16(chars: string[], max: number): string {
  let units = chars.reduce((n, c) => n + c.length, 0);
  for (let i = chars.length - 1; i >= 0 && units > max; i--) {
    if ((chars[i] ?? '').length === 2) {
      chars[i] = 'x';
      units--;
    }
  }
  return chars.join('');
}
