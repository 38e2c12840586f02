// Records keyed by a known set of names, typed by those names: Object.keys and
// Object.fromEntries widen keys to string, so the one cast back to the names is made here.

/** The keys of a record, typed as its keys. */
export function keysOf<T extends object>(record: T): Array<keyof T & string> {
  return Object.keys(record) as Array<keyof T & string>;
}

/** A record with one entry per key, in the keys' order. */
export function recordOf<K extends string, V>(keys: readonly K[], value: (key: K) => V): Record<K, V> {
  return Object.fromEntries(keys.map((k) => [k, value(k)])) as Record<K, V>;
}
