// What the parts of the flows fixture share: the run's configuration and pacer, the test's
// clients, checks and request counter, the worker's browser, and the redactor's hand.
import type { TestInfo } from '@playwright/test';
import type { Checks } from '../checks.ts';
import type { Config } from '../config.ts';
import type { ApiClient, RequestCounter } from '../http.ts';
import type { Pacer } from '../pacer.ts';
import type { LoginBrowser } from './browser.ts';

export interface FlowContext {
  cfg: Config;
  pacer: Pacer;
  anon: ApiClient;
  check: Checks;
  counter: RequestCounter;
  loginBrowser: LoginBrowser;
  testInfo: TestInfo;
  /** Masks a value in every report from now on. */
  secret(value: string | null | undefined): void;
}

/** A non-empty string, else null. */
export const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
