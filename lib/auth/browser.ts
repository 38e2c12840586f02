// Finding and launching the browser: Debian's Chromium (the `chromium` package; `.ci/run`
// installs it), driven by Playwright through executablePath, since `npx playwright install`
// cannot download here. Shared by the report's browser self-test and the browser flows.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';
import type { Config } from '../config.ts';

/** Flags for a headless run on a shared machine: no sandbox (containers), no background traffic. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
] as const;

const DEBIAN_PATHS = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];

export interface ChromiumLookup {
  /** The binary to launch, or null when none exists. */
  path: string | null;
  /** Where it was looked for, in order (for the skip reason). */
  tried: string[];
}

/**
 * The Chromium binary: IDM_CHROMIUM (or the older CHROMIUM_PATH) when set — then only that
 * one —, else Debian's paths. `preferred` is the configured value (cfg.auth.chromium).
 */
export function findChromium(preferred?: string | null, env: NodeJS.ProcessEnv = process.env): ChromiumLookup {
  const explicit = env.IDM_CHROMIUM?.trim() || env.CHROMIUM_PATH?.trim();
  const tried = explicit ? [explicit] : [...new Set([...(preferred ? [preferred] : []), ...DEBIAN_PATHS])];
  return { path: tried.find((p) => existsSync(p)) ?? null, tried };
}

/** One line saying why browser tests cannot run, and how to make them run. */
export function noChromiumReason(lookup: ChromiumLookup): string {
  return `no Chromium binary at ${lookup.tried.join(' or ')} (install Debian's chromium: apt-get install -y chromium, or set IDM_CHROMIUM)`;
}

export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({ executablePath, args: [...CHROMIUM_ARGS] });
}

export interface LoginBrowser {
  lookup: ChromiumLookup;
  /** The worker's browser, launched on first use. */
  get(): Promise<Browser>;
}

/** The worker fixture: one Chromium per worker, launched the first time a test needs it, closed with the worker. */
export async function loginBrowserFixture(
  { suite }: { suite: { cfg: Config } },
  use: (b: LoginBrowser) => Promise<void>,
): Promise<void> {
  const lookup = findChromium(suite.cfg.auth.chromium);
  let browser: Promise<Browser> | null = null;
  await use({ lookup, get: () => (browser ??= launchChromium(lookup.path ?? '/nonexistent')) });
  if (browser) await (await (browser as Promise<Browser>).catch(() => null))?.close();
}
