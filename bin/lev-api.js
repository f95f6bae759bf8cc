#!/usr/bin/env node
// The `lev-api` command. It runs the compiled JavaScript in dist/ (bundled by scripts/bundle.ts:
// `npm run build`, which `npm ci` runs too) when that is at least as new as every source file and
// the lockfile (the bundle holds most packages, so a package installed since makes it stale);
// otherwise the TypeScript sources through tsx's loader, so an edited source is never served stale.
// The compiled form is what production runs: tsx's loader keeps a second JavaScript heap on a
// thread of its own for as long as the process lives (about 70 MB of the service's memory). The
// container image carries no TypeScript sources (only the pages' templates), so there dist/ is all
// there is.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

function newestSource(folder) {
  let newest = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = `${folder}/${entry.name}`;
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function compiledIsCurrent() {
  if (!existsSync(`${root}src/cli.ts`)) return true;
  try {
    const lockfile = existsSync(`${root}package-lock.json`) ? statSync(`${root}package-lock.json`).mtimeMs : 0;
    return statSync(`${root}dist/cli.js`).mtimeMs >= Math.max(newestSource(`${root}src`), lockfile);
  } catch {
    return false;
  }
}

// Tracing, when the OTEL_* settings ask for it, starts before the commands are imported: its
// instrumentations can only wrap the modules (pg) loaded after it (src/tracing/start.ts).
const compiled = compiledIsCurrent();
if (!compiled) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { startTracing } = await import(compiled ? '../dist/tracing/start.js' : '../src/tracing/start.ts');
const tracing = await startTracing(process.env);
const cli = await import(compiled ? '../dist/cli.js' : '../src/cli.ts');
process.exitCode = await cli.main(process.argv.slice(2));
// A command that ends (migrate, load...) sends its last spans; `serve` and the others stop on a signal.
await tracing?.shutdown();
