/**
 * The compiled form in dist/, which `bin/lev-api.js` runs when it is current: src/ bundled by esbuild
 * into about a hundred files (a start loads 60), where a module loaded one by one costs Node's
 * loader about half a millisecond (resolving, reading, linking) whatever it holds. Every start of
 * the service paid that for each of some 240 modules of its own and TypeBox's 249
 * (docs/performance.md, "The mock's first answer").
 *
 * Each module the code loads by path is an entry point, at the path tsc would give it
 * (`LOADED_BY_PATH`, and the two `bin/lev-api.js` imports); what they share goes into chunks. A
 * module's `import.meta.url` is made the URL it would have had there, so that it finds its folders,
 * threads, templates and package.json as it does from the sources. Packages stay in node_modules,
 * imported as they are, except TypeBox: only this code imports it, it is code and nothing else, and
 * it is most of the ES modules a start loads.
 *
 *   npm run build                         (the typed client, then this)
 *   node --import tsx scripts/bundle.ts   (this alone)
 */
import { rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type Plugin, build } from 'esbuild';
import { LOADED_BY_PATH, moduleStems } from '../src/module-folder.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The packages bundled into the compiled form; every other is imported from node_modules. */
const BUNDLED_PACKAGES = ['@sinclair/typebox'];

/** What `bin/lev-api.js` imports from dist/. */
const BIN_IMPORTS = ['cli', 'tracing/start'];

/** Every module the code loads by path, as a source file (this script runs the sources, so `.ts`). */
function entryPoints(sources: string): string[] {
  const folders = LOADED_BY_PATH.folders.flatMap((folder) =>
    moduleStems(pathToFileURL(join(sources, folder, '/'))).map((stem) => `${folder}/${stem}`),
  );
  return [...BIN_IMPORTS, ...LOADED_BY_PATH.threads, ...folders].map((stem) => join(sources, `${stem}.ts`));
}

/**
 * `import.meta.url` as tsc's output would have it: the output folder, found in the URL of the file
 * the module was bundled into (an entry point's or a chunk's, at any depth), then the module's path.
 */
function moduleUrls(sources: string, outdir: string): Plugin {
  const folder = `/${basename(outdir)}/`;
  return {
    name: 'module-urls',
    setup(builder) {
      builder.onLoad({ filter: /\.ts$/ }, async ({ path }) => {
        const text = await readFile(path, 'utf8');
        if (!path.startsWith(sources) || !text.includes('import.meta.url')) return undefined;
        const compiled = JSON.stringify(relative(sources, path).replace(/\.ts$/, '.js'));
        const at = `import.meta.url.lastIndexOf(${JSON.stringify(folder)}) + ${folder.length}`;
        const url = `(import.meta.url.slice(0, ${at}) + ${compiled})`;
        return { contents: text.replaceAll(/\bimport\.meta\.url\b/g, url), loader: 'ts' };
      });
    },
  };
}

/** Packages imported at run time, but those bundled. */
const externalPackages: Plugin = {
  name: 'external-packages',
  setup(builder) {
    builder.onResolve({ filter: /^[^./]/ }, ({ path }) =>
      BUNDLED_PACKAGES.some((name) => path === name || path.startsWith(`${name}/`)) ? undefined : { external: true },
    );
  },
};

/** Bundles `entries` (source files under `sources`) into `outdir`, emptied first. */
export async function bundle({
  sources = join(ROOT, 'src'),
  outdir = join(ROOT, 'dist'),
  entries = entryPoints(sources),
} = {}): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: entries,
    outdir,
    outbase: sources,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    chunkNames: 'chunks/[name]-[hash]',
    tsconfig: join(ROOT, 'tsconfig.json'),
    plugins: [moduleUrls(sources, outdir), externalPackages],
    logLevel: 'warning',
  });
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await bundle();
