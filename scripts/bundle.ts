/**
 * The compiled form in dist/, which `bin/lev-api.js` runs when it is current: src/ and the packages
 * it imports bundled by esbuild, where a module loaded one by one costs Node's loader a share of a
 * millisecond (resolving, reading, compiling its wrapper) whatever it holds. A start loaded some
 * 240 modules of the service's own and 900 of its packages' (docs/performance.md, "The mock's first
 * answer").
 *
 * Each module the code loads by path is an entry point, at the path tsc would give it
 * (`LOADED_BY_PATH`, and the two `bin/lev-api.js` imports); what they share goes into chunks. A
 * module's `import.meta.url` is made the URL it would have had there, so that it finds its folders,
 * threads, templates and package.json as it does from the sources.
 *
 * A package is bundled unless it has a reason to stay in node_modules (`KEPT_OUT`); what a package
 * kept out requires stays out with it, so that no process holds two copies of one package. The
 * build fails where a bundled package's module finds files beside itself and nobody has read why
 * it may (`READ_BESIDE_ITSELF`), and where a package kept out would be found at another copy from
 * dist/ than from the module that imports it.
 *
 *   npm run build                         (the typed client, then this)
 *   node --import tsx scripts/bundle.ts   (this alone)
 */
import { existsSync, readFileSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type LogLevel, type Plugin, build } from 'esbuild';
import { LOADED_BY_PATH, moduleStems } from '../src/module-folder.ts';
import { LOADED_WHEN_NEEDED } from '../src/when-needed.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

type Manifest = Partial<Record<'dependencies' | 'optionalDependencies' | 'peerDependencies', Record<string, string>>>;

/** The packages imported from node_modules at run time rather than bundled, each for its reason. */
const KEPT_OUT: Readonly<Record<string, string>> = {
  pg: 'the tracing instrumentation wraps it as it is loaded',
  pino: "its transports run in a thread started on a file beside pino's own",
  '@fastify/swagger-ui': 'it serves the Swagger UI from files beside its own',
  'govuk-frontend': "the pages' templates and assets are read from its folder",
  'cbor-x': 'it loads its native addon (cbor-extract) by name when it can',
  'import-in-the-middle': 'the tracing registers its loader hook by name',
  tsx: "the sources' loader, found by name",
  ...Object.fromEntries(LOADED_WHEN_NEEDED.map((name) => [name, 'loaded by name when first used (whenNeeded)'])),
};

/**
 * Tracing's packages, kept out too: its instrumentations must see the modules they wrap loaded as
 * they are, and only a traced process loads them (a start loads the OpenTelemetry API alone, which
 * prom-client requires).
 */
const isTracing = (name: string): boolean => name.startsWith('@opentelemetry/');

/**
 * Modules of bundled packages that find a file beside themselves, each read and found harmless
 * bundled (where `__dirname` is not defined and `import.meta.url` is the chunk's).
 */
const READ_BESIDE_ITSELF: Readonly<Record<string, string>> = {
  '@fastify/swagger/lib/util/read-package-json.js':
    "reads its package.json inside a try for a default title and version, which the service's own replace",
  'nunjucks/src/node-loaders.js': 'require.resolve in NodeResolveLoader only; the pages use FileSystemLoader',
  '@lev-api/client/dist/tls.js': 'requires undici, which is kept out, and found from dist/ as from the client',
};

