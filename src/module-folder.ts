/**
 * The modules of a folder, found by their files rather than listed by hand: a record type's
 * description (src/records/types/), a migration (src/store/schema/) and a mock scenario file
 * (src/mock/scenarios/) are each one file, and adding one edits no list. The files are read where
 * the running code is: `.ts` beside the sources (tsx), `.js` beside the compiled form in dist/, so
 * both find the same modules. Always in the order of their names, never the file system's.
 */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** `.ts` when the sources run, `.js` when the compiled form does. */
const EXTENSION = import.meta.url.endsWith('.ts') ? '.ts' : '.js';

/** src/, or dist/ in the compiled form: this module sits at its top. */
const ROOT = new URL('./', import.meta.url);

/**
 * Everything the code loads by path rather than by import, relative to src/: the folders whose
 * every module is read, and the modules threads start on. The compiled form makes each of their
 * modules an entry point at this path (scripts/bundle.ts), so these names are the only list.
 */
export const LOADED_BY_PATH = {
  folders: ['records/types', 'mock/scenarios', 'store/schema'],
  threads: ['load/load-worker', 'store/suggestion-thread-worker'],
} as const;

/** One of the folders read by path, where the running code is. */
export const sourceFolder = (folder: (typeof LOADED_BY_PATH.folders)[number]): URL => new URL(`${folder}/`, ROOT);

interface FolderModule {
  /** The file's name without its extension: `birth`, `v12-adoption-tables`. */
  readonly stem: string;
  /** Its path, for messages. */
  readonly path: string;
  readonly exports: Readonly<Record<string, unknown>>;
}

/**
 * How to start a worker thread on the module `thread`: the compiled JavaScript as it is, or, run
 * from the sources (tests, a stale dist/), a script that registers tsx's loader in the thread first
 * (a thread shares no loader with the one that starts it).
 */
export function threadEntry(thread: (typeof LOADED_BY_PATH.threads)[number]): {
  readonly script: string | URL;
  readonly eval: boolean;
} {
  const entry = new URL(`${thread}${EXTENSION}`, ROOT);
  if (EXTENSION === '.js') return { script: entry, eval: false };
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return {
    script: `import(${tsx}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); })`,
    eval: true,
  };
}

/** Compares two strings by code unit, as no locale or file system does differently. */
export const byCodeUnit = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The stems of the modules a folder holds (none when it does not exist), sorted by code unit. */
export function moduleStems(folder: URL): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.endsWith(EXTENSION) && !name.endsWith('.d.ts'))
    .map((name) => name.slice(0, -EXTENSION.length))
    .sort(byCodeUnit);
}

/** Imports each module of `folder` whose stem `accept`s, in the order of their names. */
export async function importFolder(
  folder: URL,
  accept: (stem: string) => boolean = () => true,
): Promise<FolderModule[]> {
  return Promise.all(
    moduleStems(folder)
      .filter(accept)
      .map(async (stem) => {
        const url = new URL(`${stem}${EXTENSION}`, folder);
        return { stem, path: fileURLToPath(url), exports: (await import(url.href)) as Record<string, unknown> };
      }),
  );
}

/** The one export of a module that `is` recognises; throws, naming the file, when it has none or several. */
export function soleExport<T>(module: FolderModule, is: (value: unknown) => value is T, what: string): T {
  const found = Object.values(module.exports).filter(is);
  if (found.length !== 1) throw new Error(`${module.path} exports ${found.length} ${what}, not one`);
  return found[0];
}
