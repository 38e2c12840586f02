// The Keycloak distribution: the Quarkus dist zip from Maven Central, fetched with Maven's own
// client and unpacked into the git-ignored cache, and a JDK new enough to run it. Nothing of
// Keycloak's is committed; a second prepare finds the unpacked tree and returns at once. The
// server's build (Quarkus' augmentation, about a minute and a half here) is left to its first
// start: Keycloak refuses `kc.sh build` in the dev profile that start-dev runs in.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The version the leg is tried with (Maven Central serves it here; 26.5.6 is the older one served). */
export const KEYCLOAK_VERSION = '26.7.3';
const ARTIFACT = `org.keycloak:keycloak-quarkus-dist:${KEYCLOAK_VERSION}:zip`;
/** Keycloak 26 runs on Java 21 or later. */
const MIN_JAVA = 21;

export const CACHE_DIR = fileURLToPath(new URL('../.cache/keycloak/', import.meta.url));
/** The unpacked distribution (its `bin/kc.sh`, and `data/` for the dev database). */
export const HOME = join(CACHE_DIR, `keycloak-${KEYCLOAK_VERSION}`);
/** Written last by prepare: an unpacking cut short is never taken for a distribution. */
const PREPARED = join(HOME, '.prepared');

export async function prepareDistribution(log: (line: string) => void): Promise<void> {
  if (existsSync(PREPARED)) return log(`keycloak ${KEYCLOAK_VERSION}: already unpacked in ${CACHE_DIR}`);
  mkdirSync(CACHE_DIR, { recursive: true });
  const zip = join(CACHE_DIR, `keycloak-quarkus-dist-${KEYCLOAK_VERSION}.zip`);
  if (!existsSync(zip)) {
    log(`keycloak ${KEYCLOAK_VERSION}: fetching ${ARTIFACT} with Maven`);
    // cwd: the cache, so that no project's pom.xml is read; -B: no progress bars in logs.
    await run('mvn', ['-B', '-q', 'dependency:copy', `-Dartifact=${ARTIFACT}`, `-DoutputDirectory=${CACHE_DIR}`], {
      cwd: CACHE_DIR,
      maxBuffer: 16 * 1024 * 1024,
    });
  }
  rmSync(HOME, { recursive: true, force: true });
  log(`keycloak ${KEYCLOAK_VERSION}: unpacking`);
  await run('unzip', ['-q', '-o', zip, '-d', CACHE_DIR], { maxBuffer: 16 * 1024 * 1024 });
  writeFileSync(PREPARED, `${ARTIFACT}\n`);
}

/**
 * A JDK that runs Keycloak: JAVA_HOME when it is new enough, else the newest under /usr/lib/jvm
 * (the `release` file every JDK ships says its version).
 */
export function javaHome(): string {
  const candidates = [process.env.JAVA_HOME, ...jvmDirs()].filter((d): d is string => !!d);
  let best: { dir: string; major: number } | null = null;
  for (const dir of candidates) {
    const major = javaMajor(dir);
    if (major === null || major < MIN_JAVA) continue;
    if (dir === process.env.JAVA_HOME) return dir;
    if (!best || major > best.major) best = { dir, major };
  }
  if (!best) throw new Error(`keycloak: no JDK ${MIN_JAVA} or later (JAVA_HOME, /usr/lib/jvm)`);
  return best.dir;
}

// Helpers

function jvmDirs(): string[] {
  const root = '/usr/lib/jvm';
  return existsSync(root) ? readdirSync(root).map((d) => join(root, d)) : [];
}

function javaMajor(dir: string): number | null {
  const release = join(dir, 'release');
  if (!existsSync(release) || !existsSync(join(dir, 'bin', 'java'))) return null;
  const m = /^JAVA_VERSION="(\d+)/m.exec(readFileSync(release, 'utf8'));
  return m ? Number(m[1]) : null;
}
