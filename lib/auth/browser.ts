// Finding and launching the browser the user already has: an explicit binary, Playwright's own
// Chromium (`npx playwright install chromium`), Google Chrome or Microsoft Edge through
// Playwright's channels, or a distribution's Chromium package. The lookup is a pure function of
// the facts it is given (environment, platform, which files exist, Playwright's own path), so a
// self-test holds its order. Shared by the report's browser self-test and the browser flows.
import { existsSync } from 'node:fs';
import { win32 } from 'node:path';
import { chromium, type Browser, type LaunchOptions } from '@playwright/test';
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

/**
 * Where Playwright looks for each channel's stable build (its registry's well-known paths); on
 * Windows the path is below LOCALAPPDATA, PROGRAMFILES or PROGRAMFILES(X86).
 */
const CHANNELS = {
  chrome: {
    name: 'Google Chrome',
    linux: '/opt/google/chrome/chrome',
    darwin: '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
    win32: 'Google\\Chrome\\Application\\chrome.exe',
  },
  msedge: {
    name: 'Microsoft Edge',
    linux: '/opt/microsoft/msedge/msedge',
    darwin: '/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge',
    win32: 'Microsoft\\Edge\\Application\\msedge.exe',
  },
} as const;
export type Channel = keyof typeof CHANNELS;

/**
 * Distributions' Chromium packages. The headless shell first (Debian's `chromium-headless-shell`,
 * the build Playwright itself runs headless): without the full browser's window system it made
 * the whole verdict 11–12 s instead of 17 s. Then the full browser: Debian and Arch name it
 * `chromium`, Ubuntu and Fedora `chromium-browser`.
 */
const DISTRIBUTION_PATHS = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium', '/usr/bin/chromium-browser'];

/** What the lookup reads; findChromium gathers the real ones, a self-test makes its own. */
export interface BrowserFacts {
  /** The configured binary (IDM_CHROMIUM, or the older CHROMIUM_PATH), when set: then the only candidate. */
  explicit: string | null;
  platform: NodeJS.Platform;
  /** The Windows install roots (LOCALAPPDATA, PROGRAMFILES, PROGRAMFILES(X86)). */
  env: Readonly<Record<string, string | undefined>>;
  exists: (path: string) => boolean;
  /** Where Playwright's own Chromium is installed (its registry's executable path), or null. */
  playwrightPath: string | null;
}

type Source = 'IDM_CHROMIUM' | 'playwright' | Channel | 'distribution';

interface Candidate {
  source: Source;
  path: string;
}

export interface ChromiumLookup {
  /** The binary to launch, or null when none exists. */
  path: string | null;
  /** Where it came from; a channel is launched through Playwright's channel, the rest by path. */
  source: Source | null;
  /** Where it was looked for, in order (for the skip reason). */
  tried: string[];
}

/** The lookup's order: explicit, then Playwright's Chromium, Chrome, Edge, a distribution's package. */
export function lookupChromium(f: BrowserFacts): ChromiumLookup {
  const candidates: Candidate[] = f.explicit
    ? [{ source: 'IDM_CHROMIUM', path: f.explicit }]
    : [
        ...(f.playwrightPath ? [{ source: 'playwright' as const, path: f.playwrightPath }] : []),
        ...channelPaths(f, 'chrome'),
        ...channelPaths(f, 'msedge'),
        ...(f.platform === 'win32' || f.platform === 'darwin'
          ? []
          : DISTRIBUTION_PATHS.map((path) => ({ source: 'distribution' as const, path }))),
      ];
  const found = candidates.find((c) => f.exists(c.path));
  return { path: found?.path ?? null, source: found?.source ?? null, tried: candidates.map(describe) };
}

/** The lookup on this machine; `explicit` is the configured value (cfg.auth.chromium). */
export function findChromium(explicit?: string | null, env: NodeJS.ProcessEnv = process.env): ChromiumLookup {
  return lookupChromium({
    explicit: explicit?.trim() || env.IDM_CHROMIUM?.trim() || env.CHROMIUM_PATH?.trim() || null,
    platform: process.platform,
    env,
    exists: existsSync,
    playwrightPath: playwrightChromium(),
  });
}

/** One line saying why browser tests cannot run: what was tried, and the usual cures. */
export function noChromiumReason(lookup: ChromiumLookup): string {
  return (
    `no Chromium found (tried ${lookup.tried.join(', ')}): install Playwright's with ` +
    '`npx playwright install chromium` where downloads work, or a distribution package ' +
    '(e.g. `apt-get install chromium-headless-shell` or `chromium`), or set IDM_CHROMIUM to a Chromium binary'
  );
}

/** How to launch what the lookup found (null: nothing): a channel by its name (Playwright finds it), else by path. */
export function launchOptions(lookup: ChromiumLookup): LaunchOptions | null {
  if (lookup.path === null) return null;
  const channel = lookup.source === 'chrome' || lookup.source === 'msedge' ? lookup.source : null;
  return { ...(channel ? { channel } : { executablePath: lookup.path }), args: [...CHROMIUM_ARGS] };
}

export function launchChromium(lookup: ChromiumLookup): Promise<Browser> {
  const options = launchOptions(lookup);
  return options ? chromium.launch(options) : Promise.reject(new Error(noChromiumReason(lookup)));
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
  await use({ lookup, get: () => (browser ??= launchChromium(lookup)) });
  if (browser) await (await (browser as Promise<Browser>).catch(() => null))?.close();
}

// Helpers

function channelPaths(f: BrowserFacts, channel: Channel): Candidate[] {
  const at = CHANNELS[channel];
  if (f.platform === 'darwin') return [{ source: channel, path: at.darwin }];
  if (f.platform !== 'win32') return [{ source: channel, path: at.linux }];
  const roots = [f.env.LOCALAPPDATA, f.env.PROGRAMFILES, f.env['PROGRAMFILES(X86)']].filter((r): r is string => !!r);
  return roots.map((root) => ({ source: channel, path: win32.join(root, at.win32) }));
}

function describe(c: Candidate): string {
  switch (c.source) {
    case 'IDM_CHROMIUM':
      return `IDM_CHROMIUM ${c.path}`;
    case 'playwright':
      return `Playwright's Chromium ${c.path}`;
    case 'distribution':
      return c.path;
    default:
      return `${CHANNELS[c.source].name} (channel ${c.source}) ${c.path}`;
  }
}

/** Playwright's own Chromium as its registry places it; null where it names none for this platform. */
function playwrightChromium(): string | null {
  try {
    return chromium.executablePath() || null;
  } catch {
    return null;
  }
}
