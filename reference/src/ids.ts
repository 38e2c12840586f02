import { randomBytes } from 'node:crypto';

// Bitcoin base58 alphabet: the spec's id patterns exclude 0, O, I and l (§2.4).
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export function base58Id(prefix: string, length = 16): string {
  const bytes = randomBytes(length);
  let out = prefix;
  for (const b of bytes) out += BASE58[b % 58];
  return out;
}
