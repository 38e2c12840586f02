// Loads the clause catalogue for the reporter: the contract's typed loader by default
// (with section anchors and spec text), or a plain JSON file (fixture suites, old runs).
import { readFileSync } from 'node:fs';
import { catalogueEntryProblem } from '../contract/grammar.ts';
import type { CatalogueEntry } from './model.ts';

export class CatalogueError extends Error {
  line(): string {
    return `idm-conformance: IDM_E_CONFIG_CATALOGUE: ${this.message}`;
  }
}

/** Checks the fields the reporter relies on; throws CatalogueError naming the first fault. */
function parseCatalogue(doc: unknown, source: string): CatalogueEntry[] {
  if (!Array.isArray(doc)) throw new CatalogueError(`${source}: the catalogue must be a JSON array`);
  const seen = new Set<string>();
  return doc.map((raw, i) => {
    const problem = catalogueEntryProblem(raw);
    if (problem) throw new CatalogueError(`${source}: entry ${i}: ${problem}`);
    const e = raw as CatalogueEntry;
    if (seen.has(e.id)) throw new CatalogueError(`${source}: clause id ${e.id} appears twice`);
    seen.add(e.id);
    return e as CatalogueEntry;
  });
}

export function loadCatalogueFile(path: string): CatalogueEntry[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new CatalogueError(`${path}: cannot read (${(err as Error).message})`);
  }
  try {
    return parseCatalogue(JSON.parse(text), path);
  } catch (err) {
    if (err instanceof CatalogueError) throw err;
    throw new CatalogueError(`${path}: not valid JSON (${(err as Error).message})`);
  }
}

/** The shape of contract/clauses.ts that the reporter uses (kept loose on purpose). */
interface ContractModule {
  allClauses(): readonly unknown[];
  specAnchor?(section: string): string;
  specText?(section: string, opts?: { ownOnly?: boolean }): string;
  specHeading?(section: string): string;
}

/** The project catalogue through contract/clauses.ts, enriched with spec anchors and text. */
export async function loadContractCatalogue(): Promise<CatalogueEntry[]> {
  const url = new URL('../contract/clauses.ts', import.meta.url).href;
  const mod = (await import(url)) as ContractModule;
  const entries = parseCatalogue([...mod.allClauses()], 'contract/clauses.ts');
  // A section the spec has no heading for throws in the loader: keep the clause, lose the link.
  const safe = <T>(f: () => T): T | undefined => {
    try {
      return f();
    } catch {
      return undefined;
    }
  };
  return entries.map((e) => {
    const out: CatalogueEntry = { ...e };
    out.specAnchor ??= safe(() => mod.specAnchor?.(e.section));
    // ownOnly: "4" is the headers paragraph, not 4.1–4.3 again
    out.specText ??= safe(() => mod.specText?.(e.section, { ownOnly: true }));
    out.sectionTitle ??= safe(() => mod.specHeading?.(e.section));
    for (const k of ['specAnchor', 'specText', 'sectionTitle'] as const) if (out[k] === undefined) delete out[k];
    return out;
  });
}
