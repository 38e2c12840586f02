// What the runtime's checks leave on a test, read back by the runtime self-tests.
import { test, type TestInfo } from '@playwright/test';
import type { CheckRecord } from '../lib/check-record.ts';

/** The check records the running test has so far. */
export function records(info: TestInfo = test.info()): CheckRecord[] {
  return info.annotations.filter((a) => a.type === 'check').map((a) => JSON.parse(a.description!) as CheckRecord);
}

/**
 * Takes the soft failures recorded so far out of the test (it is back to passed) and
 * returns their messages, so the assertions made after a deliberate failure still count.
 */
export function absorbSoftFailures(info: TestInfo = test.info()): string[] {
  const messages = info.errors.map((e) => e.message ?? '');
  info.errors.splice(0);
  (info as { status: string }).status = 'passed';
  return messages;
}
