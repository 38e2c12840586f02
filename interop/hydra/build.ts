// Ory Hydra built on this machine: the module github.com/ory/hydra/v2 at a pinned version from the
// Go module proxy, added as a tool of a throw-away module in the git-ignored cache (`go get
// -tool`), and compiled with SQLite (cgo) so that it needs no database server. Nothing of
// Hydra's is committed; a second prepare finds the binary and returns at once. A first build on a
// busy 2-core machine takes several minutes. A tool's own go.mod `replace` lines do not apply in
// the module that uses it, so those naming a module version (Hydra swaps pop for Ory's fork) are
// copied over; its directory replacement (its generated API client, a nested module the module
// zip leaves out) cannot be, and the published client the proxy serves is built instead.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The version the leg is judged on (docs/interop.md); a new one is a deliberate change. */
export const HYDRA_VERSION = 'v2.3.0';
const MODULE = 'github.com/ory/hydra/v2';
/** Hydra's own build tags for SQLite (its Makefile's): the leg's database needs them. */
const TAGS = 'sqlite,sqlite_omit_load_extension';

export const CACHE_DIR = fileURLToPath(new URL('../.cache/hydra/', import.meta.url));
/** The module that holds Hydra as a tool (its go.mod and go.sum), never a module of the suite. */
const TOOL_MODULE = join(CACHE_DIR, 'module');
export const HYDRA_BIN = join(CACHE_DIR, 'bin', `hydra-${HYDRA_VERSION}`);
/** Written after the binary: a build cut short is never taken for one. */
const BUILT = `${HYDRA_BIN}.built`;

export async function prepareHydra(log: (line: string) => void): Promise<void> {
  if (existsSync(HYDRA_BIN) && existsSync(BUILT) && readFileSync(BUILT, 'utf8').trim() === HYDRA_VERSION)
    return log(`hydra ${HYDRA_VERSION}: already built in ${HYDRA_BIN}`);
  mkdirSync(TOOL_MODULE, { recursive: true });
  mkdirSync(join(CACHE_DIR, 'bin'), { recursive: true });
  const env = { ...process.env, CGO_ENABLED: '1', GOFLAGS: '-buildvcs=false' };
  const go = (args: string[], timeout: number) =>
    run('go', args, { cwd: TOOL_MODULE, env, timeout, maxBuffer: 64 * 1024 * 1024 });
  if (!existsSync(join(TOOL_MODULE, 'go.mod'))) await go(['mod', 'init', 'interop-hydra-tool'], 60_000);
  log(`hydra ${HYDRA_VERSION}: go get -tool ${MODULE}@${HYDRA_VERSION} (from the Go module proxy)`);
  await go(['get', '-tool', `${MODULE}@${HYDRA_VERSION}`], 900_000);
  for (const r of await moduleReplacements(go)) await go(['mod', 'edit', '-replace', r], 60_000);
  await go(['mod', 'tidy'], 900_000);
  log(`hydra ${HYDRA_VERSION}: go build -tags ${TAGS} (cgo; several minutes the first time)`);
  const partial = `${HYDRA_BIN}.partial`;
  rmSync(partial, { force: true });
  const started = Date.now();
  await go(
    ['build', '-tags', TAGS, '-ldflags', `-X ${MODULE}/driver/config.Version=${HYDRA_VERSION}`, '-o', partial, MODULE],
    3_600_000,
  );
  renameSync(partial, HYDRA_BIN);
  writeFileSync(BUILT, `${HYDRA_VERSION}\n`);
  log(`hydra ${HYDRA_VERSION}: built in ${Math.round((Date.now() - started) / 1000)} s`);
}

type Go = (args: string[], timeout: number) => Promise<{ stdout: string }>;

/** Hydra's go.mod replacements of one module version by another, as `old=new@version`. */
async function moduleReplacements(go: Go): Promise<string[]> {
  const { stdout } = await go(['mod', 'download', '-json', `${MODULE}@${HYDRA_VERSION}`], 300_000);
  const { GoMod } = JSON.parse(stdout) as { GoMod: string };
  const edit = await go(['mod', 'edit', '-json', GoMod], 60_000);
  const { Replace = [] } = JSON.parse(edit.stdout) as {
    Replace?: { Old: { Path: string; Version?: string }; New: { Path: string; Version?: string } }[];
  };
  return Replace.filter((r) => r.New.Version !== undefined).map(
    (r) => `${r.Old.Path}${r.Old.Version ? `@${r.Old.Version}` : ''}=${r.New.Path}@${r.New.Version}`,
  );
}