/** The package a bare specifier names: `fastify` of `fastify/lib/x`, `@scope/name` of `@scope/name/y`. */
const packageName = (specifier: string): string =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/** The folder Node finds package `name` in from `from`: the nearest node_modules holding it. */
function packageFolder(name: string, from: string): string | undefined {
  for (let folder = from; ; folder = dirname(folder)) {
    const candidate = join(folder, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return realpathSync(candidate);
    if (dirname(folder) === folder) return undefined;
  }
}

/**
 * The folders of the packages kept out, with every package they require, as Node finds it from
 * each: a copy nested inside a bundled package, which nothing kept out can reach, is bundled.
 */
function keptOutFolders(): Set<string> {
  const folders = new Set<string>();
  const visit = (name: string, from: string): void => {
    const folder = packageFolder(name, from);
    if (!folder || folders.has(folder)) return;
    folders.add(folder);
    for (const dependency of dependencies(folder)) visit(dependency, folder);
  };
  for (const name of [...Object.keys(KEPT_OUT), ...dependencies(ROOT).filter(isTracing)]) visit(name, ROOT);
  return folders;
}

/** The names of the packages the package in `folder` requires. */
function dependencies(folder: string): string[] {
  const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest;
  return (['dependencies', 'optionalDependencies', 'peerDependencies'] as const).flatMap((field) =>
    Object.keys(manifest[field] ?? {}),
  );
}

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

/** The packages kept out imported from node_modules, and the bundled ones checked for files beside them. */
function packages(outdir: string): Plugin {
  const keptOut = keptOutFolders();
  return {
    name: 'packages',
    setup(builder) {
      builder.onResolve({ filter: /^[^./]/ }, ({ path, importer, resolveDir }) => {
        const name = packageName(path);
        const folder = path.startsWith('node:') ? undefined : packageFolder(name, resolveDir);
        if (!folder || !keptOut.has(folder)) return undefined;
        if (folder !== packageFolder(name, outdir))
          return { errors: [{ text: `${importer} imports ${name} from ${folder}, which ${outdir} would not find` }] };
        return { external: true };
      });
      // The packages' JavaScript (the service's own is TypeScript).
      builder.onLoad({ filter: /\.[cm]?js$/ }, async ({ path }) => {
        const text = await readFile(path, 'utf8');
        if (!/\b(__dirname|__filename|require\.resolve|import\.meta\.url|process\.dlopen)\b/.test(text))
          return undefined;
        const module = modulePath(path);
        if (module in READ_BESIDE_ITSELF) return undefined;
        return { errors: [{ text: `${module} finds files beside itself: keep its package out, or say why it may` }] };
      });
    },
  };
}

/**
 * `package/path/in/it.js` of a package's module: from its path inside node_modules, or, for a
 * workspace's package (the typed client, found through its link), from its nearest named manifest.
 */
function modulePath(path: string): string {
  const parts = path.split(sep);
  const at = parts.lastIndexOf('node_modules');
  if (at >= 0) return parts.slice(at + 1).join('/');
  for (let folder = dirname(path); dirname(folder) !== folder; folder = dirname(folder)) {
    const manifest = join(folder, 'package.json');
    const { name } = existsSync(manifest) ? (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }) : {};
    if (name) return `${name}/${relative(folder, path).split(sep).join('/')}`;
  }
  return path;
}

/** The JavaScript files a bundle wrote into `outdir`, by their paths inside it. */
export const bundledFiles = (outdir: string): string[] =>
  readdirSync(outdir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.js'));

/** The banner's name for `createRequire`. */
const ALIAS = 'bundleRequire';

/** Bundles `entries` (source files under `sources`) into `outdir`, emptied first. */
export async function bundle({
  sources = join(ROOT, 'src'),
  outdir = join(ROOT, 'dist'),
  entries = entryPoints(sources),
  logLevel = 'warning' as LogLevel,
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
    plugins: [moduleUrls(sources, outdir), packages(outdir)],
    // A bundled CommonJS module's require() of Node's modules and of the packages kept out. esbuild
    // names nothing `require` of its own; the import's alias must be a name no module uses.
    banner: {
      js: `import { createRequire as ${ALIAS} } from 'node:module'; const require = ${ALIAS}(import.meta.url);`,
    },
    logLevel,
  });
  for (const file of bundledFiles(outdir))
    if (readFileSync(join(outdir, file), 'utf8').match(new RegExp(`\\b${ALIAS}\\b`, 'g'))?.length !== 2)
      throw new Error(`${file} names ${ALIAS} itself: give the banner's import another alias`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await bundle();
