// A small validator table: every entry checks one thing at one path. Object types route
// their members through the table, so replacing one entry changes exactly one rule.
import type { CheckFn, FieldValidator, Issue, Limits, ValidatorTable } from '../types.ts';

export type LimitsRef = () => Limits;

export function makeCheck(table: ValidatorTable): CheckFn {
  const check: CheckFn = (key, value, at) => {
    const validator = table[key];
    // A missing entry is a bug in the table, never a reason to accept silently.
    if (validator === undefined) throw new Error(`no validator named ${key}`);
    return validator(value, at, check);
  };
  return check;
}

export function issue(at: string, message: string): Issue[] {
  return [{ path: at, message }];
}

/** Length in code points, as JSON Schema counts it. */
function length(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

export interface StringRule {
  nullable?: boolean;
  min?: () => number;
  max?: () => number;
  pattern?: RegExp;
  patternText?: string;
}

export function stringField(rule: StringRule): FieldValidator {
  return (value, at) => {
    if (value === null && rule.nullable) return [];
    if (typeof value !== 'string') return issue(at, `Expected type string but found type ${typeName(value)}`);
    const n = length(value);
    const min = rule.min?.();
    const max = rule.max?.();
    if (min !== undefined && n < min) return issue(at, `String is too short (${n} chars), minimum ${min}`);
    if (max !== undefined && n > max) return issue(at, `String is too long (${n} chars), maximum ${max}`);
    if (rule.pattern && !rule.pattern.test(value)) {
      return issue(at, `String does not match pattern: ${rule.patternText ?? rule.pattern.source}`);
    }
    return [];
  };
}

export function integerField(min?: () => number, max?: () => number): FieldValidator {
  return (value, at) => {
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      return issue(at, `Expected type integer but found type ${typeName(value)}`);
    }
    const lo = min?.();
    const hi = max?.();
    if (lo !== undefined && value < lo) return issue(at, `Value ${value} is less than minimum ${lo}`);
    if (hi !== undefined && value > hi) return issue(at, `Value ${value} is greater than maximum ${hi}`);
    return [];
  };
}

export const booleanField: FieldValidator = (value, at) =>
  typeof value === 'boolean' ? [] : issue(at, `Expected type boolean but found type ${typeName(value)}`);

export function enumField(values: readonly (string | null)[]): FieldValidator {
  return (value, at) =>
    values.includes(value as string | null)
      ? []
      : issue(
          at,
          `No enum match for: ${JSON.stringify(value)}; allowed: ${values.map((v) => JSON.stringify(v)).join(', ')}`,
        );
}

export function arrayField(itemKey: string, min?: () => number, max?: () => number, nullable = false): FieldValidator {
  return (value, at, check) => {
    if (value === null && nullable) return [];
    if (!Array.isArray(value)) return issue(at, `Expected type array but found type ${typeName(value)}`);
    const lo = min?.();
    const hi = max?.();
    if (lo !== undefined && value.length < lo) return issue(at, `Array is too short (${value.length}), minimum ${lo}`);
    if (hi !== undefined && value.length > hi) return issue(at, `Array is too long (${value.length}), maximum ${hi}`);
    return value.flatMap((item, i) => check(itemKey, item, `${at}[${i}]`));
  };
}

export interface ObjectType {
  /** member name → validator key */
  fields: Record<string, string>;
  required?: string[];
  nullable?: boolean;
  /** Members handled by their own entry rather than the closed check (e.g. `identifier`). */
  delegated?: Record<string, string>;
}

/**
 * Registers `<key>` (type and members), `<key>:required` and `<key>:closed` (no other
 * fields). `closed: false` leaves the object open (extra members are kept unchecked).
 */
export function objectType(table: ValidatorTable, key: string, type: ObjectType, closed = true): void {
  const known = [...Object.keys(type.fields), ...Object.keys(type.delegated ?? {})];
  table[key] = (value, at, check) => {
    if (value === null && type.nullable) return [];
    if (!isPlainObject(value)) return issue(at, `Expected type object but found type ${typeName(value)}`);
    const found: Issue[] = [...check(`${key}:required`, value, at), ...check(`${key}:closed`, value, at)];
    for (const [member, memberKey] of Object.entries({ ...type.fields, ...type.delegated })) {
      if (Object.hasOwn(value, member)) {
        found.push(...check(memberKey, value[member], join(at, member)));
      }
    }
    return found;
  };
  table[`${key}:required`] = (value, at) => {
    if (!isPlainObject(value)) return [];
    return (type.required ?? [])
      .filter((m) => !Object.hasOwn(value, m))
      .flatMap((m) => issue(join(at, m), 'Missing required property'));
  };
  table[`${key}:closed`] = closed
    ? (value, at) => {
        if (!isPlainObject(value)) return [];
        return Object.keys(value)
          .filter((m) => !known.includes(m))
          .flatMap((m) => issue(join(at, m), 'Additional properties not allowed'));
      }
    : () => [];
}

function join(at: string, member: string): string {
  return at === '' ? member : `${at}.${member}`;
}
