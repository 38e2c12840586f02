// Finding and launching the browser: Debian's Chromium (the `chromium` package; `.ci/run`
// installs it), driven by Playwright through executablePath, since `npx playwright install`
// cannot download here. Shared by the report's browser self-test and the browser flows.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from '@playwright/test';

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
